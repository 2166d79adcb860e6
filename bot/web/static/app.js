// The page's connection: launch data read once, one WebSocket to the server, reconnection
// with backoff, and taps sent as frames (docs/web-protocol.md). Nothing here knows a rule.

import { $ } from "./dom.js";
import { watchSize } from "./layout.js";
import { receive as present } from "./motion.js";
import { discordLaunch, startDiscord } from "./discord.js";
import { closePanel, panelOpen, reopenStart, showStart } from "./panels.js";
import { askReplay, replayOpen, showReplay } from "./replay.js";
import { render, tick } from "./render.js";
import { browserPlatform, startTelegram, telegramLaunch } from "./telegram.js";

const SESSION_KEY = "sahra.session";
const PING_MS = 25000;
const BACKOFF_MS = [500, 1000, 2000, 4000, 8000];
// Refusals that cannot change: the session they name is no good any more. Every other
// code (a process starting, a table moving between processes, a dropped socket, a proxy's
// 502) can pass: the page comes back with backoff and keeps its session.
const FATAL_FORGETS = new Set(["bad_session", "unknown_table", "not_member"]);
const RESEND_MS = 400; // a move refused as "moving" is sent again once, after this
const FAILED = "سهرة: افتح الطاولة من المحادثة · Sahra: open the table from the chat.";

const banner = $("banner");
const toast = $("toast");
const live = $("live");

const ui = {
  live: false, // a socket is open and welcomed: taps may be sent
  offset: 0, // server clock minus ours, in seconds
  showLast: false,
  marked: new Set(), // TX.7: the doubling marks, this page's own until sent
  platform: browserPlatform(), // Telegram's, once its script has run
  send: (frame) => send(frame),
  move: (action) => move(action),
  redraw: () => redraw(),
  say: (message) => say(message),
  review: (deal) => askReplay(ui, deal),
  strings: () => strings,
};
// What the moves are played with (motion.js): the server's pace, the page's voice.
const stage = {
  pace: { card: 0, trick: 0, sweep: 0, announce: 0, result: 0 },
  strings: {},
  teams: false,
  ui,
  platform: ui.platform,
  speak: (text) => speak(text),
  draw: (drawn) => {
    state = drawn;
    stage.teams = drawn.seats.some((seat) => seat.team !== null && seat.team !== undefined);
    redraw();
  },
};
let strings = {};
let state = null;
let socket = null;
let hello = null;
let discord = null; // inside Discord: its SDK, which gives each first hello a fresh code
let reviewing = null; // a deal the page was opened to review (asked once welcomed)
let attempts = 0;
let stopped = false;
let pinger = 0;
let toastTimer = 0;
let lastMove = null; // {version, action, resent}: the move sent last, to resend once

// ---------------------------------------------------------------- launch

// Telegram's script reads the launch data from the address's fragment when it runs: it
// runs before anything here touches the fragment.
async function launch() {
  if (discordLaunch()) {
    // Each load of the Activity signs in afresh through Discord (a code is good once); a
    // session then carries the page's reconnections.
    try {
      discord = await startDiscord();
      ui.platform = stage.platform = discord.platform;
    } catch (error) {
      console.warn("Discord:", error && error.message ? error.message : error);
    }
    return;
  }
  if (telegramLaunch()) {
    ui.platform = stage.platform = await startTelegram();
    ui.platform.onActivated(() => {
      if (!socket || socket.readyState > WebSocket.OPEN) connect();
    });
  }
  const fragment = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  const table = tableOf(query);
  const found = fragment.get("tgWebAppData");
  if (found) {
    hello = { type: "hello", init_data: found };
  } else if (fragment.get("link")) {
    hello = { type: "hello", link: fragment.get("link") };
  } else if (fragment.get("session")) {
    hello = { type: "hello", session: fragment.get("session") };
  }
  if (hello && table) hello.table = table;
  reviewing = dealOf(query);
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  const kept = sessionStorage.getItem(SESSION_KEY);
  if (!hello && kept) hello = { type: "hello", session: kept };
}

function tableOf(query) {
  const param = query.get("tgWebAppStartParam") || "";
  // t<table>, or t<table>d<deal>: a deal's replay at that table (the Review link).
  const found = /^t(\d+)(?:d\d+)?$/.exec(param);
  const raw = found ? found[1] : query.get("table");
  const table = raw && /^\d{1,15}$/.test(raw) ? Number(raw) : 0;
  return table > 0 ? table : null;
}

// A deal to review once the table is open: Telegram's "t12d3" (the deal result's Review
// button), or a personal link's "?review=3" (Discord's).
function dealOf(query) {
  const started = /^t\d+d(\d{1,5})$/.exec(query.get("tgWebAppStartParam") || "");
  const raw = started ? started[1] : query.get("review");
  const deal = raw && /^\d{1,5}$/.test(raw) ? Number(raw) : 0;
  return deal > 0 ? deal : null;
}

// ---------------------------------------------------------------- the socket

// The socket's address, beside the page's own: under Discord's proxy the page is served
// under /.proxy/ as well as /, and the socket must go the same way.
function socketAddress() {
  const address = new URL("ws", location.href);
  address.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  address.search = "";
  address.hash = "";
  return address.href;
}

async function greeting() {
  if (hello || !discord) return hello;
  try {
    return { type: "hello", discord: { code: await discord.code(), instance: discord.instance } };
  } catch (error) {
    // The person refused to authorise, or Discord could not: nothing to sign in with.
    console.warn("Discord:", error && error.message ? error.message : error);
    stopped = true;
    status("failed", strings.web_failed || FAILED);
    return null;
  }
}

async function connect() {
  if (stopped) return;
  const saying = await greeting();
  if (!saying || stopped) return;
  const ws = new WebSocket(socketAddress());
  socket = ws;
  ws.addEventListener("open", () => ws.send(JSON.stringify(saying)));
  ws.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  ws.addEventListener("close", () => {
    if (socket !== ws) return;
    setLive(false);
    clearInterval(pinger);
    if (stopped) return;
    status("reconnecting", strings.web_reconnecting || "…");
    const base = BACKOFF_MS[Math.min(attempts, BACKOFF_MS.length - 1)];
    attempts += 1;
    setTimeout(connect, base * (0.75 + Math.random() / 2));
  });
}

function receive(frame) {
  switch (frame.type) {
    case "authenticate":
      if (discord) discord.authenticate(frame.access_token);
      break;
    case "start":
      attempts = 0;
      strings = frame.strings || {};
      document.documentElement.lang = frame.language;
      document.documentElement.dir = frame.language === "ar" ? "rtl" : "ltr";
      status("connected", "");
      showStart(frame, ui);
      break;
    case "welcome":
      if (panelOpen() === "start") closePanel();
      attempts = 0;
      strings = frame.strings || {};
      stage.strings = strings;
      if (frame.pace) stage.pace = frame.pace;
      sessionStorage.setItem(SESSION_KEY, frame.session);
      hello = { type: "hello", session: frame.session };
      document.documentElement.lang = frame.language;
      document.documentElement.dir = frame.language === "ar" ? "rtl" : "ltr";
      setLive(true);
      status("connected", "");
      clearInterval(pinger);
      pinger = setInterval(() => send({ type: "ping" }), PING_MS);
      if (reviewing !== null && !replayOpen()) askReplay(ui, reviewing);
      reviewing = null;
      break;
    case "state":
      ui.offset = frame.state.now - Date.now() / 1000;
      ui.live = socket !== null && socket.readyState === WebSocket.OPEN;
      present(frame, stage); // its moves are shown first, then it is drawn
      break;
    case "replay":
      showReplay(frame.deal, state ? state.you : null, ui, state ? state.reviewable : []);
      break;
    case "refused":
      if (frame.code === "moving" && resend()) break;
      reopenStart();
      say(frame.message);
      break;
    case "error":
      if (frame.fatal) {
        stopped = true;
        if (FATAL_FORGETS.has(frame.code)) sessionStorage.removeItem(SESSION_KEY);
        setLive(false);
        status("failed", frame.message || strings.web_failed || "");
      } else if (!ui.live && frame.message) {
        status("reconnecting", frame.message); // a hello that can pass: the close retries
      } else {
        say(frame.message);
      }
      break;
    default:
      break; // a pong, or a frame of a newer server: nothing to draw
  }
}

function send(frame) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
}

// A tap: sent once with the version it was drawn at; the page takes no other tap until
// the table answers with its next state.
function move(action) {
  if (!ui.live || !state) return;
  lastMove = { version: state.version, action, resent: false };
  send({ type: "move", version: state.version, action });
  setLive(false);
}

// The table was changing processes when the move came: the same move, drawn at the same
// version, goes again once (the version keeps it from being applied twice).
function resend() {
  const last = lastMove;
  if (!last || last.resent || !state || state.version !== last.version) return false;
  last.resent = true;
  setLive(false);
  setTimeout(() => {
    if (state && state.version === last.version) send({ type: "move", version: last.version, action: last.action });
    else setLive(socket !== null && socket.readyState === WebSocket.OPEN);
  }, RESEND_MS);
  return true;
}

// ---------------------------------------------------------------- on screen

function setLive(live) {
  ui.live = live;
  redraw();
}

function redraw() {
  if (state) render(state, strings, ui);
}

function status(name, text) {
  document.body.dataset.status = name;
  banner.textContent = text;
  banner.hidden = name === "connected";
}

// Other players' moves and trick winners, for screen readers (a polite live region).
function speak(text) {
  if (!text) return;
  live.textContent = text;
}

function say(message) {
  if (!message) return;
  toast.textContent = message;
  toast.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    toast.hidden = true;
  }, 4000);
}

async function main() {
  watchSize();
  await launch();
  if (hello || discord) {
    status("connecting", "…");
    connect();
  } else {
    stopped = true;
    status("failed", FAILED);
  }
  setInterval(() => tick(strings, ui.offset), 250);
}

main();

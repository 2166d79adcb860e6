// The table drawn from a state the server sent: every part kept between states and
// updated by key (a seat, a card), so keyboard focus stays where it was and what each
// seat shows is always the latest state's. The page decides nothing about the game: it
// shows the hand, the decisions and the commands it was given, and sends back the tap.

import { $, setText } from "./dom.js";
import { drawBar, drawCommands, drawDecisions, drawDoubling, drawRows, drawTrick, drawTurn } from "./felt.js";
import { drawHand } from "./hand.js";
import { fit } from "./layout.js";
import { closePanel, panelOpen, showLastTrick, showMatchEnd } from "./panels.js";
import { drawSeats, tickSeats } from "./seats.js";

const clocks = new Map(); // "seat:deadline" → when this page first saw that turn begin
let wasMyTurn = false;
let endShown = "";

export function render(state, strings, ui) {
  const focused = focusedPlace();
  const root = document.documentElement;
  if (root.lang !== state.language) root.lang = state.language;
  if (root.dir !== state.dir) root.dir = state.dir;
  const body = document.body.dataset;
  body.phase = state.phase;
  body.watching = String(state.you === null);
  body.yourTurn = String(Boolean(state.your_turn));
  drawBar(state, strings, ui);
  drawSeats(state, strings, clocks);
  drawTrick(state, strings);
  drawRows(state);
  drawDecisions(state, ui);
  drawDoubling(state, ui);
  drawCommands(state, ui);
  drawHand(state, strings, ui);
  drawTurn(state, strings);
  lastTrickButton(state, strings, ui);
  if (state.your_turn && !wasMyTurn) ui.platform.haptic("turn");
  wasMyTurn = Boolean(state.your_turn);
  ui.platform.confirmClose(state.you !== null && state.status === "running");
  const ended = state.result ? `${state.table}` : "";
  if (ended && ended !== endShown && panelOpen() !== "result") showMatchEnd(state, strings, ui);
  endShown = ended;
  if (!ended && panelOpen() === "over") closePanel();
  tickSeats(strings, ui.offset);
  fit();
  keepFocus(focused);
  body.version = String(state.version);
}

// Where keyboard focus was: its element, and its place among the buttons of its group.
function focusedPlace() {
  const element = document.activeElement;
  if (!element || element === document.body || !$("app").contains(element)) return null;
  const group = element.closest("#cards, #decisions, #doubling, #commands");
  const buttons = group ? [...group.querySelectorAll("button")] : [];
  return { element, index: buttons.indexOf(element) };
}

// A played card or a bid taken away keeps the focus near: the card now at its place (or
// the hand's last), else the first card of the hand, never the page itself.
function keepFocus(was) {
  if (!was || (was.element.isConnected && !was.element.closest("[hidden]"))) return;
  const cards = [...$("cards").querySelectorAll("button")];
  const next = cards[Math.min(Math.max(was.index, 0), cards.length - 1)] || $("app").querySelector("button:not([hidden])");
  if (next) next.focus({ preventScroll: true });
}

function lastTrickButton(state, strings, ui) {
  const toggle = $("last-toggle");
  toggle.hidden = !state.last_trick;
  setText(toggle, "⟲");
  toggle.setAttribute("aria-label", strings.web_last_trick || "");
  toggle.title = strings.web_last_trick || "";
  toggle.onclick = () => showLastTrick(state, strings, ui);
}

export function tick(strings, offset) {
  tickSeats(strings, offset);
}

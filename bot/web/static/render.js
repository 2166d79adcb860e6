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
  body.version = String(state.version);
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

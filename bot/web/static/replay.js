// The replay of a finished deal: a second view over the table. The server sends the deal
// whole (only once it has ended: the four hands as dealt, the bidding, every card, the
// result, the double-dummy analysis); the page steps through it. Step 0 shows the hands as
// dealt; then each bid or contract step, then each card, then the result. Previous / next,
// the first and last step, a slider, and the keyboard's arrows (in reading order: in
// Arabic the next step is to the left), Home and End; Escape closes it.
//
// The hands are drawn as a bridge diagram (each seat's suits on lines, the cards still
// held), the current trick in the middle in its four places, and under it what happened
// at this step in words (also for screen readers), with a card's double-dummy mark: what
// it cost its side ("−1") and the cards that would have kept the tricks.

import { cardImage } from "./cards.js";
import { $, bdi, el, mixed, setText } from "./dom.js";
import { placeOf } from "./layout.js";
import { resultTable } from "./panels.js";

const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUITS = ["S", "H", "C", "D"];
const RED = new Set(["H", "D"]);

let shown = null; // {deal, you, step, steps, ui, focused}

export function replayOpen() {
  return shown !== null;
}

// Ask the server for deal ``number``'s replay (it answers with a "replay" frame).
export function askReplay(ui, number) {
  ui.send({ type: "replay", deal: number });
}

export function closeReplay() {
  if (!shown) return;
  const { ui, focused } = shown;
  shown = null;
  $("replay").hidden = true;
  document.body.dataset.view = "table";
  ui.platform.setBack(null);
  if (focused && focused.isConnected) focused.focus({ preventScroll: true });
}

// A "replay" frame: the deal, drawn at its first step (or the step the view was at, for
// the same deal: a new analysis arriving keeps the place).
export function showReplay(deal, you, ui, reviewable) {
  const same = shown && shown.deal.deal === deal.deal && shown.deal.table === deal.table;
  const step = same ? shown.step : 0;
  const focused = shown ? shown.focused : document.activeElement;
  shown = { deal, you, step, steps: stepsOf(deal), ui, focused, reviewable: reviewable || [] };
  $("replay").hidden = false;
  document.body.dataset.view = "replay";
  ui.platform.setBack(() => closeReplay());
  build();
  go(step);
  if (!same) $("replay-next").focus({ preventScroll: true });
}

// Steps: [kind, index] — the deal as dealt, each auction step, each card, the result.
function stepsOf(deal) {
  const steps = [["dealt", 0]];
  deal.auction.forEach((_, index) => steps.push(["auction", index]));
  deal.plays.forEach((_, index) => steps.push(["play", index]));
  steps.push(["result", 0]);
  return steps;
}

function words(key, values) {
  let text = shown.deal.strings[key] || "";
  for (const [name, value] of Object.entries(values || {})) text = text.replaceAll(`{${name}}`, String(value));
  return text;
}

function button(id, label, name, onTap) {
  const made = el("button", "tool", label);
  made.id = id;
  made.type = "button";
  made.setAttribute("aria-label", name);
  made.title = name;
  made.addEventListener("click", onTap);
  return made;
}

function build() {
  const { deal } = shown;
  const root = $("replay");
  root.setAttribute("aria-label", deal.title);
  const head = el("header", "replay-bar");
  const title = el("h2", "", deal.title);
  title.id = "replay-title";
  const others = shown.reviewable.filter((number) => number !== deal.deal);
  const earlier = others.filter((number) => number < deal.deal).pop();
  const later = others.find((number) => number > deal.deal);
  head.append(title);
  if (earlier !== undefined) head.append(button("replay-earlier", "«", `${earlier}`, () => askReplay(shown.ui, earlier)));
  if (later !== undefined) head.append(button("replay-later", "»", `${later}`, () => askReplay(shown.ui, later)));
  head.append(button("replay-close", "✕", words("replay_close"), () => closeReplay()));
  const felt = el("div", "replay-felt");
  for (let seat = 0; seat < 4; seat += 1) {
    const hand = el("section", "replay-hand");
    hand.dataset.place = placeOf(seat, shown.you);
    hand.dataset.seat = String(seat);
    felt.append(hand);
  }
  const trick = el("div", "replay-trick");
  trick.setAttribute("role", "region");
  trick.setAttribute("aria-label", words("replay_play"));
  felt.append(trick);
  const said = el("p", "replay-said");
  said.id = "replay-said";
  said.setAttribute("aria-live", "polite");
  const mark = el("div", "replay-mark");
  mark.id = "replay-mark";
  const controls = el("div", "replay-controls");
  const slider = el("input");
  slider.id = "replay-slider";
  slider.type = "range";
  slider.min = "0";
  slider.max = String(shown.steps.length - 1);
  slider.setAttribute("aria-label", words("replay_step", { step: 1, steps: shown.steps.length }));
  slider.addEventListener("input", () => go(Number(slider.value)));
  controls.append(
    button("replay-start", "|◀", words("replay_start"), () => go(0)),
    button("replay-previous", "◀", words("replay_previous"), () => go(shown.step - 1)),
    slider,
    button("replay-next", "▶", words("replay_next"), () => go(shown.step + 1)),
    button("replay-end", "▶|", words("replay_end"), () => go(shown.steps.length - 1)),
  );
  const note = el("p", "replay-note", deal.note);
  root.replaceChildren(head, felt, said, mark, controls, note);
}

// The cards each seat still holds after ``played`` cards of the deal.
function heldAfter(played) {
  const gone = new Set(shown.deal.plays.slice(0, played).filter((p) => !p.pass).map((p) => p.card));
  return shown.deal.hands.map((hand) => hand.filter((card) => !gone.has(card.card)));
}

function go(step) {
  const { steps, deal } = shown;
  const at = Math.max(0, Math.min(step, steps.length - 1));
  shown.step = at;
  const [kind, index] = steps[at];
  const played = kind === "play" ? index + 1 : kind === "result" ? deal.plays.length : 0;
  drawHands(heldAfter(played));
  drawTrick(kind === "play" ? index : kind === "result" ? deal.plays.length - 1 : -1);
  drawSaid(kind, index);
  drawMark(kind, index);
  const slider = $("replay-slider");
  slider.value = String(at);
  const label = words("replay_step", { step: at + 1, steps: steps.length });
  slider.setAttribute("aria-valuetext", label);
  $("replay-previous").disabled = at === 0;
  $("replay-start").disabled = at === 0;
  $("replay-next").disabled = at === steps.length - 1;
  $("replay-end").disabled = at === steps.length - 1;
  $("replay").dataset.step = String(at);
  $("replay").dataset.kind = kind;
}

function drawHands(held) {
  const { deal } = shown;
  for (const hand of $("replay").querySelectorAll(".replay-hand")) {
    const seat = Number(hand.dataset.seat);
    const info = deal.seats[seat];
    const name = el("h3", "", "");
    name.append(bdi(info.name || `${seat + 1}`));
    if (info.dealer) name.append(el("span", "tag", " ·D"));
    const cards = held[seat];
    hand.setAttribute("aria-label", `${info.name}: ${cards.map((card) => card.name).join("، ")}`);
    const lines = SUITS.map((suit) => {
      const line = el("p", RED.has(suit) ? "suit-line red" : "suit-line");
      line.setAttribute("aria-hidden", "true");
      // High to low, as a hand diagram is read.
      const ranks = cards
        .filter((card) => card.suit === suit)
        .map((card) => card.label.slice(0, -1))
        .reverse();
      line.append(el("span", "suit", SYMBOLS[suit]), bdi(ranks.length ? ranks.join(" ") : "—"));
      return line;
    });
    hand.replaceChildren(name, ...lines);
  }
}

// The trick the card at ``index`` belongs to, as far as that card (a trick's last card
// shows the trick whole, its taker marked); nothing before the first card.
function drawTrick(index) {
  const { deal } = shown;
  const area = $("replay").querySelector(".replay-trick");
  const spots = [];
  const current = index >= 0 ? deal.plays[index] : null;
  if (current && current.trick !== null && current.trick !== undefined) {
    const trick = deal.plays.filter((play, at) => play.trick === current.trick && at <= index);
    const taker = trick.length === 4 ? trick[3].winner : null;
    for (const play of trick) {
      const spot = el("figure", "played");
      spot.dataset.place = placeOf(play.seat, shown.you);
      spot.classList.toggle("winner", play.seat === taker);
      spot.append(cardImage(play));
      const cost = markOf(deal.plays.indexOf(play));
      if (cost) spot.append(el("span", "cost", `−${cost.cost}`));
      spots.push(spot);
    }
  } else if (current) {
    const spot = el("figure", "played");
    spot.dataset.place = placeOf(current.seat, shown.you);
    if (!current.pass) spot.append(cardImage(current));
    spots.push(spot);
  }
  area.replaceChildren(...spots);
}

function drawSaid(kind, index) {
  const { deal } = shown;
  const said = $("replay-said");
  if (kind === "dealt") setText(said, [words("replay_hands"), deal.trump && deal.trump.name].filter(Boolean).join(" · "));
  else if (kind === "auction") setText(said, deal.auction[index].say);
  else if (kind === "play") setText(said, deal.plays[index].say);
  else setText(said, words("replay_result"));
}

// The analysis' entry for the card at ``index`` of the plays, when it cost something.
function markOf(index) {
  const analysis = shown.deal.analysis || {};
  const entry = (analysis.cards || [])[index];
  return entry && entry.cost ? entry : null;
}

function nameOf(code) {
  for (const hand of shown.deal.hands) {
    const found = hand.find((card) => card.card === code);
    if (found) return found;
  }
  return { card: code, label: code, name: code };
}

function drawMark(kind, index) {
  const { deal } = shown;
  const area = $("replay-mark");
  const analysis = deal.analysis || {};
  const parts = [];
  if (kind === "play") {
    const mark = markOf(index);
    if (mark) {
      const better = (mark.better || []).map((code) => nameOf(code).label).join(" ");
      parts.push(mixed("p", words("replay_cost", { cost: mark.cost, better }), "cost-line"));
    }
  } else if (kind === "result") {
    if (deal.result) parts.push(resultTable(deal.result, shown.ui.strings()));
    for (const line of analysis.lines || []) parts.push(mixed("p", line, "analysis-line"));
  }
  if (analysis.status === "pending") parts.push(el("p", "analysis-line", words("replay_pending")));
  if (analysis.status === "none" && kind === "result") parts.push(el("p", "analysis-line", words("replay_no_analysis")));
  area.replaceChildren(...parts);
}

document.addEventListener("keydown", (event) => {
  if (!shown) return;
  const rtl = document.documentElement.dir === "rtl";
  const forward = rtl ? "ArrowLeft" : "ArrowRight";
  const back = rtl ? "ArrowRight" : "ArrowLeft";
  if (event.target && event.target.id === "replay-slider" && (event.key === forward || event.key === back)) return;
  if (event.key === forward) go(shown.step + 1);
  else if (event.key === back) go(shown.step - 1);
  else if (event.key === "Home") go(0);
  else if (event.key === "End") go(shown.steps.length - 1);
  else if (event.key === "Escape") closeReplay();
  else return;
  event.preventDefault();
});

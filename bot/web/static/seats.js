// The four seats around the felt, kept between states (one element per place) and
// updated in place, so what a seat shows is always the latest state's: its name, its bid,
// its tricks, its score, and the ring that drains to the real deadline on the seat to act.

import { $, bdi, el, setAttr, setText } from "./dom.js";
import { placeOf } from "./layout.js";

const RING = 2 * Math.PI * 22; // the ring's circumference (r = 22 in a 48 box)
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attributes) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

// The parts of a seat, made once.
function build(box) {
  box.setAttribute("role", "region");
  const avatar = el("div", "avatar");
  const ring = svg("svg", { viewBox: "0 0 48 48", class: "ring", "aria-hidden": "true" });
  ring.append(
    svg("circle", { cx: "24", cy: "24", r: "22", class: "track" }),
    svg("circle", { cx: "24", cy: "24", r: "22", class: "left", "stroke-dasharray": String(RING) }),
  );
  const initial = el("span", "initial");
  initial.setAttribute("aria-hidden", "true");
  avatar.append(ring, initial, el("span", "dealer"));
  const name = el("p", "name");
  const chips = el("p", "chips");
  const bid = el("span", "chip bid");
  const tricks = el("span", "chip tricks");
  const cards = el("span", "chip cards");
  const score = el("span", "chip score");
  const clock = el("span", "chip clock");
  chips.append(bid, tricks, cards, score, clock);
  const said = el("p", "said");
  box.replaceChildren(avatar, name, chips, said);
  box.dataset.built = "1";
}

function part(box, selector) {
  return box.querySelector(selector);
}

function chip(element, label, value) {
  element.hidden = value === null || value === undefined || value === "";
  if (element.hidden) return;
  const text = `${label ? `${label} ` : ""}${value}`;
  if (element.textContent !== text) element.replaceChildren(document.createTextNode(label ? `${label} ` : ""), bdi(value));
}

export function drawSeats(state, strings, clocks) {
  for (const entry of state.seats) {
    const box = $("felt").querySelector(`.seat[data-place="${placeOf(entry.seat, state.you)}"]`);
    if (!box.dataset.built) build(box);
    box.dataset.seat = String(entry.seat);
    box.classList.toggle("empty", !entry.name);
    box.classList.toggle("you", Boolean(entry.you));
    box.classList.toggle("computer", Boolean(entry.computer));
    box.classList.toggle("away", Boolean(entry.away));
    box.classList.toggle("ready", Boolean(entry.ready));
    if (entry.team === null || entry.team === undefined) delete box.dataset.team;
    else box.dataset.team = String(entry.team);
    const name = entry.name || `${strings.web_seat || "Seat"} ${entry.seat + 1}`;
    setAttr(box, "aria-label", name);
    setAttr(box, "aria-current", entry.to_act ? "true" : null);
    const shown = part(box, ".name");
    if (shown.textContent !== name) shown.replaceChildren(bdi(name));
    setText(part(box, ".initial"), entry.name ? Array.from(entry.name.trim())[0] || "" : "+");
    const dealer = part(box, ".dealer");
    dealer.hidden = !entry.dealer && !entry.owner;
    setText(dealer, entry.owner ? "♛" : entry.dealer ? "D" : "");
    setAttr(dealer, "title", entry.owner ? strings.web_kingdom : entry.dealer ? strings.web_dealer : null);
    chip(part(box, ".bid"), strings.web_bid, entry.bid);
    chip(part(box, ".tricks"), strings.web_tricks, entry.tricks);
    // Another seat's cards in hand (yours are in front of you).
    const count = part(box, ".cards");
    chip(count, "", entry.you ? null : entry.cards);
    setAttr(count, "title", strings.web_cards);
    const personal = entry.points ?? entry.score;
    chip(part(box, ".score"), entry.points !== null && entry.points !== undefined ? strings.web_points : "Σ", personal);
    const acting = Boolean(entry.to_act && state.deadline);
    box.classList.toggle("acting", Boolean(entry.to_act));
    if (acting) {
      const key = `${entry.seat}:${state.deadline}`;
      if (!clocks.has(key)) clocks.set(key, Date.now() / 1000);
      box.dataset.deadline = String(state.deadline);
      box.dataset.since = String(clocks.get(key));
    } else {
      delete box.dataset.deadline;
    }
    part(box, ".clock").hidden = !acting;
  }
}

// Each second (and at once after a state), the ring and the seconds of the seat to act.
export function tickSeats(strings, offset) {
  const now = Date.now() / 1000;
  for (const box of document.querySelectorAll(".seat")) {
    const ring = box.querySelector(".ring .left");
    if (!ring) continue;
    if (!box.dataset.deadline) {
      ring.style.strokeDashoffset = String(RING);
      box.dataset.urgency = "";
      continue;
    }
    const deadline = Number(box.dataset.deadline) - offset; // in our own clock
    const since = Number(box.dataset.since);
    const whole = Math.max(1, deadline - since);
    const left = Math.max(0, deadline - now);
    const share = Math.min(1, left / whole);
    ring.style.strokeDashoffset = String(RING * (1 - share));
    box.dataset.urgency = share < 0.2 || left < 5 ? "high" : share < 0.5 ? "mid" : "low";
    const seconds = Math.ceil(left);
    const text = (strings.web_seconds || "{seconds} s").replace("{seconds}", String(seconds));
    const clock = box.querySelector(".clock");
    if (clock.textContent !== text) {
      const [before, after] = (strings.web_seconds || "{seconds} s").split("{seconds}");
      clock.replaceChildren(document.createTextNode(before || ""), bdi(seconds), document.createTextNode(after || ""));
    }
  }
}

export function announce(seat, you, text, ms) {
  const box = $("felt").querySelector(`.seat[data-place="${placeOf(seat, you)}"]`);
  if (!box) return;
  const said = box.querySelector(".said");
  if (!said) return;
  said.replaceChildren(bdi(text));
  said.classList.add("on");
  clearTimeout(Number(said.dataset.timer || 0));
  said.dataset.timer = String(setTimeout(() => said.classList.remove("on"), Math.max(ms, 900) * 1.6));
}

// The table drawn from the last state the server sent. Every text is the server's and goes
// in with textContent; the page decides nothing about the game: it shows the hand, the
// decisions and the commands it was given, and sends back what was tapped.

import { bdi, cardButton, cardImage } from "./cards.js";

const $ = (id) => document.getElementById(id);
// Play goes from seat s to s + 1, to the right: you at the bottom, s + 1 on the right,
// s + 2 at the top, s + 3 on the left. Physical places: they do not flip in Arabic.
const PLACES = ["bottom", "right", "top", "left"];
const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

function clear(element) {
  element.replaceChildren();
  return element;
}

function el(tag, className, text) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined && text !== null) element.textContent = String(text);
  return element;
}

function button(label, onTap, className) {
  const element = el("button", className, label);
  element.type = "button";
  element.addEventListener("click", onTap);
  return element;
}

// A card with its TX.7 mark ("Q♦×2", between the server's LRM marks), a lone mark, or a
// number: each is isolated so that Arabic around it cannot reorder its parts.
const ISOLATED = /(\u200e?(?:10|[2-9JQKA])[♣♦♥♠]\u200e?(?:×\d+)?|×\d+|\d+(?:[.,–-]\d+)*)/;

// A line of text in which every card and number is isolated (<bdi>), so it reads right
// both ways.
function mixed(tag, text, className) {
  const element = el(tag, className);
  String(text)
    .split(ISOLATED)
    .forEach((piece, index) => {
      if (!piece) return;
      // split() puts the captured pieces at the odd places
      element.append(index % 2 === 1 ? bdi(piece) : document.createTextNode(piece));
    });
  return element;
}

export function placeOf(seat, you) {
  return PLACES[(seat - (you ?? 0) + 4) % 4];
}

function seatBox(entry, state, strings, now) {
  const box = $("table").querySelector(`[data-place="${placeOf(entry.seat, state.you)}"]`);
  clear(box);
  box.dataset.seat = String(entry.seat);
  box.dir = state.dir;
  box.classList.toggle("acting", Boolean(entry.to_act));
  box.classList.toggle("you", Boolean(entry.you));
  box.classList.toggle("empty", !entry.name);
  if (entry.team !== null && entry.team !== undefined) box.dataset.team = String(entry.team);
  else delete box.dataset.team;
  const name = el("p", "name");
  name.append(bdi(entry.name || "—"));
  box.append(name);
  const marks = [];
  if (entry.computer) marks.push(strings.web_computer);
  if (entry.away) marks.push(strings.web_away);
  if (entry.dealer) marks.push(strings.web_dealer);
  if (entry.owner) marks.push(strings.web_kingdom);
  if (marks.length) box.append(el("p", "mark", marks.filter(Boolean).join(" · ")));
  const facts = el("p", "facts");
  const add = (label, value) => {
    if (value === null || value === undefined || value === "") return;
    const item = el("span", "fact");
    item.append(document.createTextNode(label ? `${label} ` : ""), bdi(value));
    facts.append(item);
  };
  if (entry.team !== null && entry.team !== undefined) {
    add("", entry.team === 0 ? strings.team_a : strings.team_b);
  }
  add(strings.web_bid, entry.bid);
  add(strings.web_tricks, entry.tricks);
  add(strings.web_cards, entry.cards);
  add(strings.web_points, entry.points);
  box.append(facts);
  if (entry.to_act && state.deadline) {
    const left = Math.max(0, Math.round(state.deadline - now));
    const clock = el("p", "clock");
    clock.dataset.deadline = String(state.deadline);
    clock.append(...secondsText(strings, left));
    box.append(clock);
  }
}

export function secondsText(strings, seconds) {
  const [before, after] = (strings.web_seconds || "{seconds} s").split("{seconds}");
  return [document.createTextNode(before || ""), bdi(seconds), document.createTextNode(after || "")];
}

function trick(state) {
  const middle = clear($("trick"));
  for (const played of state.trick || []) {
    const spot = el("span", "played");
    spot.dataset.place = placeOf(played.seat, state.you);
    spot.append(cardImage(played));
    middle.append(spot);
  }
}

function rows(state) {
  const box = $("rows");
  box.hidden = !state.rows;
  if (!state.rows) return;
  clear(box);
  for (const suit of ["S", "H", "D", "C"]) {
    const row = state.rows[suit];
    const line = el("p", "row");
    line.dir = "ltr";
    line.append(el("span", `suit${suit === "H" || suit === "D" ? " red" : ""}`, SUIT_SYMBOLS[suit]));
    if (row) {
      line.append(cardImage({ card: row.low, label: row.low_label, suit }));
      if (row.high !== row.low) {
        line.append(el("span", "dots", "…"));
        line.append(cardImage({ card: row.high, label: row.high_label, suit }));
      }
    }
    box.append(line);
  }
}

function header(state, strings, ui) {
  $("title").textContent = state.title || strings.web_title || "Sahra";
  const facts = clear($("facts"));
  for (const fact of state.facts || []) {
    const item = el("li");
    if (fact.label) item.append(el("span", "quiet", `${fact.label}: `));
    item.append(mixed("span", fact.value));
    facts.append(item);
  }
  const language = $("language");
  language.hidden = !strings.web_language;
  language.textContent = strings.web_language || "";
  language.onclick = () => ui.send({ type: "language", language: state.language === "ar" ? "en" : "ar" });
}

function decisions(state, ui) {
  const box = clear($("decisions"));
  const offered = state.decisions || [];
  box.hidden = offered.length === 0;
  for (const decision of offered) {
    const choice = button(decision.label, () => ui.move(decision.action), `decision ${decision.kind}`);
    choice.disabled = !ui.live;
    box.append(choice);
  }
}

// TX.7: the player marks any of the cards they may double and sends the whole answer once;
// the marks are this page's own until then.
function doubling(state, ui) {
  const box = clear($("doubling"));
  const offer = state.doubling;
  box.hidden = !offer;
  if (!offer) {
    ui.marked.clear();
    return;
  }
  const cards = el("div", "toggles");
  for (const card of offer.cards) {
    const toggle = cardButton(card, () => {
      if (ui.marked.has(card.card)) ui.marked.delete(card.card);
      else ui.marked.add(card.card);
      doubling(state, ui);
    });
    toggle.setAttribute("aria-pressed", String(ui.marked.has(card.card)));
    toggle.disabled = !ui.live;
    cards.append(toggle);
  }
  const label = ui.marked.size ? offer.confirm_label : offer.none_label;
  const confirm = button(label, () => ui.move({ type: "double", cards: [...ui.marked] }), "decision");
  confirm.disabled = !ui.live;
  box.append(cards, confirm);
}

function hand(state, strings, ui) {
  const section = $("hand");
  const cards = clear($("cards"));
  const held = state.hand || [];
  section.hidden = state.you === null || held.length === 0;
  $("hand-title").textContent = strings.web_your_hand || "";
  for (const card of held) {
    const tap = cardButton(card, () => ui.move(card.action));
    tap.disabled = !card.legal || !ui.live || Boolean(state.doubling);
    cards.append(tap);
  }
}

function commands(state, ui) {
  const box = clear($("commands"));
  const offered = state.commands || [];
  box.hidden = offered.length === 0;
  for (const command of offered) {
    // With the version it was offered at: a second tap before the table answers is stale.
    const tap = button(
      command.label,
      () => ui.send({ type: "command", command: command.command, version: state.version }),
      "command",
    );
    tap.disabled = !ui.live;
    box.append(tap);
  }
}

function side(state, strings, ui) {
  const scores = clear($("scores"));
  if ((state.scores || []).length) {
    scores.append(el("h2", "quiet", strings.web_scores));
    const list = el("ul");
    for (const score of state.scores) {
      const item = el("li");
      item.append(bdi(score.name), document.createTextNode(": "), bdi(score.score));
      list.append(item);
    }
    scores.append(list);
    if (state.target) scores.append(mixed("p", `→ ${state.target}`, "quiet"));
  }
  const toggle = $("last-toggle");
  const last = clear($("last"));
  toggle.hidden = !state.last_trick;
  toggle.textContent = ui.showLast ? strings.web_hide_last_trick : strings.web_last_trick;
  toggle.setAttribute("aria-expanded", String(ui.showLast));
  toggle.onclick = () => {
    ui.showLast = !ui.showLast;
    ui.redraw();
  };
  last.hidden = !state.last_trick || !ui.showLast;
  if (state.last_trick) {
    for (const played of state.last_trick.cards) {
      const spot = el("span", "played");
      spot.classList.toggle("winner", played.seat === state.last_trick.winner);
      spot.append(cardImage(played));
      last.append(spot);
    }
  }
  const sheet = clear($("sheet"));
  sheet.hidden = !state.sheet;
  if (state.sheet) {
    sheet.append(mixed("h2", state.sheet.title));
    for (const line of state.sheet.lines) if (line.trim()) sheet.append(mixed("p", line));
  }
  const result = clear($("result"));
  result.hidden = !state.result;
  if (state.result) for (const line of state.result.text.split("\n")) result.append(mixed("p", line));
}

export function render(state, strings, ui) {
  document.documentElement.lang = state.language;
  document.documentElement.dir = state.dir;
  document.body.dataset.version = String(state.version);
  document.body.dataset.phase = state.phase;
  document.body.dataset.watching = String(state.you === null);
  const now = Date.now() / 1000 + ui.offset;
  header(state, strings, ui);
  $("table").setAttribute("aria-label", state.title || "");
  for (const entry of state.seats) seatBox(entry, state, strings, now);
  trick(state);
  rows(state);
  const watching = state.you === null ? strings.web_watching : "";
  $("turn").textContent = [watching, state.turn_text].filter(Boolean).join(" · ");
  decisions(state, ui);
  doubling(state, ui);
  hand(state, strings, ui);
  commands(state, ui);
  side(state, strings, ui);
}

// The countdowns tick between two states without a frame.
export function tick(strings, offset) {
  const now = Date.now() / 1000 + offset;
  for (const clock of document.querySelectorAll(".clock[data-deadline]")) {
    const left = Math.max(0, Math.round(Number(clock.dataset.deadline) - now));
    clock.replaceChildren(...secondsText(strings, left));
  }
}

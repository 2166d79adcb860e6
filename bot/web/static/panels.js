// What opens over the felt: a deal's result card (it closes by itself after a short
// countdown, or when the player continues), the last trick in its four places, and the
// match's end with Rematch. One panel at a time; Escape, the close button or Telegram's
// BackButton closes it, and focus goes back where it was.

import { cardImage } from "./cards.js";
import { $, bdi, el, mixed } from "./dom.js";
import { placeOf } from "./layout.js";

let current = null; // {kind, close}

export function panelOpen() {
  return current ? current.kind : null;
}

export function closePanel() {
  if (current) current.close();
}

function open(kind, title, body, actions, ui, onClose) {
  closePanel();
  const focused = document.activeElement;
  $("panel").dataset.kind = kind;
  $("panel-title").replaceChildren(mixed("span", title));
  $("panel-body").replaceChildren(...body);
  $("panel-actions").replaceChildren(...actions);
  $("overlay").hidden = false;
  const close = () => {
    if (current !== entry) return;
    current = null;
    $("overlay").hidden = true;
    ui.platform.setBack(null);
    if (onClose) onClose();
    if (focused && focused.isConnected) focused.focus({ preventScroll: true });
  };
  const entry = { kind, close };
  current = entry;
  ui.platform.setBack(close);
  const first = $("panel-actions").querySelector("button");
  if (first) first.focus({ preventScroll: true });
  return entry;
}

function action(label, onTap, className = "command") {
  const button = el("button", className, label);
  button.type = "button";
  button.addEventListener("click", onTap);
  return button;
}

export function resultTable(result, strings) {
  const table = el("table", "result");
  const head = el("tr");
  for (const label of ["", strings.web_bid, strings.web_tricks, strings.web_points, strings.web_total]) {
    head.append(el("th", "", label || ""));
  }
  table.append(head);
  for (const row of result.rows) {
    const line = el("tr");
    if (row.made === true) line.className = "made";
    if (row.made === false) line.className = "broken";
    const name = el("th", "who");
    name.append(bdi(row.name));
    if (row.made !== null && row.made !== undefined) {
      const mark = el("span", "mark", row.made ? " ✓" : " ✗");
      mark.append(el("span", "word", ` ${row.made ? strings.web_made : strings.web_broken}`));
      name.append(mark);
    }
    line.append(name);
    for (const value of [row.bid ?? "—", row.tricks ?? "—", row.delta, row.score]) {
      const cell = el("td");
      cell.append(bdi(value));
      line.append(cell);
    }
    table.append(line);
  }
  return table;
}

function teamsLine(state, result, strings) {
  if (!result.teams) return null;
  const line = el("p", "teams");
  result.teams.forEach((team, index) => {
    const item = el("span", "team");
    item.dataset.team = String(index);
    item.append(document.createTextNode(`${team.name} `), bdi(team.score));
    line.append(item);
  });
  if (result.target) line.append(el("span", "target", (strings.web_to_win || "{target}").replace("{target}", result.target)));
  return line;
}

// A deal's result card; resolves once it is closed (continued, timed out, or replaced).
export function showResult(state, strings, ui, milliseconds) {
  const result = state.deal_result;
  if (!result) return Promise.resolve();
  return new Promise((resolve) => {
    const body = [];
    if (result.cancelled && state.sheet) {
      for (const line of state.sheet.lines) if (line.trim()) body.push(mixed("p", line));
    } else {
      body.push(resultTable(result, strings));
    }
    const teams = teamsLine(state, result, strings);
    if (teams) body.push(teams);
    let left = Math.ceil(milliseconds / 1000);
    const button = action(`${strings.web_continue || "OK"} (${left})`, () => entry.close());
    const actions = [button];
    if ((state.reviewable || []).includes(result.deal)) {
      // The replay waits: the result card closes first, the table goes on behind it.
      actions.unshift(action(strings.btn_review, () => {
        entry.close();
        ui.review(result.deal);
      }, "quiet"));
    }
    const timer = setInterval(() => {
      left -= 1;
      button.textContent = `${strings.web_continue || "OK"} (${Math.max(left, 0)})`;
      if (left <= 0) entry.close();
    }, 1000);
    const entry = open("result", result.title, body, actions, ui, () => {
      clearInterval(timer);
      resolve();
    });
  });
}

export function showLastTrick(state, strings, ui) {
  const last = state.last_trick;
  if (!last) return;
  const felt = el("div", "mini");
  for (const played of last.cards) {
    const spot = el("figure", "played");
    spot.dataset.place = placeOf(played.seat, state.you);
    spot.classList.toggle("winner", played.seat === last.winner);
    const seat = state.seats[played.seat];
    const caption = el("figcaption");
    caption.append(bdi(seat ? seat.name : ""));
    spot.append(cardImage(played), caption);
    felt.append(spot);
  }
  open("last", strings.web_last_trick, [felt], [action(strings.web_close, () => closePanel())], ui);
}

// The match's end: who won, the scores, Rematch. It stays until closed.
export function showMatchEnd(state, strings, ui) {
  if (!state.result) return;
  const body = state.result.text.split("\n").filter((line) => line.trim()).map((line) => mixed("p", line));
  const actions = (state.commands || []).map((command) =>
    action(command.label, () => ui.send({ type: "command", command: command.command, version: state.version })),
  );
  const deals = state.reviewable || [];
  if (deals.length) {
    const last = deals[deals.length - 1];
    actions.push(action(strings.btn_review, () => ui.review(last), "quiet"));
  }
  actions.push(action(strings.web_close, () => closePanel(), "quiet"));
  open("over", state.title, body, actions, ui);
}

// An Activity launched in a channel with no table: the games to start one there, and its
// language (the server's guess first). Stays until the table comes (or another offer).
export function showStart(offer, ui) {
  const strings = offer.strings || {};
  let language = offer.language;
  const languages = el("p", "languages");
  const choices = [
    ["ar", "العربية"],
    ["en", "English"],
  ].map(([code, name]) => {
    const button = action(name, () => {
      language = code;
      for (const other of choices) other.setAttribute("aria-pressed", String(other === button));
    }, "quiet");
    button.lang = code;
    button.setAttribute("aria-pressed", String(code === language));
    return button;
  });
  languages.append(...choices);
  const games = offer.variants.map((variant) =>
    action(variant.name, () => {
      for (const button of games) button.disabled = true;
      ui.send({ type: "start", variant: variant.value, language });
    }),
  );
  const body = [mixed("p", strings.web_start_prompt || ""), languages];
  open("start", strings.web_start_title || "", body, games, ui);
}

// The start offer answered with a refusal: its games may be tapped again.
export function reopenStart() {
  if (current && current.kind === "start") {
    for (const button of $("panel-actions").querySelectorAll("button")) button.disabled = false;
  }
}

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && current && current.kind !== "start") current.close();
});

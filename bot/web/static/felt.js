// The middle of the table: the trick in its four places, Trix's rows, and the decisions
// laid on the felt (bids, trump, contracts, TX.7's doubling, table commands); and the bar
// above it: trump or the contract as a badge, the scores against the target.

import { cardButton, cardImage } from "./cards.js";
import { $, bdi, el, keyed, mixed, setAttr, setText } from "./dom.js";
import { placeOf } from "./layout.js";

const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

// The trick as the state has it: each card in the place of the seat that played it.
export function drawTrick(state, strings, trick = state.trick || [], winner = null) {
  const box = $("trick");
  setAttr(box, "aria-label", strings.web_trick || "Trick");
  keyed(
    box,
    trick,
    (played) => played.card,
    (played) => {
      const spot = el("span", "played");
      spot.append(cardImage(played));
      return spot;
    },
    (spot, played) => {
      spot.dataset.place = placeOf(played.seat, state.you);
      spot.classList.toggle("winner", winner !== null && played.seat === winner);
    },
  );
}

export function drawRows(state) {
  const box = $("rows");
  box.hidden = !state.rows;
  $("trick").hidden = Boolean(state.rows);
  if (!state.rows) return;
  const rows = ["S", "H", "D", "C"].map((suit) => ({ suit, row: state.rows[suit] }));
  keyed(
    box,
    rows,
    (item) => item.suit,
    () => el("p", "row"),
    (line, { suit, row }) => {
      line.dir = "ltr";
      const key = row ? `${row.low}-${row.high}` : "";
      if (line.dataset.shown === key && line.childElementCount) return;
      line.dataset.shown = key;
      line.replaceChildren(el("span", `suit${suit === "H" || suit === "D" ? " red" : ""}`, SUIT_SYMBOLS[suit]));
      if (row) {
        line.append(cardImage({ card: row.low, label: row.low_label, name: row.low_name, suit }));
        if (row.high !== row.low) {
          line.append(el("span", "dots", "…"));
          line.append(cardImage({ card: row.high, label: row.high_label, name: row.high_name, suit }));
        }
      }
    },
  );
}

export function drawBar(state, strings, ui) {
  setText($("title"), state.title || strings.web_title || "Sahra");
  const badge = $("badge");
  badge.hidden = !state.badge;
  if (state.badge) {
    badge.classList.toggle("red", Boolean(state.badge.red));
    badge.classList.toggle("suit", Boolean(state.badge.suit));
    setText(badge, state.badge.text);
    setAttr(badge, "role", "img");
    setAttr(badge, "aria-label", state.badge.name);
    setAttr(badge, "title", state.badge.name);
  }
  const scores = state.scores || [];
  keyed(
    $("scores"),
    scores,
    (score) => score.seats.join("-"),
    () => el("li"),
    (item, score) => {
      const team = score.seats.length === 2 ? String(score.seats[0] % 2) : "";
      item.dataset.team = team;
      const text = `${score.name} ${score.score}`;
      setAttr(item, "aria-label", text);
      setAttr(item, "title", text);
      if (item.textContent !== text) item.replaceChildren(el("span", "who", score.name), bdi(score.score));
    },
  );
  const target = $("scores").dataset;
  if (state.target) target.target = (strings.web_to_win || "→ {target}").replace("{target}", state.target);
  else delete target.target;
  const language = $("language");
  language.hidden = !strings.web_language;
  setText(language, strings.web_language || "");
  language.onclick = () => ui.send({ type: "language", language: state.language === "ar" ? "en" : "ar" });
  const bidding = $("bidding");
  bidding.hidden = !state.bidding;
  if (state.bidding) {
    setText(bidding, state.bidding.text);
    bidding.classList.toggle("short", state.bidding.total < state.bidding.needed);
  }
}

function choiceButton(className) {
  const button = el("button", className);
  button.type = "button";
  return button;
}

// Bids and pass, trump suits, contracts: on the felt while this seat decides.
export function drawDecisions(state, ui) {
  const box = $("decisions");
  const offered = state.decisions || [];
  box.hidden = offered.length === 0;
  box.dataset.kind = offered.length ? offered[offered.length - 1].kind : "";
  keyed(
    box,
    offered,
    (decision) => JSON.stringify(decision.action),
    () => choiceButton("decision"),
    (button, decision) => {
      button.className = `decision ${decision.kind}`;
      if (decision.kind === "trump") button.classList.toggle("red", ["H", "D"].includes(decision.action.suit));
      setText(button, decision.label);
      setAttr(button, "aria-label", decision.name || decision.label);
      setAttr(button, "aria-disabled", ui.live ? null : "true"); // focus stays on it
      button.onclick = () => ui.move(decision.action);
    },
  );
}

// TX.7: the player marks any of the cards they may double and sends the whole answer
// once; the marks are this page's own until then.
export function drawDoubling(state, ui) {
  const box = $("doubling");
  const offer = state.doubling;
  box.hidden = !offer;
  if (!offer) {
    ui.marked.clear();
    box.replaceChildren();
    return;
  }
  if (!box.childElementCount) box.append(el("div", "toggles"), choiceButton("decision confirm"));
  const [toggles, confirm] = box.children;
  keyed(
    toggles,
    offer.cards,
    (card) => card.card,
    (card) => {
      const button = cardButton(card);
      button.onclick = () => {
        if (!ui.live) return;
        if (ui.marked.has(card.card)) ui.marked.delete(card.card);
        else ui.marked.add(card.card);
        drawDoubling(state, ui);
      };
      return button;
    },
    (button, card) => {
      setAttr(button, "aria-pressed", String(ui.marked.has(card.card)));
      setAttr(button, "aria-disabled", ui.live ? null : "true"); // focus stays on it
    },
  );
  setText(confirm, ui.marked.size ? offer.confirm_label : offer.none_label);
  setAttr(confirm, "aria-disabled", ui.live ? null : "true");
  confirm.onclick = () => ui.move({ type: "double", cards: [...ui.marked] });
}

// Table commands (join, add a computer, start, rematch…), each with the version it was
// offered at: a second tap before the table answers is stale.
export function drawCommands(state, ui) {
  const box = $("commands");
  const offered = state.phase === "over" ? [] : state.commands || [];
  box.hidden = offered.length === 0;
  keyed(
    box,
    offered,
    (command) => command.command,
    () => choiceButton("command"),
    (button, command) => {
      setText(button, command.label);
      setAttr(button, "aria-disabled", ui.live ? null : "true"); // focus stays on it
      button.onclick = () => {
        if (ui.live) ui.send({ type: "command", command: command.command, version: state.version });
      };
    },
  );
}

export function drawTurn(state, strings) {
  const watching = state.you === null ? strings.web_watching : "";
  const text = [watching, state.turn_text].filter(Boolean).join(" · ");
  const turn = $("turn");
  if (turn.textContent !== text) turn.replaceChildren(mixed("span", text));
}

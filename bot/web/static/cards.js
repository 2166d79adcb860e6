// Cards drawn by us: the index (rank over suit) in the top corner, where it stays visible
// in a fanned hand, and the suit large in the middle. A card's accessible name is its name
// in words in the table's language ("Queen of hearts", "بنت كبة"), given by the server.

import { bdi, el } from "./dom.js";

const RED = new Set(["H", "D"]);
const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

function suitOf(card) {
  return card.suit || card.card.slice(-1);
}

// The face of a card, made once per element (a card's face never changes).
export function face(element, card) {
  const suit = suitOf(card);
  const symbol = SYMBOLS[suit] || card.label.slice(-1);
  element.classList.add("card");
  element.dataset.card = card.card;
  element.dataset.suit = suit;
  element.classList.toggle("red", RED.has(suit));
  const index = el("span", "index");
  index.setAttribute("aria-hidden", "true");
  const rank = card.label.slice(0, -1);
  const shown = bdi(rank);
  if (rank.length > 1) shown.className = "ten"; // "10" as narrow as one letter
  index.append(shown, el("span", "suit", symbol));
  const pip = el("span", "pip", symbol);
  pip.setAttribute("aria-hidden", "true");
  element.replaceChildren(index, pip);
  return element;
}

// A card on the felt: an image, not a control.
export function cardImage(card) {
  const element = face(el("span"), card);
  element.setAttribute("role", "img");
  element.setAttribute("aria-label", card.name || card.label);
  return element;
}

// A card in the hand: a button named by the card in words.
export function cardButton(card) {
  const button = face(el("button"), card);
  button.type = "button";
  button.setAttribute("aria-label", card.name || card.label);
  return button;
}

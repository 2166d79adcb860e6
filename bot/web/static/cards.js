// Cards drawn by us: a rank and a suit symbol on a rounded face (CSS does the rest).
// Every card label and number sits in <bdi>, so "10♠" never turns into "♠10" in Arabic.

const RED = new Set(["H", "D"]);
const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

export function bdi(text) {
  const element = document.createElement("bdi");
  element.textContent = String(text);
  return element;
}

// Split a label such as "10♠" into its rank and its suit symbol.
function parts(label) {
  const symbol = label.slice(-1);
  return { rank: label.slice(0, -1), symbol };
}

function suitOf(card) {
  return card.suit || card.card.slice(-1);
}

// The face of a card: rank in the corner, the suit large in the middle.
function face(element, card) {
  const { rank, symbol } = parts(card.label);
  element.classList.add("card");
  element.dataset.suit = suitOf(card);
  element.dataset.card = card.card;
  if (RED.has(suitOf(card))) element.classList.add("red");
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.append(bdi(rank), bdi(symbol));
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.setAttribute("aria-hidden", "true");
  pip.textContent = SYMBOLS[suitOf(card)] || symbol;
  element.append(corner, pip);
  return element;
}

// A card on the table: an image of a card, not a control.
export function cardImage(card) {
  const element = face(document.createElement("span"), card);
  element.setAttribute("role", "img");
  element.setAttribute("aria-label", card.label);
  return element;
}

// A card in the hand: a button whose accessible name is the card ("10♠").
export function cardButton(card, onTap) {
  const button = face(document.createElement("button"), card);
  button.type = "button";
  button.setAttribute("aria-label", card.label);
  button.addEventListener("click", () => onTap(card));
  return button;
}

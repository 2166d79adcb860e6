// Small DOM helpers every part of the page shares. Every text is the server's and goes in
// with textContent, never as HTML; cards and numbers sit in <bdi> so Arabic around them
// cannot reorder their parts.

export const $ = (id) => document.getElementById(id);

export function el(tag, className, text) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined && text !== null) element.textContent = String(text);
  return element;
}

export function bdi(text) {
  return el("bdi", "", text);
}

export function setText(element, text) {
  const value = text === undefined || text === null ? "" : String(text);
  if (element.textContent !== value) element.textContent = value;
}

export function setAttr(element, name, value) {
  if (value === null || value === undefined || value === false) {
    if (element.hasAttribute(name)) element.removeAttribute(name);
  } else if (element.getAttribute(name) !== String(value)) {
    element.setAttribute(name, String(value));
  }
}

// A card with its TX.7 mark ("Q♦×2"), a lone mark, or a number: each isolated.
const ISOLATED = /(\u200e?(?:10|[2-9JQKA])[♣♦♥♠]\u200e?(?:×\d+)?|×\d+|[+−-]?\d+(?:[.,–-]\d+)*)/;

// A line of text in which every card and number is isolated (<bdi>).
export function mixed(tag, text, className) {
  const element = el(tag, className);
  String(text)
    .split(ISOLATED)
    .forEach((piece, index) => {
      if (!piece) return;
      element.append(index % 2 === 1 ? bdi(piece) : document.createTextNode(piece));
    });
  return element;
}

// Children of ``container`` kept by key between states: an element whose key stays is
// updated in place (its focus and its animations survive), new keys are made, gone keys
// removed, and the order made to follow ``items``.
export function keyed(container, items, keyOf, make, update) {
  const old = new Map();
  for (const child of container.children) old.set(child.dataset.key, child);
  let previous = null;
  for (const item of items) {
    const key = String(keyOf(item));
    let element = old.get(key);
    if (element) old.delete(key);
    else {
      element = make(item);
      element.dataset.key = key;
    }
    update(element, item);
    const wanted = previous ? previous.nextSibling : container.firstChild;
    if (wanted !== element) container.insertBefore(element, wanted);
    previous = element;
  }
  for (const gone of old.values()) gone.remove();
}

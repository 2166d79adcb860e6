// Where things go on the felt, and how big they are. Every size comes from the space the
// page really has (Telegram's stable viewport height and insets, or the browser's dvh and
// safe areas, applied by style.css to #app): the hand's cards and their overlap from the
// width, the trick's cards from the middle of the felt, recomputed when either changes,
// so nothing ever has to scroll.

import { $ } from "./dom.js";

// Play goes from seat s to s + 1, to the right: you at the bottom, s + 1 on the right,
// s + 2 at the top, s + 3 on the left. Physical places: they do not flip in Arabic.
const PLACES = ["bottom", "right", "top", "left"];

export function placeOf(seat, you) {
  return PLACES[(seat - (you ?? 0) + 4) % 4];
}

const RATIO = 1.45; // a card's height to its width

function clamp(low, value, high) {
  return Math.max(low, Math.min(value, high));
}

export function fit() {
  const app = $("app");
  const width = app.clientWidth;
  const height = app.clientHeight;
  if (!width || !height) return;
  const cards = $("cards").children.length || 13;
  // The hand: as tall as a sixth of the screen allows, never wider than the row can fan.
  const handW = Math.round(clamp(40, Math.min((height * 0.15) / RATIO * 1.0, width / 5.2), 96));
  const room = width - 16;
  const step = cards > 1 ? Math.min(handW * 0.8, (room - handW) / (cards - 1)) : handW;
  app.style.setProperty("--card-w", `${handW}px`);
  app.style.setProperty("--card-h", `${Math.round(handW * RATIO)}px`);
  app.style.setProperty("--step", `${Math.floor(step)}px`);
  app.style.setProperty("--overlap", `${Math.floor(step - handW)}px`);
  const middle = $("middle");
  // Four cards in a cross: about three across and two and a half high, never larger
  // than the hand's own.
  const trickW = clamp(30, Math.min(middle.clientWidth / 3.3, middle.clientHeight / (2.5 * RATIO), handW), 84);
  app.style.setProperty("--trick-w", `${Math.round(trickW)}px`);
  app.style.setProperty("--trick-h", `${Math.round(trickW * RATIO)}px`);
  app.dataset.size = width < 360 || height < 600 ? "small" : width >= 700 ? "wide" : "phone";
}

export function watchSize() {
  const observer = new ResizeObserver(() => fit());
  observer.observe($("app"));
  observer.observe($("middle"));
  fit();
}

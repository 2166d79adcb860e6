// Every move is seen: a state frame carries the public moves made since the frame before
// it (docs/web-protocol.md), and they are played here one after another before the state
// itself is drawn: a card travels from its seat to the trick, the whole trick stays on
// the felt with its winner marked, then goes to the winner; a bid, a pass, trump or a
// contract shows on the seat that made it; a deal ends on its result card. The times are
// the server's (``welcome.pace``): it counts them in the turn clock of a seat on a page.
// With reduced motion the cards do not travel, but the pauses stay.

import { cardImage } from "./cards.js";
import { $, el } from "./dom.js";
import { placeOf } from "./layout.js";
import { showResult } from "./panels.js";
import { announce } from "./seats.js";

const still = window.matchMedia("(prefers-reduced-motion: reduce)");
const pending = [];
let running = false;

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A state frame: its moves are played after those of the frames before it, then it is drawn.
export function receive(frame, stage) {
  pending.push(frame);
  if (!running) run(stage);
}

async function run(stage) {
  running = true;
  try {
    while (pending.length) {
      const frame = pending.shift();
      // A backlog is shown quickly: only the newest frames' moves play at full pace.
      const hurry = pending.length > 2;
      for (const move of frame.moves || []) {
        try {
          await play(move, frame.state, stage, hurry);
        } catch (error) {
          console.warn("move not shown:", error);
        }
      }
      stage.draw(frame.state);
    }
  } finally {
    running = false;
  }
}

function seatBox(seat, you) {
  return $("felt").querySelector(`.seat[data-place="${placeOf(seat, you)}"] .avatar`);
}

function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

function travel(element, from, ms) {
  if (!ms || still.matches || !from || !element.animate) return Promise.resolve();
  const to = centre(element.getBoundingClientRect());
  const start = centre(from);
  const animation = element.animate(
    [
      { transform: `translate(${start.x - to.x}px, ${start.y - to.y}px) scale(0.7)`, opacity: 0.6 },
      { transform: "none", opacity: 1 },
    ],
    { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)" },
  );
  return animation.finished.catch(() => undefined);
}

function spotFor(played, you) {
  const trick = $("trick");
  let spot = trick.querySelector(`[data-key="${played.card}"]`);
  if (!spot) {
    spot = el("span", "played");
    spot.dataset.key = played.card;
    spot.append(cardImage(played));
    trick.append(spot);
  }
  spot.dataset.place = placeOf(played.seat, you);
  return spot;
}

async function play(move, state, stage, hurry) {
  const pace = stage.pace;
  const you = state.you;
  const scale = hurry ? 0.25 : 1;
  if (move.say && move.seat !== you) stage.speak(move.say);
  if (move.kind === "play") {
    if (state.rows) return wait(pace.card * scale); // TX.9: laid on the rows, drawn below
    const mine = you !== null && move.seat === you ? $("cards").querySelector(`[data-card="${move.card}"]`) : null;
    const from = (mine || seatBox(move.seat, you))?.getBoundingClientRect();
    if (mine) mine.style.opacity = "0"; // gone from the hand (it keeps focus until drawn)
    const spot = spotFor(move, you);
    await travel(spot, from, pace.card * scale);
    return undefined;
  }
  if (move.kind === "trick") {
    const spots = move.cards.map((played) => spotFor(played, you));
    for (const spot of spots) spot.classList.toggle("winner", spot.dataset.place === placeOf(move.winner, you));
    const winner = seatBox(move.winner, you);
    winner?.parentElement.classList.add("won");
    if (you !== null && (move.winner === you || (stage.teams && move.winner % 2 === you % 2))) stage.platform.haptic("trick");
    await wait(pace.trick * scale);
    const to = winner?.getBoundingClientRect();
    if (to && !still.matches && pace.sweep) {
      await Promise.all(
        spots.map((spot) => {
          const here = centre(spot.getBoundingClientRect());
          const there = centre(to);
          const animation = spot.animate(
            [{ transform: "none" }, { transform: `translate(${there.x - here.x}px, ${there.y - here.y}px) scale(0.3)`, opacity: 0 }],
            { duration: pace.sweep * scale, easing: "ease-in", fill: "forwards" },
          );
          return animation.finished.catch(() => undefined);
        }),
      );
    } else {
      await wait(pace.sweep * scale);
    }
    for (const spot of spots) spot.remove();
    winner?.parentElement.classList.remove("won");
    return undefined;
  }
  if (move.kind === "say") {
    if (move.seat !== null && move.seat !== undefined) announce(move.seat, you, move.text, pace.announce);
    return wait(pace.announce * scale);
  }
  if (move.kind === "deal") {
    $("trick").replaceChildren();
    return undefined;
  }
  if (move.kind === "result" && pace.result && !hurry) {
    return showResult(state, stage.strings, stage.ui, pace.result);
  }
  return undefined;
}

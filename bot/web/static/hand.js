// Your hand: one fanned row along the bottom, in the order the server sorted it (suits in
// alternating colours), every card at full brightness; on your turn only the cards you may
// not play are dimmed, and tapping one says why. On a narrow touch screen a first tap
// raises a card and a second plays it (the raised card's button is aria-pressed); a mouse
// click, or Enter on a focused card, plays it at once.

import { cardButton } from "./cards.js";
import { $, keyed, setAttr } from "./dom.js";
import { fit } from "./layout.js";

let pointer = "mouse"; // the kind of the last pointer pressed on a card
let raised = null; // the card code raised by a first tap

export function drawHand(state, strings, ui) {
  const section = $("hand");
  const held = state.hand || [];
  section.hidden = state.you === null || held.length === 0;
  section.setAttribute("aria-label", strings.web_your_hand || "");
  if (!held.some((card) => card.card === raised && card.legal)) raised = null;
  const before = $("cards").children.length;
  keyed(
    $("cards"),
    held,
    (card) => card.card,
    (card) => {
      const button = cardButton(card);
      button.addEventListener("pointerdown", (event) => {
        pointer = event.pointerType || "mouse";
      });
      return button;
    },
    (button, card) => {
      const usable = card.legal && ui.live && !state.doubling;
      button.classList.toggle("illegal", Boolean(card.why));
      setAttr(button, "aria-disabled", usable ? null : "true");
      button.classList.toggle("raised", raised === card.card);
      setAttr(button, "aria-pressed", raised === card.card ? "true" : raised ? "false" : null);
      button.onclick = (event) => tapped(event, card, state, strings, ui);
    },
  );
  if ($("cards").children.length !== before) fit();
}

function tapped(event, card, state, strings, ui) {
  const keyboard = event.detail === 0; // Enter or Space on a focused card
  const byPointer = pointer;
  pointer = "mouse";
  if (card.why) {
    ui.say(card.why);
    ui.platform.haptic("illegal");
    return;
  }
  if (!card.legal || !ui.live || state.doubling) {
    if (!state.your_turn && state.phase === "playing") ui.say(strings.web_wait_turn);
    return;
  }
  if (!keyboard && byPointer !== "mouse" && window.innerWidth < 700 && raised !== card.card) {
    raised = card.card;
    ui.platform.haptic("tap");
    ui.redraw();
    return;
  }
  raised = null;
  ui.move(card.action);
}

// @ts-check
/* "Learn in a minute": a short guided game on a fixed deal (templates/game.html's [data-learn]).
 * Each lesson marks on the board what to press (a pair, a King, the stock, Recycle) and waits
 * for the player to do it; the game is played on the page alone, never stored or counted. */

import { say } from "./words.js";

const LESSONS = [
  { say: "learn_pair", marks: ["8D", "5H"], done: (move) => move.cards.length === 2 },
  { say: "learn_king", marks: ["KD"], done: (move) => move.cards.length === 1 },
  { say: "learn_draw", action: "draw", done: (move) => move.op.value === "draw" },
  { say: "learn_rest", rest: true, done: (move, game) => !game.stock.length },
  { say: "learn_recycle", action: "recycle", done: (move) => move.op.value === "recycle" },
];

/** Lead the player through the lessons on `board` (a Board whose game is never stored). */
export function teach(board) {
  const coach = document.querySelector("[data-learn]");
  if (!coach) return;
  const text = coach.querySelector("[data-learn-step]");
  const rest = /** @type {HTMLElement} */ (coach.querySelector("[data-learn-rest]"));
  let at = 0;

  function show() {
    const lesson = LESSONS[at];
    if (!lesson) {
      text.textContent = say("learn_done");
      rest.hidden = true;
      /** @type {HTMLElement} */ (coach.querySelector("[data-learn-done]")).hidden = false;
      /** @type {HTMLElement} */ (coach.querySelector("[data-learn-skip]")).hidden = true;
      return;
    }
    text.textContent = say(lesson.say);
    rest.hidden = !lesson.rest;
    board.drawer.marks.clear();
    for (const card of lesson.marks || []) board.drawer.marks.hinted.add(card);
    board.drawer.marks.hintedAction = lesson.action || null;
    board.draw();
  }

  board.afterStep = (move) => {
    const lesson = LESSONS[at];
    if (lesson && move !== "undo" && lesson.done(move, board.local.game)) at += 1;
    // The marks belong to the lesson, not to the last input.
    window.requestAnimationFrame(show);
  };
  rest.addEventListener("click", () => {
    board.playOutStock();
  });
  show();
}

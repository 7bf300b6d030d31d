// @ts-check
/* Why a move is refused: mirrors Game.why_illegal and Game.why_not_free of app/engine/game.py
 * refusal for refusal (the same codes, the same fields), so a page that judges a move itself
 * refuses it as the server would. Game's methods of the same names call these. */

import { PAIR_SUM } from "./cards.js";
import { COVERED_BY } from "./deal.js";
import { Op } from "./moves.js";
import { Code, refusal } from "./refusals.js";

/** @typedef {import("./cards.js").Card} Card */
/** @typedef {import("./moves.js").Move} Move */
/** @typedef {import("./game.js").Game} Game */
/** @typedef {import("./refusals.js").Refusal} Refusal */

/** null when `move` is legal in `game`'s position, else why not (the position's: an ended
 * game's refusal is gameOver's, which Game.play gives first).
 * @param {Game} game @param {Move} move @returns {Refusal|null} */
export function whyIllegal(game, move) {
  const { stock, waste } = game;
  if (move.op === Op.DRAW) {
    if (stock.length) return null;
    if (!waste.length) return refusal(Code.NOTHING_TO_DRAW);
    return refusal(game.passesLeft > 0 ? Code.RECYCLE_FIRST : Code.STOCK_EXHAUSTED);
  }
  if (move.op === Op.RECYCLE) {
    if (stock.length) return refusal(Code.STOCK_NOT_EMPTY, { count: stock.length });
    if (!waste.length) return refusal(Code.WASTE_EMPTY);
    if (game.passesLeft <= 0) return refusal(Code.NO_PASSES_LEFT, { passes: game.passes });
    return null;
  }
  for (const card of move.cards) {
    const problem = whyNotFree(game, card);
    if (problem) return problem;
  }
  if (move.cards.length === 1) {
    const card = move.cards[0];
    return card.isKing ? null : refusal(Code.NOT_A_KING, { card: card.name });
  }
  const [a, b] = move.cards;
  const total = a.rank + b.rank;
  return total !== PAIR_SUM ? refusal(Code.NOT_THIRTEEN, { a: a.name, b: b.name, total }) : null;
}

/** null when `card` may be used in a move now, else why not.
 * @param {Game} game @param {Card} card @returns {Refusal|null} */
export function whyNotFree(game, card) {
  const where = game.location(card);
  if (where === null) return refusal(Code.ALREADY_REMOVED, { card: card.name });
  if (where.pile === "pyramid") {
    const by = COVERED_BY[where.index].map((i) => game.pyramid[i]).filter((c) => c !== null)
      .map((c) => /** @type {Card} */ (c).name);
    return by.length ? refusal(Code.COVERED, { card: card.name, by }) : null;
  }
  // Say no more: where a face-down stock card lies is hidden from the player.
  return where.index > 0 ? refusal(Code.NOT_FREE, { card: card.name }) : null;
}

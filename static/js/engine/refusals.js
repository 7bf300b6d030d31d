// @ts-check
/* Why a move is refused, in the words a player reads: mirrors Game.why_illegal and
 * Game.why_not_free of app/engine/game.py sentence for sentence, because these are the
 * server's words (the web layer shows them as they are) and a page that judges a move itself
 * must say what the server would have said. Game's methods of the same names call these. */

import { PAIR_SUM } from "./cards.js";
import { COVERED_BY } from "./deal.js";
import { Op } from "./moves.js";

/** @typedef {import("./cards.js").Card} Card */
/** @typedef {import("./moves.js").Move} Move */
/** @typedef {import("./game.js").Game} Game */

/** null when `move` is legal in `game`'s position, else the reason (the position's: an ended
 * game's refusal is `gameOver`'s, which Game.play says first).
 * @param {Game} game @param {Move} move @returns {string|null} */
export function whyIllegal(game, move) {
  const { stock, waste } = game;
  if (move.op === Op.DRAW) {
    if (stock.length) return null;
    if (!waste.length) return "The stock and the waste are both empty: there is nothing to draw.";
    if (game.passesLeft > 0) return "The stock is empty: recycle the waste to start the next pass.";
    return "The stock is empty and no passes are left.";
  }
  if (move.op === Op.RECYCLE) {
    if (stock.length) {
      return `The stock still has ${stock.length} cards: recycle only when it is empty.`;
    }
    if (!waste.length) return "The waste is empty: there is nothing to recycle.";
    if (game.passesLeft <= 0) {
      return `No passes left: this game allows ${game.passes} pass` + (game.passes > 1 ? "es." : ".");
    }
    return null;
  }
  for (const card of move.cards) {
    const problem = whyNotFree(game, card);
    if (problem) return problem;
  }
  if (move.cards.length === 1) {
    const card = move.cards[0];
    return card.isKing ? null : `${card} is not a King: only a King is removed on its own.`;
  }
  const [a, b] = move.cards;
  const total = a.rank + b.rank;
  return total !== PAIR_SUM ? `${a} and ${b} make ${total}, not 13.` : null;
}

/** null when `card` may be used in a move now, else why not.
 * @param {Game} game @param {Card} card @returns {string|null} */
export function whyNotFree(game, card) {
  const where = game.location(card);
  if (where === null) return `${card} has already been removed.`;
  if (where.pile === "pyramid") {
    const covers = COVERED_BY[where.index].map((i) => game.pyramid[i]).filter((c) => c !== null);
    return covers.length ? `${card} is covered by ${covers.join(" and ")}.` : null;
  }
  if (where.index > 0) {
    // Say no more: where a face-down stock card lies is hidden from the player.
    return `${card} is not a free card: only the top cards of the stock and the waste can be ` +
      "played.";
  }
  return null;
}

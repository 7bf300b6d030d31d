// @ts-check
/* The score: mirrors app/engine/score.py, so that the board's live score, the end screen and
 * the stored result cannot disagree. 5 points a removal, a bonus for each pyramid row cleared
 * (25 for the bottom row up to 500 for the top card), 500 more for clearing the whole deck,
 * a point a second under ten minutes for a win; a hint costs 25 and an undo 10; never below 0.
 * (score.py's docstring says why each part is what it is.) */

import { Op } from "./moves.js";
import { Termination } from "./outcome.js";

/** @typedef {import("./game.js").Game} Game */

export const POINTS_PER_REMOVAL = 5;
/** Points for clearing each pyramid row, from the top card (row 1) to the bottom row (7). */
export const ROW_BONUS = Object.freeze([500, 250, 150, 100, 75, 50, 25]);
export const WHOLE_DECK_BONUS = 500;
/** A win earns a point for each second it took less than this (ten minutes). */
export const TIME_BONUS_SECONDS = 600;
export const HINT_COST = 25;
export const UNDO_COST = 10;

/** The pyramid's positions, row by row from the top. @type {readonly number[][]} */
export const ROWS = Object.freeze(Array.from({ length: 7 }, (_, row) =>
  Array.from({ length: row + 1 }, (_, col) => (row * (row + 1)) / 2 + col)));

/** A score and what it is made of, as the end screen lists it. */
export class Score {
  /** @param {{removals: number, rows: number, wholeDeck: number, timeBonus: number,
   *           hints: number, undos: number}} parts */
  constructor({ removals, rows, wholeDeck, timeBonus, hints, undos }) {
    this.removals = removals;
    this.rows = rows;
    this.wholeDeck = wholeDeck;
    this.timeBonus = timeBonus;
    this.hints = hints;
    this.undos = undos;
    Object.freeze(this);
  }

  /** @returns {number} */
  get total() {
    const earned = this.removals + this.rows + this.wholeDeck + this.timeBonus;
    return Math.max(0, earned - this.hints - this.undos);
  }

  /** The parts under Python's field names, and the total. @returns {Record<string, number>} */
  toDict() {
    return { removals: this.removals, rows: this.rows, whole_deck: this.wholeDeck,
      time_bonus: this.timeBonus, hints: this.hints, undos: this.undos, total: this.total };
  }

  valueOf() {
    return this.total;
  }
}

/** The rows (1 = the top card, 7 = the bottom row) with no card left.
 * @param {Game} game @returns {number[]} */
export function rowsCleared(game) {
  return ROWS.flatMap((row, i) => (row.every((index) => game.pyramid[index] === null) ? [i + 1] : []));
}

/** The score of `game` as it stands. `seconds` is how long a won game took (the time bonus
 * needs it; null gives no bonus, as while the game goes on).
 * @param {Game} game
 * @param {{hints?: number, undos?: number, seconds?: number|null}} [facts]
 * @returns {Score} */
export function score(game, { hints = 0, undos = 0, seconds = null } = {}) {
  const removals = game.moves.filter((move) => move.op === Op.REMOVE).length;
  const outcome = game.outcome();
  const won = outcome !== null && outcome.won;
  const deckCleared = outcome !== null && outcome.termination === Termination.DECK_CLEARED;
  return new Score({
    removals: POINTS_PER_REMOVAL * removals,
    rows: rowsCleared(game).reduce((sum, number) => sum + ROW_BONUS[number - 1], 0),
    wholeDeck: deckCleared ? WHOLE_DECK_BONUS : 0,
    timeBonus: won && seconds !== null ? Math.max(0, TIME_BONUS_SECONDS - seconds) : 0,
    hints: HINT_COST * Math.max(0, hints),
    undos: UNDO_COST * Math.max(0, undos),
  });
}

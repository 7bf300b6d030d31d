// @ts-check
/* How a game ends, and where a game stands: mirrors app/engine/outcome.py.
 *
 * The engine decides won and lost (Outcome); a stored game can also be abandoned. All four are
 * a GameStatus; an ended status is final. `gameOver` is the one refusal of a move on an ended
 * game (its status and termination: the page words it, and why the game ended, from its
 * catalog by those). Outcomes are interned (one per Termination), so they compare with === as
 * Python's equal Outcome values compare with ==. */

import { KING, PAIR_SUM } from "./cards.js";
import { PyEnum, sealed } from "./enum.js";
import { Code, Refusal } from "./refusals.js";
import { Goal } from "./variant.js";

/** @typedef {import("./game.js").Game} Game */

/** Why a game ended; the first two are wins. */
export class Termination extends PyEnum {
  static PYRAMID_CLEARED = new Termination("PYRAMID_CLEARED", "pyramid_cleared");
  static DECK_CLEARED = new Termination("DECK_CLEARED", "deck_cleared");
  static NO_MOVES = new Termination("NO_MOVES", "no_moves");
  static PYRAMID_STUCK = new Termination("PYRAMID_STUCK", "pyramid_stuck");
  static DECK_STUCK = new Termination("DECK_STUCK", "deck_stuck");
}
sealed(Termination);

/** Where a game stands: still being played, or ended (won, lost or abandoned) for good. */
export class GameStatus extends PyEnum {
  static PLAYING = new GameStatus("PLAYING", "playing");
  static WON = new GameStatus("WON", "won");
  static LOST = new GameStatus("LOST", "lost");
  static ABANDONED = new GameStatus("ABANDONED", "abandoned");

  /** @returns {boolean} */
  get ended() {
    return this !== GameStatus.PLAYING;
  }
}
sealed(GameStatus);

/** @type {Map<Termination, Outcome>} */
const OUTCOMES = new Map();

/** How a game ended: its Termination, and from it won or lost. */
export class Outcome {
  /** @param {Termination|string} termination */
  constructor(termination) {
    const known = OUTCOMES.get(Termination.from(termination));
    if (known) return known;
    /** @readonly @type {Termination} */ this.termination = Termination.from(termination);
    Object.freeze(this);
    OUTCOMES.set(this.termination, this);
  }

  /** @returns {boolean} */
  get won() {
    return this.termination === Termination.PYRAMID_CLEARED
      || this.termination === Termination.DECK_CLEARED;
  }

  /** `GameStatus.WON` or `GameStatus.LOST`. @returns {GameStatus} */
  get status() {
    return this.won ? GameStatus.WON : GameStatus.LOST;
  }
}

/** The refusal of anything on an ended game: `game_over` with its status and termination (null
 * when it is not known, or the game was abandoned). A status may be given by its value.
 * @param {GameStatus|string} status @param {Outcome|null} [outcome] @returns {Refusal} */
export function gameOver(status, outcome = null) {
  const ended = GameStatus.from(status);
  const termination = outcome && ended !== GameStatus.ABANDONED ? outcome.termination.value : null;
  return new Refusal(Code.GAME_OVER, { status: ended.value, termination });
}

/** RULES.md's game-over checks (Python's Game._compute_outcome, here beside the words for the
 * endings): null while the game goes on. By values: a King is removable, and two different
 * cards pair exactly when their values are v and 13 - v (never the same value, 13 being odd).
 * @param {Game} game @returns {Outcome|null} */
export function computeOutcome(game) {
  const left = game.pyramid.some((card) => card !== null);
  const { stock, waste } = game;
  if (!left) {
    if (game.goal === Goal.STANDARD) return new Outcome(Termination.PYRAMID_CLEARED);
    if (!stock.length && !waste.length) return new Outcome(Termination.DECK_CLEARED);
  }
  const free = new Set(game.freePyramid().map(([, card]) => card.rank));
  if (!(stock.length || (waste.length && game.passesLeft > 0))) {
    // No draw and no recycle: a move needs a King or a pair among the free cards.
    const tops = waste.length ? new Set([...free, waste[waste.length - 1].rank]) : free;
    if (!removable(tops)) return new Outcome(Termination.NO_MOVES);
  }
  const rest = new Set([...stock, ...waste].map((card) => card.rank));
  if (left) {
    if (!(removable(free) || [...free].some((value) => rest.has(PAIR_SUM - value)))) {
      return new Outcome(Termination.PYRAMID_STUCK);
    }
  } else if (!removable(rest)) {
    return new Outcome(Termination.DECK_STUCK);
  }
  return null;
}

/** Whether cards of these values hold a King or a pair making 13. @param {Set<number>} values */
function removable(values) {
  if (values.has(KING)) return true;
  for (const value of values) if (values.has(PAIR_SUM - value)) return true;
  return false;
}

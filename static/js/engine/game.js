// @ts-check
/* A game of Pyramid: the position, the legal moves, play and undo, and the outcome. Mirrors
 * app/engine/game.py rule for rule: legalMoves() lists the moves in the server's order,
 * whyIllegal() refuses with the server's refusal (code and fields), and the game ends exactly
 * when the server's does; tests/engine/test_js_conformance.py holds the two to that, step by
 * step.
 *
 * `pyramid` holds 28 slots (null where a card is gone), `stock` is top card first, `waste` has
 * its top card last. A game is fully determined by (deal, goal, passes, moves). Undo is by
 * snapshot, as in Python: each move pushes a copy of the piles first. Why a move is refused
 * is in legal.js and the game-over checks in outcome.js, to keep each file short. */

import { KING, PAIR_SUM } from "./cards.js";
import { COVERED_BY, PYRAMID_SIZE } from "./deal.js";
import { Move, Op } from "./moves.js";
import { GameStatus, Outcome, computeOutcome, gameOver } from "./outcome.js";
import { whyIllegal, whyNotFree } from "./legal.js";
import { Code, Refused } from "./refusals.js";
import { DEFAULT_PASSES, Goal, Variant, parseGoal, parsePasses } from "./variant.js";

/** @typedef {import("./cards.js").Card} Card */
/** @typedef {import("./deal.js").Deal} Deal */
/** @typedef {import("./refusals.js").Refusal} Refusal */
/** Where a card is: `pile` is pyramid, stock or waste; `index` is the pyramid position, or the
 * depth in the stock or waste (0 = top).
 * @typedef {{pile: "pyramid"|"stock"|"waste", index: number}} Location */

/** A move the rules do not allow now: `refusal` says why (whyIllegal's). `number`: in
 * Game.replay, which move of the list it was (1-based), else null. */
export class IllegalMove extends Refused {
  get name() { return "IllegalMove"; }
}
/** @type {number|null} */
IllegalMove.prototype.number = null;

/** [position, the two covering it] for the six upper rows, and the bottom row's positions. */
const UPPER = COVERED_BY.flatMap((covers, i) => (covers.length ? [[i, covers[0], covers[1]]] : []));
const BOTTOM = COVERED_BY.flatMap((covers, i) => (covers.length ? [] : [i]));

/** One game: a deal, a goal, a number of passes, and the moves played so far. */
export class Game {
  /** @param {Deal} deal @param {Goal|string} [goal] @param {number|string} [passes] */
  constructor(deal, goal = Goal.STANDARD, passes = DEFAULT_PASSES) {
    /** @readonly */ this.deal = deal;
    /** @readonly @type {Goal} */ this.goal = parseGoal(goal);
    /** @readonly @type {number} */ this.passes = parsePasses(passes);
    /** @type {(Card|null)[]} */ this.pyramid = [...deal.pyramid];
    /** @type {Card[]} */ this.stock = [...deal.stock];
    /** @type {Card[]} */ this.waste = [];
    this.passNumber = 1;
    /** @type {Move[]} */ this.moves = [];
    /** @private */ this._undo = [];
    // Pyramid cards never move: play finds one with a look-up instead of a search.
    /** @private @type {Map<Card, number>} */
    this._dealtAt = new Map(deal.pyramid.map((card, index) => [card, index]));
    /** @private @type {Outcome|null} */ this._outcome = this._computeOutcome();
  }

  /** Rebuild a game from its move list; an illegal move says which one it was.
   * @param {Deal} deal @param {Goal|string} goal @param {number|string} passes
   * @param {Iterable<Move>} moves @returns {Game} */
  static replay(deal, goal, passes, moves) {
    const game = new Game(deal, goal, passes);
    let number = 0;
    for (const move of moves) {
      number += 1;
      try {
        game.play(move);
      } catch (exc) {
        if (exc instanceof IllegalMove) {
          const refused = new IllegalMove(exc.refusal);
          refused.number = number;
          throw refused;
        }
        throw exc;
      }
    }
    return game;
  }

  /** An independent game equal to this one, with the same moves to undo. @returns {Game} */
  copy() {
    const game = Object.create(Game.prototype);
    Object.assign(game, this);  // snapshots are never changed: sharing them is safe
    game.pyramid = [...this.pyramid];
    game.stock = [...this.stock];
    game.waste = [...this.waste];
    game.moves = [...this.moves];
    game._undo = [...this._undo];
    return game;
  }

  // --- what is where -------------------------------------------------------------------------
  /** @returns {Variant} */
  get variant() { return new Variant(this.goal, this.passes); }

  /** @returns {Card|null} */
  get stockTop() { return this.stock.length ? this.stock[0] : null; }

  /** @returns {Card|null} */
  get wasteTop() { return this.waste.length ? this.waste[this.waste.length - 1] : null; }

  /** A pyramid card is free when both cards covering it are gone.
   * @param {number} index @returns {boolean} */
  isFreePosition(index) {
    return COVERED_BY[index].every((i) => this.pyramid[i] === null);
  }

  /** The free pyramid cards with their positions, apex first. @returns {[number, Card][]} */
  freePyramid() {
    const pyramid = this.pyramid;
    /** @type {[number, Card][]} */
    const free = [];
    for (const [i, a, b] of UPPER) {
      const card = pyramid[i];
      if (card !== null && pyramid[a] === null && pyramid[b] === null) free.push([i, card]);
    }
    for (const i of BOTTOM) {
      const card = pyramid[i];
      if (card !== null) free.push([i, card]);
    }
    return free;
  }

  /** Every card a move may use now: free pyramid cards, the stock top, the waste top.
   * @returns {Card[]} */
  freeCards() {
    const cards = this.freePyramid().map(([, card]) => card);
    if (this.stock.length) cards.push(this.stock[0]);
    if (this.waste.length) cards.push(this.waste[this.waste.length - 1]);
    return cards;
  }

  /** Where `card` is, or null once it is removed. @param {Card} card @returns {Location|null} */
  location(card) {
    let index = this.pyramid.indexOf(card);
    if (index >= 0) return { pile: "pyramid", index };
    index = this.stock.indexOf(card);
    if (index >= 0) return { pile: "stock", index };
    index = this.waste.indexOf(card);
    if (index >= 0) return { pile: "waste", index: this.waste.length - 1 - index };
    return null;
  }

  /** @returns {number} */
  get pyramidLeft() { return this.pyramid.filter((card) => card !== null).length; }

  /** @returns {number} */
  get cardsRemoved() { return 52 - this.pyramidLeft - this.stock.length - this.waste.length; }

  /** Cards gone towards the goal: pyramid cards (of 28) for standard, all (of 52) for whole
   * deck: what the board's counter and the statistics count. @returns {number} */
  get cardsCleared() {
    if (this.goal === Goal.WHOLE_DECK) return this.cardsRemoved;
    return PYRAMID_SIZE - this.pyramidLeft;
  }

  /** Passes not yet started, i.e. recycles still allowed. @returns {number} */
  get passesLeft() { return this.passes - this.passNumber; }

  // --- moves ---------------------------------------------------------------------------------
  /** Kings first, then pairs, then draw or recycle: the server's order. Empty once the game is
   * over. @returns {Move[]} */
  legalMoves() {
    if (this._outcome !== null) return [];
    const free = this.freeCards();
    const moves = free.filter((card) => card.rank === KING).map((card) => new Move(Op.REMOVE, [card]));
    for (let i = 0; i < free.length; i++) {
      for (let j = i + 1; j < free.length; j++) {
        if (free[i].rank + free[j].rank === PAIR_SUM) moves.push(new Move(Op.REMOVE, [free[i], free[j]]));
      }
    }
    if (this.stock.length) moves.push(Move.draw());
    else if (this.waste.length && this.passesLeft > 0) moves.push(Move.recycle());
    return moves;
  }

  /** @param {Move} move @returns {boolean} */
  isLegal(move) {
    return this._outcome === null && this.whyIllegal(move) === null;
  }

  /** null when `move` is legal in this position, else why not (a Refusal; an ended game's is
   * gameOver's, which play gives first). @param {Move} move @returns {Refusal|null} */
  whyIllegal(move) { return whyIllegal(this, move); }

  /** null when `card` may be used in a move now, else why not: already_removed, covered (by
   * the one or two cards on it) or not_free. @param {Card} card @returns {Refusal|null} */
  whyNotFree(card) { return whyNotFree(this, card); }

  /** Play `move` or throw IllegalMove and leave the game as it was. @param {Move} move */
  play(move) {
    if (this._outcome !== null) throw new IllegalMove(gameOver(this._outcome.status, this._outcome));
    const problem = this.whyIllegal(move);
    if (problem) throw new IllegalMove(problem);
    this._undo.push({ pyramid: [...this.pyramid], stock: [...this.stock], waste: [...this.waste],
      passNumber: this.passNumber, outcome: this._outcome });
    if (move.op === Op.DRAW) {
      this.waste.push(/** @type {Card} */ (this.stock.shift()));
    } else if (move.op === Op.RECYCLE) {
      // The waste turned over: the card drawn first is the stock's top again.
      this.stock = this.waste;
      this.waste = [];
      this.passNumber += 1;
    } else {
      for (const card of move.cards) {
        const index = this._dealtAt.get(card);
        if (index !== undefined) this.pyramid[index] = null;
        else if (this.stock[0] === card) this.stock.shift();
        else this.waste.pop();
      }
    }
    this.moves.push(move);
    this._outcome = this._computeOutcome();
  }

  /** Take back the last move (also after the game has ended) and return it. @returns {Move} */
  undo() {
    const snap = this._undo.pop();
    if (snap === undefined) throw new IllegalMove(Code.NOTHING_TO_UNDO);
    this.pyramid = [...snap.pyramid];
    this.stock = [...snap.stock];
    this.waste = [...snap.waste];
    this.passNumber = snap.passNumber;
    this._outcome = snap.outcome;
    return /** @type {Move} */ (this.moves.pop());
  }

  // --- the end -------------------------------------------------------------------------------
  /** null while the game goes on, else won or lost, and how.
   * @returns {Outcome|null} */
  outcome() { return this._outcome; }

  /** @returns {boolean} */
  isOver() { return this._outcome !== null; }

  /** Playing, won or lost (abandoned is the store's: the engine never abandons).
   * @returns {GameStatus} */
  get status() { return this._outcome === null ? GameStatus.PLAYING : this._outcome.status; }

  /** @private @returns {Outcome|null} */
  _computeOutcome() { return computeOutcome(this); }

  /** The same deal, goal, passes and moves (what Python's == compares).
   * @param {Game} other @returns {boolean} */
  equals(other) {
    return other instanceof Game && this.deal.equals(other.deal) && this.goal === other.goal
      && this.passes === other.passes && this.moves.length === other.moves.length
      && this.moves.every((move, i) => move.equals(other.moves[i]));
  }
}

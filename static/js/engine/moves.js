// @ts-check
/* Moves: remove a King, remove a pair that makes 13, draw, recycle. Mirrors
 * app/engine/moves.py: the text form `KS`, `5H+8C`, `draw`, `recycle` and RULES.md's JSON
 * form, read and written exactly as the server does, with the same refusals.
 *
 * A Move names cards, never positions (every card is unique). The two cards of a pair are
 * kept lower value first, so `5H+8C` and `8C+5H` are the same move: `equals` and `toText()`
 * agree on that, and `toText()` serves as a move's key where Python would hash it. */

import { Card, CardError } from "./cards.js";
import { PyEnum, sealed } from "./enum.js";
import { isDict, pyStrip, pyTruthy } from "./python.js";
import { Code, Refused } from "./refusals.js";

/** Text or JSON that does not describe a move (as opposed to an illegal move). */
export class MoveError extends Refused {
  get name() { return "MoveError"; }
}

export class Op extends PyEnum {
  static REMOVE = new Op("REMOVE", "remove");
  static DRAW = new Op("DRAW", "draw");
  static RECYCLE = new Op("RECYCLE", "recycle");
}
sealed(Op);

/** One move. `cards` is one King or two cards for REMOVE, empty otherwise. */
export class Move {
  /** @param {Op|string} op @param {Card[]} [cards] */
  constructor(op, cards = []) {
    op = Op.from(op);
    if (op === Op.REMOVE) {
      if (cards.length !== 1 && cards.length !== 2) {
        throw new MoveError(Code.REMOVAL_CARDS);
      }
      if (cards.length === 2) {
        const [a, b] = cards;
        if (a === b) throw new MoveError(Code.SAME_CARD_TWICE, { card: a.name });
        if (b.rank < a.rank || (b.rank === a.rank && b.index < a.index)) cards = [b, a];
      }
    } else if (cards.length) {
      throw new MoveError(Code.TAKES_NO_CARDS, { op: op.value });
    }
    /** @readonly @type {Op} */ this.op = op;
    /** @readonly @type {readonly Card[]} */ this.cards = Object.freeze([...cards]);
    Object.freeze(this);
  }

  // --- constructors ----------------------------------------------------------------------
  /** @param {...(Card|string)} cards @returns {Move} */
  static remove(...cards) {
    return new Move(Op.REMOVE, cards.map((c) => (c instanceof Card ? c : Card.parse(c))));
  }

  /** @returns {Move} */
  static draw() {
    return DRAW;
  }

  /** @returns {Move} */
  static recycle() {
    return RECYCLE;
  }

  // --- text form ---------------------------------------------------------------------------
  /** Read `KS`, `5H+8C`, `draw` or `recycle` (case and spaces don't matter).
   * @param {string} text @returns {Move} */
  static fromText(text) {
    if (typeof text !== "string") {
      throw new MoveError(Code.MOVE_NOT_TEXT, { value: text });
    }
    const word = pyStrip(text).toLowerCase();
    if (word === "draw") return DRAW;
    if (word === "recycle") return RECYCLE;
    const names = word.replaceAll(" ", "").split("+");
    if (names.length > 2 || names.some((name) => !name)) {
      throw new MoveError(Code.NOT_A_MOVE, { text });
    }
    try {
      return Move.remove(...names);
    } catch (exc) {
      if (exc instanceof CardError) throw new MoveError(Code.NOT_A_MOVE, { text });
      throw exc;
    }
  }

  /** @returns {string} */
  toText() {
    if (this.op === Op.REMOVE) return this.cards.map((card) => card.name).join("+");
    return this.op.value;
  }

  // --- JSON form -----------------------------------------------------------------------------
  /** @returns {{op: string, cards?: string[]}} */
  toDict() {
    if (this.op === Op.REMOVE) return { op: "remove", cards: this.cards.map((card) => card.name) };
    return { op: this.op.value };
  }

  toJSON() {
    return this.toDict();
  }

  /** @returns {string} */
  toJson() {
    return JSON.stringify(this.toDict());
  }

  /** @param {unknown} data @returns {Move} */
  static fromDict(data) {
    if (!isDict(data) || !("op" in data)) {
      throw new MoveError(Code.MOVE_NOT_OBJECT);
    }
    const op = data.op;
    if (op !== "remove" && op !== "draw" && op !== "recycle") {
      throw new MoveError(Code.UNKNOWN_OP, { op });
    }
    const extra = Object.keys(data).filter((key) => key !== "op" && key !== "cards").sort();
    if (extra.length) throw new MoveError(Code.UNEXPECTED_FIELDS, { fields: extra });
    if (op !== "remove") {
      if (pyTruthy(data.cards)) throw new MoveError(Code.TAKES_NO_CARDS, { op });
      return op === "draw" ? DRAW : RECYCLE;
    }
    const names = data.cards;
    if (!Array.isArray(names) || names.length < 1 || names.length > 2) {
      throw new MoveError(Code.REMOVAL_CARDS);
    }
    try {
      return Move.remove(...names);
    } catch (exc) {
      if (exc instanceof CardError) throw new MoveError(exc.refusal);
      throw exc;
    }
  }

  /** @param {string} text @returns {Move} */
  static fromJson(text) {
    let data;
    try {
      data = JSON.parse(text);
    } catch {
      throw new MoveError(Code.MOVE_NOT_JSON);
    }
    return Move.fromDict(data);
  }

  /** The same move: same op, same cards. @param {Move} other @returns {boolean} */
  equals(other) {
    return other instanceof Move && other.op === this.op && other.cards.length === this.cards.length
      && other.cards.every((card, i) => card === this.cards[i]);
  }

  toString() {
    return this.toText();
  }
}

const DRAW = new Move(Op.DRAW);
const RECYCLE = new Move(Op.RECYCLE);

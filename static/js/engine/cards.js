// @ts-check
/* Cards: ranks, suits, values and two-character names such as TD. Mirrors app/engine/cards.py.
 *
 * There is one object per card (the 52 of FULL_DECK): `new Card(10, "D")` and
 * `Card.parse("TD")` return the same frozen object, so cards compare with === and work as Map
 * keys, as Python's equal, hashable Card values do. */

import { pyStrip } from "./python.js";
import { Code, Refused } from "./refusals.js";

export const RANKS = "A23456789TJQK";
export const SUITS = "CDHS";
export const RANK_WORDS = Object.freeze(["Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10",
  "Jack", "Queen", "King"]);
export const SUIT_WORDS = Object.freeze({ C: "clubs", D: "diamonds", H: "hearts", S: "spades" });
export const SUIT_SYMBOLS = Object.freeze({ C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" });
export const KING = 13;
export const PAIR_SUM = 13;

/** A card name that does not name a card. */
export class CardError extends Refused {
  get name() { return "CardError"; }
}

/** @type {Card[]} */
const DECK = [];

/** One playing card. `rank` is its value in the game: A=1 .. K=13. */
export class Card {
  /** @param {number} rank 1..13 @param {string} suit one of CDHS */
  constructor(rank, suit) {
    if (!(Number.isInteger(rank) && rank >= 1 && rank <= 13)
        || typeof suit !== "string" || suit.length !== 1 || !SUITS.includes(suit)) {
      throw new CardError(Code.NO_SUCH_CARD, { rank, suit });
    }
    const index = SUITS.indexOf(suit) * 13 + rank - 1;
    if (DECK[index]) return DECK[index];
    /** @readonly */ this.rank = rank;
    /** @readonly */ this.suit = suit;
    /** 0..51, suit by suit (clubs, diamonds, hearts, spades), Ace to King.
     * @readonly */
    this.index = index;
    /** @readonly */ this.name = RANKS[rank - 1] + suit;
    Object.freeze(this);
  }

  /** Read a name like `TD` or `ks` (`10D` is accepted for `TD`).
   * @param {string} name @returns {Card} */
  static parse(name) {
    if (typeof name !== "string") {
      throw new CardError(Code.CARD_NOT_TEXT, { value: name });
    }
    let text = pyStrip(name).toUpperCase();
    if (text.startsWith("10")) text = "T" + text.slice(2);
    if (text.length !== 2 || !RANKS.includes(text[0]) || !SUITS.includes(text[1])) {
      throw new CardError(Code.NOT_A_CARD, { text: name });
    }
    return new Card(RANKS.indexOf(text[0]) + 1, text[1]);
  }

  /** @returns {number} */
  get value() { return this.rank; }

  /** @returns {boolean} */
  get isKing() { return this.rank === KING; }

  /** @returns {boolean} */
  get isRed() { return this.suit === "D" || this.suit === "H"; }

  /** Rank and suit symbol for display, e.g. `10♦`. @returns {string} */
  get symbol() {
    return (this.rank === 10 ? "10" : RANKS[this.rank - 1]) + SUIT_SYMBOLS[this.suit];
  }

  /** The accessible name, e.g. `Queen of hearts`. @returns {string} */
  get longName() {
    return `${RANK_WORDS[this.rank - 1]} of ${SUIT_WORDS[this.suit]}`;
  }

  /** @param {Card} other @returns {boolean} */
  pairsWith(other) {
    return this.rank + other.rank === PAIR_SUM;
  }

  toString() { return this.name; }

  toJSON() { return this.name; }
}

for (const suit of SUITS) {
  for (let rank = 1; rank <= 13; rank++) DECK.push(new Card(rank, suit));
}

/** All 52 cards in `index` order. @type {readonly Card[]} */
export const FULL_DECK = Object.freeze([...DECK]);

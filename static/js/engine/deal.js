// @ts-check
/* Deals: the 28 pyramid cards and the 24 stock cards. Mirrors app/engine/deal.py, with its
 * JSON and one-line text forms and the same refusals; the deal numbers (their range, parsing
 * and PySolFC's shuffle) are in numbers.js.
 *
 * A deal number runs to 99,999,999,999,999,999,999, past what a JS number holds exactly
 * (2**53), so `Deal.number` is a BigInt (or null for a custom deal). `fromNumber` also takes
 * a safe integer number; `toDict()` writes the number as a JSON number up to 2**53 - 1 and as
 * a string of digits beyond (the API's own rule: Python's fromDict reads both). */

import { Card, CardError, FULL_DECK, RANKS, SUITS } from "./cards.js";
import { DealError, dealtCards, exact, inRange, parseCanonicalNumber, parseNumber } from "./numbers.js";
import { PY_SPACE, isDict } from "./python.js";
import { Code } from "./refusals.js";

export {
  DEAL_NUMBER_PATTERN, MAX_DEAL_NUMBER, MIN_DEAL_NUMBER, MS_DEALS_BELOW, RANGE, DealError,
  SHOWN_TEXT_MAX_LENGTH, TYPED_NUMBER_MAX_LENGTH,
} from "./numbers.js";

export const PYRAMID_ROWS = 7;
export const PYRAMID_SIZE = 28;
export const STOCK_SIZE = 24;

/** Pyramid position `index` (0..27, apex first) as [row, column].
 * @param {number} index @returns {[number, number]} */
export function rowCol(index) {
  let row = 0;
  while (index > row) {
    index -= row + 1;
    row += 1;
  }
  return [row, index];
}

/** The pyramid index of (row, column). @param {number} row @param {number} col @returns {number} */
export function position(row, col) {
  return (row * (row + 1)) / 2 + col;
}

/** The pyramid positions that cover `index` (none for the bottom row).
 * @param {number} index @returns {number[]} */
export function covering(index) {
  const [row, col] = rowCol(index);
  if (row === PYRAMID_ROWS - 1) return [];
  return [position(row + 1, col), position(row + 1, col + 1)];
}

/** @type {readonly (readonly number[])[]} */
export const COVERED_BY = Object.freeze(
  Array.from({ length: PYRAMID_SIZE }, (_, i) => Object.freeze(covering(i))));

/** A deal: `pyramid` row by row from the apex, `stock` top card first. `number` is the PySolFC
 * deal number (a BigInt) when the deal came from one, else null: a label, not part of the deal
 * (`equals` compares the cards). */
export class Deal {
  /** @param {readonly Card[]} pyramid 28 cards @param {readonly Card[]} stock 24 cards
   *  @param {bigint|null} [number] */
  constructor(pyramid, stock, number = null) {
    if (pyramid.length !== PYRAMID_SIZE) {
      throw new DealError(Code.DEAL_PART_SIZE,
        { part: "pyramid", size: PYRAMID_SIZE, count: pyramid.length });
    }
    if (stock.length !== STOCK_SIZE) {
      throw new DealError(Code.DEAL_PART_SIZE,
        { part: "stock", size: STOCK_SIZE, count: stock.length });
    }
    const seen = new Set();
    for (const card of [...pyramid, ...stock]) {
      if (seen.has(card)) throw new DealError(Code.CARD_TWICE, { card: card.name });
      seen.add(card);
    }
    /** @readonly @type {readonly Card[]} */ this.pyramid = Object.freeze([...pyramid]);
    /** @readonly @type {readonly Card[]} */ this.stock = Object.freeze([...stock]);
    /** @readonly @type {bigint|null} */ this.number = number === null ? null : BigInt(number);
    Object.freeze(this);
  }

  // --- deal numbers ----------------------------------------------------------------------
  /** PySolFC's Pyramid deal `number` (1 .. 10**20 - 1).
   * @param {number|bigint} number @returns {Deal} */
  static fromNumber(number) {
    if (typeof number === "number" && Number.isInteger(number)) number = exact(number);
    if (typeof number !== "bigint") {
      throw new DealError(Code.DEAL_NUMBER_NOT_INT, { value: number });
    }
    const [pyramid, stock] = dealtCards(inRange(number));
    return new Deal(pyramid, stock, number);
  }

  /** Read a deal number as a person types it: spaces, thousands separators (`1,234`,
   * `1_234`) and a leading `#` are fine. Errors give the range.
   * @param {string|number|bigint} text @returns {bigint} */
  static parseNumber(text) {
    return parseNumber(text);
  }

  /** Read a deal number written the one way links and the API write it, so that each deal
   * has one link. @param {string} text @returns {bigint} */
  static parseCanonicalNumber(text) {
    return parseCanonicalNumber(text);
  }

  // --- JSON form (RULES.md) ----------------------------------------------------------------
  /** @returns {{pyramid: string[], stock: string[], deal?: number|string}} */
  toDict() {
    /** @type {{pyramid: string[], stock: string[], deal?: number|string}} */
    const data = { pyramid: this.pyramid.map((c) => c.name), stock: this.stock.map((c) => c.name) };
    if (this.number !== null) {
      data.deal = this.number <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(this.number)
        : this.number.toString();
    }
    return data;
  }

  /** @returns {string} */
  toJson() {
    return JSON.stringify(this.toDict());
  }

  /** @param {unknown} data @returns {Deal} */
  static fromDict(data) {
    if (!isDict(data)) {
      throw new DealError(Code.DEAL_NOT_OBJECT);
    }
    const missing = ["pyramid", "stock"].filter((key) => !(key in data));
    if (missing.length) {
      throw new DealError(Code.DEAL_MISSING, { parts: missing });
    }
    const parts = [];
    for (const [key, size] of [["pyramid", PYRAMID_SIZE], ["stock", STOCK_SIZE]]) {
      const names = data[key];
      if (!Array.isArray(names)) throw new DealError(Code.DEAL_PART_NOT_LIST, { part: key, size });
      if (names.length !== size) {
        throw new DealError(Code.DEAL_PART_SIZE, { part: key, size, count: names.length });
      }
      parts.push(names.map((name, i) => {
        try {
          return Card.parse(name);
        } catch (exc) {
          if (exc instanceof CardError) {
            throw new DealError(Code.DEAL_NOT_A_CARD, { part: key, index: i, value: name });
          }
          throw exc;
        }
      }));
    }
    const sent = data.deal ?? null;
    const number = sent === null ? null : Deal.parseNumber(/** @type {any} */ (sent));
    const deal = checked(parts[0], parts[1]);
    if (number !== null && !Deal.fromNumber(number).equals(deal)) {
      throw new DealError(Code.NOT_THAT_DEAL, { number });
    }
    return new Deal(deal.pyramid, deal.stock, number);
  }

  /** @param {string} text @returns {Deal} */
  static fromJson(text) {
    let data;
    try {
      data = JSON.parse(text);
    } catch {
      throw new DealError(Code.DEAL_NOT_JSON);
    }
    return Deal.fromDict(data);
  }

  // --- one-line text form ------------------------------------------------------------------
  /** `JD2D9H…QH/4HAC…6H`: the 28 pyramid cards, a slash, the 24 stock cards. @returns {string} */
  toText() {
    return this.pyramid.map((c) => c.name).join("") + "/" + this.stock.map((c) => c.name).join("");
  }

  /** Read `toText`'s form; spaces and commas between cards are allowed.
   * @param {string} text @returns {Deal} */
  static fromText(text) {
    if (typeof text !== "string" || text.split("/").length !== 2) {
      throw new DealError(Code.DEAL_TEXT_SHAPE);
    }
    const chunks = text.split("/");
    const parts = [];
    for (const [k, label, size] of [[0, "pyramid", PYRAMID_SIZE], [1, "stock", STOCK_SIZE]]) {
      const compact = Array.from(
        chunks[k].replace(new RegExp(`[${PY_SPACE},]+`, "g"), "").toUpperCase()
          .replaceAll("10", "T"));
      const pairs = [];
      for (let i = 0; i < compact.length; i += 2) pairs.push(compact.slice(i, i + 2).join(""));
      const bad = pairs.findIndex((pair) => !CARD_NAME.test(pair));
      if (bad >= 0) {
        throw new DealError(Code.DEAL_NOT_A_CARD, { part: label, index: bad, value: pairs[bad] });
      }
      const cards = pairs.map((pair) => Card.parse(pair));
      if (cards.length !== size) {
        throw new DealError(Code.DEAL_PART_SIZE, { part: label, size, count: cards.length });
      }
      parts.push(cards);
    }
    return checked(parts[0], parts[1]);
  }

  /** Equal cards in the same places (the number is a label). @param {Deal} other */
  equals(other) {
    return other instanceof Deal && this.toText() === other.toText();
  }

  toString() {
    return this.toText();
  }
}

const CARD_NAME = new RegExp(`^[${RANKS}][${SUITS}]$`);

/** Build a deal, naming missing and doubled cards rather than just counting them.
 * @param {Card[]} pyramid @param {Card[]} stock @returns {Deal} */
function checked(pyramid, stock) {
  const counts = new Map();
  for (const card of [...pyramid, ...stock]) counts.set(card, (counts.get(card) ?? 0) + 1);
  const doubled = FULL_DECK.filter((c) => (counts.get(c) ?? 0) > 1).map((c) => c.name);
  const absent = FULL_DECK.filter((c) => !counts.has(c)).map((c) => c.name);
  if (doubled.length || absent.length) {
    throw new DealError(Code.DEAL_CARDS_WRONG, { doubled, missing: absent });
  }
  return new Deal(pyramid, stock, null);
}

// @ts-check
/* Deal numbers: mirrors the number half of app/engine/deal.py. PySolFC's range (1 to
 * 99,999,999,999,999,999,999), the number as a person types it and as a link writes it, and
 * the shuffle that deals number N exactly as PySolFC (and so the server) deals it: below 32000
 * the FreeCell generator on FreeCell's card order, from 32000 on Python's Mersenne Twister;
 * dealt from the end of the shuffled pack (docs/engine.md).
 *
 * The range runs past what a JS number holds exactly (2**53), so deal numbers are BigInts
 * here; a number past 2**53 is refused rather than taken for a neighbouring deal. */

import { Card } from "./cards.js";
import { LCRandom31, MTRandom, msRearrange } from "./random.js";
import { pyStrip } from "./python.js";
import { Code, Refused } from "./refusals.js";

export const MIN_DEAL_NUMBER = 1n;
export const MAX_DEAL_NUMBER = 10n ** 20n - 1n;
/** A deal number as links, the API and stored games write it: digits, no leading zero. */
export const DEAL_NUMBER_PATTERN = "[1-9][0-9]{0,19}";
const CANONICAL = new RegExp(`^(?:${DEAL_NUMBER_PATTERN})$`);
/** Longer typed text is refused before any conversion. */
export const TYPED_NUMBER_MAX_LENGTH = 64;
/** A longer text that is not a deal number is not repeated in the refusal. */
export const SHOWN_TEXT_MAX_LENGTH = 30;
/** The fields every refusal of a deal number carries: the range of deal numbers. */
export const RANGE = Object.freeze({ first: MIN_DEAL_NUMBER, last: MAX_DEAL_NUMBER });
/** PySolFC deals numbers below this with the Microsoft FreeCell generator. */
export const MS_DEALS_BELOW = 32000n;

/** A deal number, JSON or text that does not describe a valid deal. */
export class DealError extends Refused {
  get name() { return "DealError"; }
}

/** @param {bigint} number @returns {bigint} */
export function inRange(number) {
  if (number < MIN_DEAL_NUMBER || number > MAX_DEAL_NUMBER) {
    if ((number < 0n ? -number : number) >= 10n ** 40n) {
      throw new DealError(Code.DEAL_NUMBER_TOO_LONG, RANGE);
    }
    throw new DealError(Code.DEAL_OUT_OF_RANGE, { number, ...RANGE });
  }
  return number;
}

/** A whole JS number as a BigInt, refused past 2**53 where it is no longer the integer it was
 * written as (unless it is out of range anyway: then the range is the answer).
 * @param {number} number @returns {bigint} */
export function exact(number) {
  const big = BigInt(number);
  if (!Number.isSafeInteger(number) && big >= MIN_DEAL_NUMBER && big <= MAX_DEAL_NUMBER) {
    throw new DealError(Code.INEXACT_NUMBER, { number });
  }
  return big;
}

/** Python's Deal.parse_number: spaces, thousands separators (`1,234`, `1_234`) and a leading
 * `#` are fine; errors give the range. @param {unknown} text @returns {bigint} */
export function parseNumber(text) {
  if (typeof text === "bigint") return inRange(text);
  if (typeof text === "number" && Number.isInteger(text)) return inRange(exact(text));
  if (typeof text !== "string") throw new DealError(Code.NOT_A_DEAL_NUMBER, { text, ...RANGE });
  const length = Array.from(text).length;  // code points, as Python counts
  if (length > TYPED_NUMBER_MAX_LENGTH) {
    throw new DealError(Code.DEAL_TEXT_TOO_LONG, { length, ...RANGE });
  }
  const cleaned = pyStrip(text).replace(/[,_]/g, "").replace(/^#+/, "");
  if (!/^[0-9]+$/.test(cleaned)) throw new DealError(Code.NOT_A_DEAL_NUMBER, { text, ...RANGE });
  return inRange(BigInt(cleaned));
}

/** Python's Deal.parse_canonical_number: the one way links and the API write a deal number,
 * so that each deal has one link. @param {unknown} text @returns {bigint} */
export function parseCanonicalNumber(text) {
  if (typeof text !== "string" || !CANONICAL.test(text)) {
    if (typeof text === "string" && Array.from(text).length > SHOWN_TEXT_MAX_LENGTH) {
      throw new DealError(Code.NOT_PLAIN_DIGITS_LONG, RANGE);
    }
    throw new DealError(Code.NOT_PLAIN_DIGITS, { text, ...RANGE });
  }
  return BigInt(text);
}

/** PySolFC's deal `number` (already checked) as [pyramid apex first, stock top first].
 * @param {bigint} number @returns {[Card[], Card[]]} */
export function dealtCards(number) {
  // PySolFC's unshuffled pack: clubs, spades, hearts, diamonds, each Ace to King.
  let cards = [];
  for (const suit of "CSHD") for (let rank = 1; rank <= 13; rank++) cards.push(new Card(rank, suit));
  let rng;
  if (number < MS_DEALS_BELOW) {
    rng = new LCRandom31(Number(number));
    cards = msRearrange(cards);
  } else {
    rng = new MTRandom(number);
  }
  rng.shuffle(cards);
  // PySolFC deals from the end of the shuffled list.
  return [Array.from({ length: 28 }, (_, k) => cards[51 - k]),
    Array.from({ length: 24 }, (_, k) => cards[23 - k])];
}

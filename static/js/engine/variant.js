// @ts-check
/* A set of rules: the goal and the number of passes through the stock. Mirrors
 * app/engine/variant.py, the one home of the six rule sets' names, keys (`wholedeck-2`) and
 * words ("whole deck goal, 2 passes"), so the page says them as the server does. */

import { PYRAMID_SIZE } from "./deal.js";
import { PyEnum, sealed } from "./enum.js";
import { pyStrip } from "./python.js";
import { Code, Refused } from "./refusals.js";

/** The most passes through the stock a rule set allows: the one definition of the limit on
 * this side (app/engine/variant.py's MAX_PASSES on the other; the conformance suite holds the
 * two equal). PASS_CHOICES, the rule sets and the refusal of another number follow from it. */
export const MAX_PASSES = 3;
export const PASS_CHOICES = Object.freeze(Array.from({ length: MAX_PASSES }, (_, i) => i + 1));
export const DEFAULT_PASSES = 3;

/** A goal or pass count that is not one of the game's choices. */
export class GameSetupError extends Refused {
  get name() { return "GameSetupError"; }
}

/** What it takes to win: the 28 pyramid cards, or all 52 cards. */
export class Goal extends PyEnum {
  static STANDARD = new Goal("STANDARD", "standard");
  static WHOLE_DECK = new Goal("WHOLE_DECK", "wholedeck");

  /** @returns {string} */
  get label() {
    return this === Goal.STANDARD ? "Standard" : "Whole deck";
  }

  /** @returns {number} */
  get cardsToClear() {
    return this === Goal.STANDARD ? PYRAMID_SIZE : 52;
  }

  /** @returns {string} */
  get wonWhen() {
    if (this === Goal.STANDARD) return `won when the ${PYRAMID_SIZE} pyramid cards are gone`;
    return `won only when all ${this.cardsToClear} cards are gone`;
  }
}
sealed(Goal);

export const DEFAULT_GOAL = Goal.STANDARD;

/** @param {Goal|string} goal @returns {Goal} */
export function parseGoal(goal) {
  try {
    return Goal.from(goal);
  } catch {
    throw new GameSetupError(Code.UNKNOWN_GOAL, { value: goal });
  }
}

/** 1 to MAX_PASSES, given as a number or as its digits in a string (spaces around it allowed,
 * as Python's int() allows them). @param {number|string} passes @returns {number} */
export function parsePasses(passes) {
  const value = typeof passes === "string" ? pyStrip(passes) : passes;
  if (typeof value === "number" && PASS_CHOICES.includes(value)) return value;
  if (typeof value === "string" && PASS_CHOICES.map(String).includes(value)) return Number(value);
  if (typeof value === "bigint" && PASS_CHOICES.map(BigInt).includes(value)) return Number(value);
  throw new GameSetupError(Code.UNKNOWN_PASSES, { value: passes, most: MAX_PASSES });
}

/** `1 pass`, `3 passes`. @param {number} passes @returns {string} */
export function passesText(passes) {
  return `${passes} pass${passes !== 1 ? "es" : ""}`;
}

/** One set of rules. `new Variant("wholedeck", "2")` checks and converts its parts. */
export class Variant {
  /** @param {Goal|string} goal @param {number|string} passes */
  constructor(goal, passes) {
    /** @readonly @type {Goal} */ this.goal = parseGoal(goal);
    /** @readonly @type {number} */ this.passes = parsePasses(passes);
    Object.freeze(this);
  }

  /** Read a key such as `standard-3`. @param {string} key @returns {Variant} */
  static fromKey(key) {
    const text = String(key);
    const dash = text.lastIndexOf("-");
    if (dash < 0) throw new GameSetupError(Code.NOT_A_RULE_SET_KEY, { key });
    return new Variant(text.slice(0, dash), text.slice(dash + 1));
  }

  /** `standard-3`: the name of a rule set in file names, anchors and CSS classes.
   * @returns {string} */
  get key() {
    return `${this.goal.value}-${this.passes}`;
  }

  /** `standard goal, 3 passes`: the rule set in the middle of a sentence. @returns {string} */
  get label() {
    return `${this.goal.label.toLowerCase()} goal, ${passesText(this.passes)}`;
  }

  /** `Standard goal, 3 passes`: the rule set as a heading. @returns {string} */
  get title() {
    return this.label[0].toUpperCase() + this.label.slice(1);
  }

  /** @returns {number} */
  get toClear() {
    return this.goal.cardsToClear;
  }

  /** @param {Variant} other */
  equals(other) {
    return other instanceof Variant && other.key === this.key;
  }

  toString() {
    return this.key;
  }
}

/** The rule sets in the order every page, table and file lists them: standard 1 to MAX_PASSES
 * passes, then whole deck. @type {readonly Variant[]} */
export const VARIANTS = Object.freeze(Goal.members().flatMap(
  (goal) => PASS_CHOICES.map((passes) => new Variant(goal, passes))));

export const DEFAULT_VARIANT = new Variant(DEFAULT_GOAL, DEFAULT_PASSES);

// @ts-check
/* Refusals as values: mirrors app/engine/refusals.py. Every "no" of the engine is a Refusal, a
 * stable snake_case code and its fields (`covered` {card: "AD", by: ["3S", "5S"]}), the same
 * codes with the same fields as the Python engine's (tests/engine/test_js_conformance.py
 * compares them). The errors (IllegalMove, MoveError, DealError, CardError, GameSetupError)
 * carry theirs as `.refusal`; their message is the code and fields, for the console only. The
 * words a player reads come from the page's catalog, by code (static/js/board/words.js). */

/** Every refusal of the engine, by Python's name (the comment says its fields). */
export const Code = Object.freeze({
  // A move the rules do not allow now (IllegalMove).
  NOTHING_TO_DRAW: "nothing_to_draw",
  RECYCLE_FIRST: "recycle_first",
  STOCK_EXHAUSTED: "stock_exhausted",
  STOCK_NOT_EMPTY: "stock_not_empty", // count
  WASTE_EMPTY: "waste_empty",
  NO_PASSES_LEFT: "no_passes_left", // passes
  ALREADY_REMOVED: "already_removed", // card
  COVERED: "covered", // card, by
  NOT_FREE: "not_free", // card
  NOT_A_KING: "not_a_king", // card
  NOT_THIRTEEN: "not_thirteen", // a, b, total
  NOTHING_TO_UNDO: "nothing_to_undo",
  GAME_OVER: "game_over", // status, termination
  // A card name (CardError).
  NO_SUCH_CARD: "no_such_card", // rank, suit
  CARD_NOT_TEXT: "card_not_text", // value
  NOT_A_CARD: "not_a_card", // text
  // A move's text or JSON (MoveError).
  REMOVAL_CARDS: "removal_cards",
  SAME_CARD_TWICE: "same_card_twice", // card
  TAKES_NO_CARDS: "takes_no_cards", // op
  MOVE_NOT_TEXT: "move_not_text", // value
  NOT_A_MOVE: "not_a_move", // text
  MOVE_NOT_OBJECT: "move_not_object",
  UNKNOWN_OP: "unknown_op", // op
  UNEXPECTED_FIELDS: "unexpected_fields", // fields
  MOVE_NOT_JSON: "move_not_json",
  // A deal number (DealError); first, last: the range of deal numbers.
  DEAL_OUT_OF_RANGE: "deal_out_of_range", // number, first, last
  DEAL_NUMBER_TOO_LONG: "deal_number_too_long", // first, last
  DEAL_TEXT_TOO_LONG: "deal_text_too_long", // length, first, last
  NOT_A_DEAL_NUMBER: "not_a_deal_number", // text, first, last
  NOT_PLAIN_DIGITS: "not_plain_digits", // text, first, last
  NOT_PLAIN_DIGITS_LONG: "not_plain_digits_long", // first, last
  DEAL_NUMBER_NOT_INT: "deal_number_not_int", // value
  INEXACT_NUMBER: "inexact_number", // number: a JS number past 2**53
  // A deal's cards (DealError).
  DEAL_PART_SIZE: "deal_part_size", // part, size, count
  CARD_TWICE: "card_twice", // card
  DEAL_NOT_OBJECT: "deal_not_object",
  DEAL_MISSING: "deal_missing", // parts
  DEAL_PART_NOT_LIST: "deal_part_not_list", // part, size
  DEAL_NOT_A_CARD: "deal_not_a_card", // part, index, value
  NOT_THAT_DEAL: "not_that_deal", // number
  DEAL_NOT_JSON: "deal_not_json",
  DEAL_CARDS_WRONG: "deal_cards_wrong", // doubled, missing
  DEAL_TEXT_SHAPE: "deal_text_shape",
  // A rule set (GameSetupError).
  UNKNOWN_GOAL: "unknown_goal", // value
  UNKNOWN_PASSES: "unknown_passes", // value, most
  NOT_A_RULE_SET_KEY: "not_a_rule_set_key", // key
});

/** JSON of anything a field holds (a BigInt as its digits). @param {unknown} value */
function shown(value) {
  try {
    return JSON.stringify(value, (_, v) => (typeof v === "bigint" ? v.toString() : v)) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Why the engine says no: a code and its fields (plain JSON values; deal numbers BigInts). */
export class Refusal {
  /** @param {string} code one of Code's @param {Record<string, unknown>} [fields] */
  constructor(code, fields = {}) {
    /** @readonly */ this.code = code;
    /** @readonly */ this.fields = Object.freeze({ ...fields });
    Object.freeze(this);
  }

  /** `{code: "covered", fields: {card: "AD", by: ["3S", "5S"]}}` (Python's to_dict). */
  toDict() {
    return { code: this.code, fields: { ...this.fields } };
  }

  toString() {
    return `${this.code} ${shown(this.fields)}`;
  }
}

/** @param {string} code @param {Record<string, unknown>} [fields] @returns {Refusal} */
export function refusal(code, fields = {}) {
  return new Refusal(code, fields);
}

/** What the engine throws when it says no: `refusal` says why. */
export class Refused extends Error {
  /** @param {Refusal|string} why a Refusal, or a code @param {Record<string, unknown>} [fields] */
  constructor(why, fields = {}) {
    const value = why instanceof Refusal ? why : new Refusal(why, fields);
    super(String(value));
    /** @readonly */ this.refusal = value;
  }

  get code() { return this.refusal.code; }
}

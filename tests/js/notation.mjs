/* The JS side of the notation cases of tests/engine/test_js_conformance.py: each Python call
 * the test makes (its key, Python's name) made with the JS engine, returning the same facts in
 * the same shape, so that a reading, a writing or a refusal that differs shows as a diff. */

import {
  Card, Deal, Move, Outcome, Variant, gameOver, parseGoal, parsePasses, passesText,
} from "../../static/js/engine/index.js";

const cardFacts = (card) => [card.name, card.value, card.index, card.isKing, card.isRed,
  card.symbol, card.longName, String(card)];
const moveFacts = (move) => [move.toText(), move.toDict(), move.op.value,
  move.cards.map((card) => card.name)];
const dealFacts = (deal) => [deal.toText(), deal.number === null ? null : String(deal.number)];
const variantFacts = (variant) => [variant.key, variant.label, variant.title, variant.toClear,
  variant.goal.value, variant.passes];
const goalFacts = (goal) => [goal.value, goal.label, goal.cardsToClear, goal.wonWhen];

/** Python's call -> the same call in JS. @type {Record<string, (...args: any[]) => unknown>} */
export const NOTATION = {
  "Card": (rank, suit) => cardFacts(new Card(rank, suit)),
  "Card.parse": (name) => cardFacts(Card.parse(name)),
  "Move.from_text": (text) => moveFacts(Move.fromText(text)),
  "Move.from_dict": (data) => moveFacts(Move.fromDict(data)),
  "Move.from_json": (text) => moveFacts(Move.fromJson(text)),
  "Deal.from_number": (number) => dealFacts(Deal.fromNumber(number)),
  "Deal.parse_number": (text) => String(Deal.parseNumber(text)),
  "Deal.parse_canonical_number": (text) => String(Deal.parseCanonicalNumber(text)),
  "Deal.from_dict": (data) => dealFacts(Deal.fromDict(data)),
  "Deal.from_json": (text) => dealFacts(Deal.fromJson(text)),
  "Deal.from_text": (text) => dealFacts(Deal.fromText(text)),
  "Variant": (goal, passes) => variantFacts(new Variant(goal, passes)),
  "Variant.from_key": (key) => variantFacts(Variant.fromKey(key)),
  "parse_goal": (goal) => goalFacts(parseGoal(goal)),
  "parse_passes": (passes) => parsePasses(passes),
  "passes_text": (passes) => passesText(passes),
  "game_over": (status, termination) => {
    const outcome = termination === null ? null : new Outcome(termination);
    return gameOver(status, outcome).toDict();
  },
};

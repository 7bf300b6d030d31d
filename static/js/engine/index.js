// @ts-check
/* The rules engine for the browser (and Node): mirrors app/engine/__init__.py's public API
 * with the same names, camelCase for methods (legal_moves -> legalMoves). Plain ES modules
 * with no dependencies, so a page loads it as it is:
 *
 *   import { Deal, Game, Move } from "/static/js/engine/index.js";
 *   const game = new Game(Deal.fromNumber(617), "wholedeck", 3);
 *   game.legalMoves().map(String);      // ["KD", ..., "draw"], the server's order
 *   game.whyIllegal(Move.fromText("7D+AD"));  // Refusal {code: "covered", fields: {card: "AD", by: ["3S", "5S"]}}
 *
 * tests/engine/test_js_conformance.py holds it to app/engine (docs/engine.md, "The rules in
 * the browser"). The greedy player, the solver and the analysis stay on the server. */

export { FULL_DECK, Card, CardError, KING, PAIR_SUM, RANKS, SUITS } from "./cards.js";
export {
  COVERED_BY, MAX_DEAL_NUMBER, MIN_DEAL_NUMBER, PYRAMID_ROWS, PYRAMID_SIZE, STOCK_SIZE, Deal,
  DealError, covering, position, rowCol,
} from "./deal.js";
export { Code, Refusal, Refused, refusal } from "./refusals.js";
export { Game, IllegalMove } from "./game.js";
export { Move, MoveError, Op } from "./moves.js";
export { GameStatus, Outcome, Termination, gameOver } from "./outcome.js";
export { LCRandom31, MTRandom } from "./random.js";
export { Score, rowsCleared, score } from "./score.js";
export {
  DEFAULT_GOAL, DEFAULT_PASSES, DEFAULT_VARIANT, MAX_PASSES, PASS_CHOICES, VARIANTS,
  GameSetupError, Goal, Variant, parseGoal, parsePasses, passesText,
} from "./variant.js";

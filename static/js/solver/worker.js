// @ts-check
/* The solver's Web Worker: every search the board asks for runs here, off the page's thread, so
 * a press is drawn in the next frame whatever a search is doing. The board (static/js/board/
 * device.js) ends a search that a newer position made stale by ending this worker and starting
 * another (a search in C cannot be interrupted from outside; a fresh worker is a few ms).
 *
 * A message: {id, kind: "hint"|"verdict"|"analysis", position: {cards, goal, passes, moves},
 * nodeLimit}; the answer: {id, answer} or {id, error}. Moves and hints travel in the JSON API's
 * form ({"op": "remove", "cards": ["3D", "TS"]}). */

import { Deal, Game, Move } from "../engine/index.js";
import { analyse, winnableUntil } from "./analysis.js";
import { Solver } from "./solver.js";

/** A position as the page sends it: the deal's text, the goal's value, the pass limit, the moves
 * played in their text form.
 * @typedef {{cards: string, goal: string, passes: number, moves: string[]}} Position */
/** @typedef {"hint"|"verdict"|"analysis"} Kind */
/** @typedef {{id: number, kind: Kind, position: Position, nodeLimit: number}} Question */
/** @typedef {{id: number, answer?: any, error?: string}} Answer */

/** The worker's global scope, what this file uses of it: tsconfig.json's lib is the page's
 * (dom), in which `self` is a Window, whose postMessage asks for a target origin.
 * @type {{postMessage(message: Answer): void,
 *   addEventListener(type: "message", listener: (event: MessageEvent<Question>) => void): void}} */
const scope = /** @type {any} */ (self);

const loading = Solver.load(new URL("../../wasm/solver.wasm", import.meta.url));

/** @param {Position} position @returns {Game} */
function gameOf({ cards, goal, passes, moves }) {
  return Game.replay(Deal.fromText(cards), goal, passes, moves.map((text) => Move.fromText(text)));
}

/** @param {import("../engine/moves.js").Move|null} move */
const dict = (move) => (move ? move.toDict() : null);

/** Each kind's search. @type {Record<Kind, (solver: Solver, game: Game, nodeLimit: number) => object>} */
const WORK = {
  hint(solver, game, nodeLimit) {
    const found = solver.hint(game, nodeLimit);
    // No win left: how far back one was, at a quarter budget a position (the server's look back).
    const until = found.winnable === false
      ? winnableUntil(solver, game, Math.floor(nodeLimit / 4), found.solution) : null;
    return { move: dict(found.move), winnable: found.winnable, until,
      nodes: found.solution ? found.solution.nodes : 0 };
  },
  verdict(solver, game, nodeLimit) {
    return { verdict: solver.verdict(game, nodeLimit) };
  },
  analysis(solver, game, nodeLimit) {
    const found = analyse(solver, game, nodeLimit);
    return { ...found, losingMove: dict(found.losingMove), betterMove: dict(found.betterMove),
      solution: found.solution ? found.solution.map(dict) : null };
  },
};

scope.addEventListener("message", async ({ data }) => {
  const { id, kind, position, nodeLimit } = data;
  try {
    const solver = await loading;
    scope.postMessage({ id, answer: WORK[kind](solver, gameOf(position), nodeLimit) });
  } catch (error) {
    scope.postMessage({ id, error: String(error) });
  }
});

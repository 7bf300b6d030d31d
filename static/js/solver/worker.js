// @ts-check
/* The solver's Web Worker: every search the board asks for runs here, off the page's thread, so
 * a press is drawn in the next frame whatever a search is doing. Of the questions that come
 * while it loads or searches, only the newest is answered; the others are passed over
 * ({id, skipped: true}). The page (device.js) ends this worker only to stop a deep search that
 * a newer position made stale (a search in C cannot be interrupted from outside).
 *
 * A message: {id, kind: "hint"|"verdict"|"analysis", position: {cards, goal, passes, moves},
 * nodeLimit}; the answer: {id, answer}, {id, error} or {id, skipped: true}; and once, when the
 * solver is loaded, {ready: true}. Moves and hints travel in the JSON API's
 * form ({"op": "remove", "cards": ["3D", "TS"]}). */

import { Deal, Game, Move } from "../engine/index.js";
import { analyse, winnableUntil } from "./analysis.js";
import { Solver } from "./solver.js";

/** A position as the page sends it: the deal's text, the goal's value, the pass limit, the moves
 * played in their text form.
 * @typedef {{cards: string, goal: string, passes: number, moves: string[]}} Position */
/** @typedef {"hint"|"verdict"|"analysis"} Kind */
/** @typedef {{id: number, kind: Kind, position: Position, nodeLimit: number}} Question */
/** @typedef {{id: number, answer?: any, error?: string, skipped?: boolean}|{ready: true}} Answer */

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

/** The question the worker is to answer next: the newest of those that came while it was
 * loading or searching. @type {Question|null} */
let newest = null;

scope.addEventListener("message", async ({ data }) => {
  if (newest) scope.postMessage({ id: newest.id, skipped: true });  // made stale by `data`
  newest = data;
  let solver;
  try {
    solver = await loading;
  } catch (error) {
    if (newest === data) newest = null;
    scope.postMessage({ id: data.id, error: String(error) });
    return;
  }
  // A macrotask later: the questions already queued behind this one are read first.
  await new Promise((resolve) => setTimeout(resolve, 0));
  if (newest !== data) return;  // a newer question came meanwhile (and passed this one over)
  newest = null;
  const { id, kind, position, nodeLimit } = data;
  try {
    scope.postMessage({ id, answer: WORK[kind](solver, gameOf(position), nodeLimit) });
  } catch (error) {
    scope.postMessage({ id, error: String(error) });
  }
});

loading.then(() => scope.postMessage({ ready: true }), () => {});

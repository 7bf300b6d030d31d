// @ts-check
/* Where a game went wrong, on the device: app/engine/analysis.py's analyse() with the
 * WebAssembly solver, step for step (the same solves in the same order, the same shortcuts), so
 * its answer is the server's. Once a position is lost every later one is: a binary search over
 * the move numbers finds the first lost position; a winning line the game went on to follow
 * proves the positions along it winnable with no search. */

import { Game } from "../engine/index.js";

/** @typedef {import("./solver.js").Solver} Solver */
/** @typedef {ReturnType<Solver["solve"]>} Solution */
/** @typedef {import("../engine/moves.js").Move} Move */

/** The game's positions by the number of moves played (0 .. n), each solved at most once. */
class Prefixes {
  /** @param {Solver} solver @param {Game} game @param {number} nodeLimit
   * @param {Solution|null} [known] the last position's solve, already made */
  constructor(solver, game, nodeLimit, known = null) {
    this.solver = solver;
    this.moves = [...game.moves];
    this.deal = game.deal;
    this.goal = game.goal;
    this.passes = game.passes;
    this.nodeLimit = nodeLimit;
    /** @type {Map<number, Solution>} */
    this.solutions = known ? new Map([[this.moves.length, known]]) : new Map();
    /** Positions a solve's line went through: the rest of its line. @type {Map<number, Move[]>} */
    this.provenWinnable = new Map();
    this.nodes = 0;
  }

  /** @param {number} k @returns {Game} */
  at(k) {
    return Game.replay(this.deal, this.goal, this.passes, this.moves.slice(0, k));
  }

  /** @param {number} k @returns {boolean|null} null: not known within the node limit */
  winnable(k) {
    if (this.provenWinnable.has(k)) return true;
    if (!this.solutions.has(k)) {
      const found = this.solver.solve(this.at(k), { nodeLimit: this.nodeLimit });
      this.solutions.set(k, found);
      this.nodes += found.nodes;
      if (found.moves) {
        for (let step = 1; step <= found.moves.length; step++) {
          if (k + step > this.moves.length || !this.moves[k + step - 1].equals(found.moves[step - 1])) {
            break;
          }
          this.provenWinnable.set(k + step, found.moves.slice(step));
        }
      }
    }
    return this.solutions.get(k).winnable;
  }

  /** @param {number} k @returns {Move[]|null} */
  line(k) {
    if (this.provenWinnable.has(k)) return this.provenWinnable.get(k);
    const found = this.solutions.get(k);
    return found ? found.moves : null;
  }
}

/** The first lost position between `low` (winnable) and `high` (lost), or null when a search
 * stopped at the node limit. @param {Prefixes} prefixes @param {number} low @param {number} high
 * @returns {number|null} */
function firstLost(prefixes, low, high) {
  for (;;) {
    while (low + 1 < high && prefixes.provenWinnable.has(low + 1)) low += 1;
    if (high - low <= 1) return high;
    const middle = Math.floor((low + high) / 2);
    const verdict = prefixes.winnable(middle);
    if (verdict === null) return null;
    if (verdict) low = middle; else high = middle;
  }
}

/** analysis.py's Analysis of `game` (moves as Move objects): winnableAtStart, lostAt,
 * losingMove, betterMove, solution, won, movesPlayed, solves, nodes, complete.
 * @param {Solver} solver @param {Game} game @param {number} nodeLimit */
export function analyse(solver, game, nodeLimit) {
  const prefixes = new Prefixes(solver, game, nodeLimit);
  const n = prefixes.moves.length;
  const outcome = game.outcome();
  const won = outcome !== null && outcome.won;
  let start = true;
  let lostAt = null;
  if (!won) {
    start = prefixes.winnable(0);
    if (start && prefixes.winnable(n) === false) lostAt = firstLost(prefixes, 0, n);
  }
  const solution = won ? prefixes.moves : start ? prefixes.line(0) : null;
  let betterMove = null;
  if (lostAt !== null) {
    const line = prefixes.line(lostAt - 1);
    betterMove = line && line.length ? line[0] : null;
  }
  return {
    winnableAtStart: start,
    lostAt,
    losingMove: lostAt !== null ? prefixes.moves[lostAt - 1] : null,
    betterMove,
    solution,
    won,
    movesPlayed: n,
    solves: prefixes.solutions.size,
    nodes: prefixes.nodes,
    complete: [...prefixes.solutions.values()].every((found) => found.winnable !== null),
  };
}

/** analysis.py's winnable_until: how many moves to undo to be back in a winnable position (0
 * when this one is), or null when none is or a search stopped at `nodeLimit`. `known`: this
 * position's solve, already made. @param {Solver} solver @param {Game} game
 * @param {number} nodeLimit @param {Solution|null} [known] @returns {number|null} */
export function winnableUntil(solver, game, nodeLimit, known = null) {
  const prefixes = new Prefixes(solver, game, nodeLimit, known);
  const n = prefixes.moves.length;
  const end = prefixes.winnable(n);
  if (end !== false) return end ? 0 : null;
  if (!prefixes.winnable(0)) return null;
  const lostAt = firstLost(prefixes, 0, n);
  return lostAt === null ? null : n - lostAt + 1;
}

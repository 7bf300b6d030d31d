// @ts-check
/* The solver on the device: app/engine's C core compiled to WebAssembly (static/wasm/solver.wasm,
 * built by scripts/build_wasm.py from the same sources as the Python extension), with the same
 * calls as app/engine/solver.py, on the JS engine's own games (static/js/engine/game.js):
 *
 *   const solver = await Solver.load("/static/wasm/solver.wasm");   // or the file's bytes
 *   solver.solve(game, { nodeLimit, shortest })  // {verdict, moves, nodes, shortest, winnable, par}
 *   solver.par(game, nodeLimit)                  // fewest moves that win, null; or throws
 *                                                // SearchLimitReached
 *   solver.hint(game, nodeLimit)                 // {move, winnable}: solver.hint's move
 *   solver.verdict(game, nodeLimit)              // Verdict.WINNABLE / NOT_WINNABLE / UNKNOWN
 *
 * A solve is the C search itself, so its verdict, line, nodes and par are the native extension's
 * (tests/engine/test_wasm_conformance.py holds them to it). A hint is solver.py's: the first move
 * of the winning line, or when none is left the legal move with the best salvage score, first in
 * the engine's order. Everything here is synchronous: run it in a worker (worker.js). */

import { COVERED_BY, Goal, Move, Op, PYRAMID_SIZE } from "../engine/index.js";

/** @typedef {import("../engine/game.js").Game} Game */
/** @typedef {import("../engine/cards.js").Card} Card */
/** A solve's answer (solver.py's Solution): `moves` the winning line from here, null when there
 * is none or the search stopped; `winnable` null when it stopped; `par` the line's length when
 * it is the shortest.
 * @typedef {{verdict: string, moves: Move[]|null, nodes: number, seconds: number,
 *   shortest: boolean, winnable: boolean|null, par: number|null}} Solution */

export const Verdict = Object.freeze({
  WINNABLE: "winnable", NOT_WINNABLE: "not_winnable", UNKNOWN: "unknown",
});

/** solver.py's HINT_NODE_LIMIT: about a second of search on the server. */
export const HINT_NODE_LIMIT = 2_000_000;
/** solver.py's GAME_PASSES: the game's own pass limit. */
export const GAME_PASSES = "game";

/** The node limit stopped a search before it knew the answer (solver.py's). */
export class SearchLimitReached extends Error {
  get name() { return "SearchLimitReached"; }
}

/** What the module needs from its host: nothing but a source of random bytes, which the C
 * library's start-up asks for and the search never reads (a fixed answer keeps runs alike). */
const IMPORTS = {
  wasi_snapshot_preview1: {
    random_get: () => 0,
  },
};

export class Solver {
  /** @param {WebAssembly.Instance} instance */
  constructor(instance) {
    /** The module's calls and memory (_wasm.c's exports). @type {any} */
    this.exports = instance.exports;
    this.exports._initialize?.();
    /** The C core's flags and op codes by name (KINGS .. CONE, ALL_PRUNING, OP_*).
     * @type {Record<string, number>} */
    this.constants = {};
    const count = this.exports.wasm_constants();
    for (let i = 0; i < count; i++) {
      this.constants[this._string(this.exports.wasm_constant_name(i))] =
        this.exports.wasm_constant_value(i);
    }
  }

  /** Load the module from a URL (fetched, compiled as it streams when the server says
   * application/wasm) or from its bytes. @param {string|URL|BufferSource} source */
  static async load(source) {
    if (typeof source === "string" || source instanceof URL) {
      const response = await fetch(source);
      if (!response.ok) throw new Error(`the solver could not be loaded: ${response.status}`);
      if (WebAssembly.instantiateStreaming
          && response.headers.get("Content-Type") === "application/wasm") {
        return new Solver((await WebAssembly.instantiateStreaming(response, IMPORTS)).instance);
      }
      source = await response.arrayBuffer();
    }
    return new Solver((await WebAssembly.instantiate(source, IMPORTS)).instance);
  }

  /** @private The C string at `pointer` in the module's memory. @param {number} pointer */
  _string(pointer) {
    const bytes = new Uint8Array(this.exports.memory.buffer, pointer);
    return new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
  }

  /** Decide `game` from its current position: solver.py's solve(), same options.
   * @param {Game} game
   * @param {{nodeLimit?: number|null, pruning?: number, shortest?: boolean,
   *   passes?: number|null|"game", overlap?: boolean}} [options]
   * @returns {Solution} */
  solve(game, { nodeLimit = null, pruning = undefined, shortest = false, passes = GAME_PASSES,
    overlap = false } = {}) {
    const started = now();
    const outcome = game.outcome();
    const [cPasses, passIndex] = passRule(game, passes, this.constants.MAX_PASSES);
    const sameRules = cPasses === game.passes && !overlap;
    if (outcome !== null && (outcome.won || sameRules)) {
      return solution(outcome.won ? Verdict.WINNABLE : Verdict.NOT_WINNABLE,
        outcome.won ? [] : null, 0, now() - started, outcome.won);
    }
    const talon = [...game.waste, ...game.stock];
    const input = new Uint8Array(this.exports.memory.buffer, this.exports.wasm_input(),
      PYRAMID_SIZE + talon.length);
    game.pyramid.forEach((card, i) => { input[i] = card ? card.rank : 0; });
    talon.forEach((card, t) => { input[PYRAMID_SIZE + t] = card.rank; });
    const status = this.exports.wasm_solve(talon.length, game.waste.length, passIndex, cPasses,
      game.goal === Goal.WHOLE_DECK ? 1 : 0, pruning ?? this.constants.ALL_PRUNING,
      nodeLimit || 0, overlap ? 1 : 0, shortest ? 1 : 0);
    const nodes = this.exports.wasm_nodes();
    if (status === -2) throw new RangeError("the solver ran out of memory");
    if (status === -3) throw new RangeError("malformed position");
    const seconds = now() - started;
    if (status < 0) return solution(Verdict.UNKNOWN, null, nodes, seconds, false);
    if (status === 0) return solution(Verdict.NOT_WINNABLE, null, nodes, seconds, false);
    return solution(Verdict.WINNABLE, this._decode(game, talon), nodes, seconds, shortest);
  }

  /** The fewest moves that win from here (0 once won), or null when no win is left; throws
   * SearchLimitReached when `nodeLimit` stops the search first. @param {Game} game
   * @param {number|null} [nodeLimit] @param {{passes?: number|null|"game", overlap?: boolean}} [options]
   * @returns {number|null} */
  par(game, nodeLimit = null, { passes = GAME_PASSES, overlap = false } = {}) {
    const found = this.solve(game, { nodeLimit, shortest: true, passes, overlap });
    if (found.winnable === null) throw new SearchLimitReached(`no answer within ${nodeLimit} nodes`);
    return found.par;
  }

  /** Winnable, not winnable, or unknown within `nodeLimit`. @param {Game} game
   * @param {number} [nodeLimit] @returns {string} */
  verdict(game, nodeLimit = HINT_NODE_LIMIT) {
    return this.solve(game, { nodeLimit }).verdict;
  }

  /** solver.py's hint(): {move, winnable, solution}; move null once the game is over.
   * @param {Game} game @param {number} [nodeLimit] @param {Solution|null} [found] this
   * position's solve, already made
   * @returns {{move: Move|null, winnable: boolean|null, solution: Solution|null}} */
  hint(game, nodeLimit = HINT_NODE_LIMIT, found = null) {
    if (game.isOver()) return { move: null, winnable: null, solution: null };
    found = found || this.solve(game, { nodeLimit });
    if (found.winnable && found.moves.length) {
      return { move: found.moves[0], winnable: true, solution: found };
    }
    return { move: bestSalvage(game), winnable: found.winnable, solution: found };
  }

  /** @private The C line's (op, location, location) triples as moves with card names.
   * @param {Game} game @param {Card[]} talon the waste then the stock @returns {Move[]} */
  _decode(game, talon) {
    const { OP_KING, OP_PAIR, OP_DRAW } = this.constants;
    const length = this.exports.wasm_line_length();
    const raw = new Uint8Array(this.exports.memory.buffer, this.exports.wasm_line(), 3 * length);
    /** @param {number} location @returns {Card} */
    const cardAt = (location) => (location < PYRAMID_SIZE ? game.pyramid[location]
      : talon[location - PYRAMID_SIZE]);
    const moves = [];
    for (let i = 0; i < length; i++) {
      const [op, a, b] = raw.subarray(3 * i, 3 * i + 3);
      if (op === OP_KING) moves.push(new Move(Op.REMOVE, [cardAt(a)]));
      else if (op === OP_PAIR) moves.push(new Move(Op.REMOVE, [cardAt(a), cardAt(b)]));
      else if (op === OP_DRAW) moves.push(Move.draw());
      else moves.push(Move.recycle());
    }
    return moves;
  }
}

const now = () => (globalThis.performance ? performance.now() / 1000 : Date.now() / 1000);

/** @param {string} verdict @param {Move[]|null} moves @param {number} nodes
 * @param {number} seconds @param {boolean} shortest @returns {Solution} */
function solution(verdict, moves, nodes, seconds, shortest) {
  const winnable = verdict === Verdict.UNKNOWN ? null : verdict === Verdict.WINNABLE;
  return { verdict, moves, nodes, seconds, shortest, winnable,
    par: shortest && moves !== null ? moves.length : null };
}

/** [passes for the C core (0: unlimited), the pass now counted from 0]: solver.py's _pass_rule
 * (`most`: the core's MAX_PASSES). @param {Game} game @param {number|null|"game"} passes
 * @param {number} most @returns {[number, number]} */
function passRule(game, passes, most) {
  if (passes === GAME_PASSES) return [game.passes, game.passNumber - 1];
  if (passes === null) return [0, 0];
  if (!Number.isInteger(passes) || passes < 1 || passes > most) {
    throw new RangeError(`passes must be from 1 to ${most} or null (unlimited), not ${passes}`);
  }
  if (passes < game.passNumber) {
    throw new RangeError(`the game is in pass ${game.passNumber}, beyond ${passes} passes`);
  }
  return [passes, game.passNumber - 1];
}

// --- solver.py's salvage: the hint when no win is left --------------------------------------

/** Does pyramid slot `low` cover slot `high`, directly or through other cards?
 * @param {number} low @param {number} high @returns {boolean} */
function covers(low, high) {
  const frontier = [...COVERED_BY[high]];
  while (frontier.length) {
    const slot = frontier.pop();
    if (slot === low) return true;
    frontier.push(...COVERED_BY[slot]);
  }
  return false;
}

/** solver.py's removable_cards: the cards left that could still be removed, card by card.
 * @param {Game} game @returns {number} */
export function removableCards(game) {
  /** Each card left, with its pyramid slot (null: in the stock or the waste).
   * @type {[Card, number|null][]} */
  const left = [];
  game.pyramid.forEach((card, slot) => { if (card) left.push([card, slot]); });
  for (const card of [...game.stock, ...game.waste]) left.push([card, null]);
  let count = 0;
  for (const [card, slot] of left) {
    if (card.isKing) {
      count += 1;
      continue;
    }
    for (const [other, otherSlot] of left) {
      if (other === card || !card.pairsWith(other)) continue;
      if (slot !== null && otherSlot !== null && (covers(slot, otherSlot) || covers(otherSlot, slot))) {
        continue;
      }
      count += 1;
      break;
    }
  }
  return count;
}

/** solver.py's salvage_score: [cards removed + removable, cards removed].
 * @param {Game} game @returns {[number, number]} */
export function salvageScore(game) {
  return [game.cardsRemoved + removableCards(game), game.cardsRemoved];
}

/** The legal move with the best salvage score, the first in the engine's order on a tie.
 * @param {Game} game @returns {Move|null} */
export function bestSalvage(game) {
  let best = null;
  let bestScore = [-1, -1];
  for (const move of game.legalMoves()) {
    const copy = game.copy();
    copy.play(move);
    const score = salvageScore(copy);
    if (score[0] > bestScore[0] || (score[0] === bestScore[0] && score[1] > bestScore[1])) {
      best = move;
      bestScore = score;
    }
  }
  return best;
}

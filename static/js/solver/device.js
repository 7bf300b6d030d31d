// @ts-check
/* The page's side of the solver's worker (worker.js): ask(kind, game) answers from a search run
 * off the page's thread. The newest question is the one answered: a question about a newer
 * position makes the one waiting stale (it answers null at once), and the worker, which runs
 * only the newest of the questions that came while it was busy or loading, goes on to it.
 *
 * A search in C cannot be interrupted, so a stale search that is still running
 * STALE_GRACE_MS after it went stale is ended with its worker, and a fresh worker takes the
 * newest question. Most searches take a millisecond or two; the worker's start (its modules
 * and the WebAssembly compiled) takes far longer, so a worker is never ended while it starts:
 * ending it at every quick press would start workers without end and answer nothing.
 *
 * No worker (an old browser, a failed load): every answer is null, and the board asks the
 * server as it always did. */

import { HINT_NODE_LIMIT } from "./solver.js";

/** @typedef {import("./worker.js").Kind} Kind */
/** @typedef {import("./worker.js").Question} Question */

/** How long a stale search may go on before its worker is ended (a search that long is a deep
 * one, and would keep a core from the newer question). */
export const STALE_GRACE_MS = 100;

export class DeviceSolver {
  /** @param {URL|string} [url] the worker's script */
  constructor(url = new URL("./worker.js", import.meta.url)) {
    this.url = url;
    /** @type {Worker|null} */
    this.worker = null;
    /** The worker has loaded the solver (its first message). */
    this.ready = false;
    /** The last question the worker answered or passed over (questions go in order). */
    this.done = 0;
    /** The question whose answer the page waits for (`key`: its position, as JSON).
     * @type {{question: Question, resolve: (answer: any) => void, key: string}|null} */
    this.waiting = null;
    this.count = 0;
    /** The newest question made stale, and when (performance.now()).
     * @type {{id: number, at: number}|null} */
    this.lastStale = null;
    /** @type {number|undefined} */
    this.staleTimer = undefined;
    this.broken = typeof Worker === "undefined";
  }

  /** @private */
  start() {
    if (this.worker || this.broken) return;
    try {
      this.worker = new Worker(this.url, { type: "module" });
    } catch {
      this.broken = true;
      return;
    }
    this.worker.addEventListener("message", ({ data }) => {
      if (data.ready) {
        this.ready = true;
        return;
      }
      this.done = Math.max(this.done, data.id);
      if (!this.waiting || data.id !== this.waiting.question.id) return;
      const { resolve } = this.waiting;
      this.waiting = null;
      resolve(data.error || data.skipped ? null : data.answer);
    });
    this.worker.addEventListener("error", () => {
      this.broken = true;
      this.end();
      this.supersede();
    });
  }

  /** @private End the worker and whatever it was searching. */
  end() {
    clearTimeout(this.staleTimer);
    this.worker?.terminate();
    this.worker = null;
    this.ready = false;
  }

  /** @private The waiting question answers null: a newer one replaces it, or none will come. */
  supersede() {
    if (!this.waiting) return;
    this.waiting.resolve(null);
    this.waiting = null;
  }

  /** The position changed: the question waiting is about the old one. It answers null now; its
   * search, if it is still running STALE_GRACE_MS from now, is ended then (a search of the new
   * position is asked once its press is painted). */
  stale() {
    if (!this.waiting) return;
    this.lastStale = { id: this.waiting.question.id, at: performance.now() };
    this.supersede();
    if (this.staleTimer === undefined) this.checkStale(STALE_GRACE_MS);
  }

  /** @private In `wait` ms: the worker still on a stale question whose grace is over is ended,
   * and the newest question goes to a fresh one; a grace not over yet is waited out (questions
   * go in order, so the newest stale one answered means every older one was). */
  checkStale(/** @type {number} */ wait) {
    this.staleTimer = setTimeout(() => {
      this.staleTimer = undefined;
      const stale = this.lastStale;
      if (!stale || !this.worker || !this.ready || this.done >= stale.id) return;
      const left = stale.at + STALE_GRACE_MS - performance.now();
      if (left > 0) {
        this.checkStale(left);
        return;
      }
      const newest = this.waiting;  // asked meanwhile, queued behind the deep stale search
      this.end();
      if (newest) this.post(newest.question);
    }, wait);
  }

  /** @private Send a question, starting the worker if there is none. */
  post(/** @type {Question} */ question) {
    this.start();
    if (!this.worker) {
      this.supersede();
      return;
    }
    this.worker.postMessage(question);
  }

  /** A search on the device: "hint" ({move, winnable, nodes}), "verdict" ({verdict}) or
   * "analysis" (analysis.js's, moves as dicts); null when there is no worker or a newer
   * question made this one stale. @param {Kind} kind
   * @param {import("../engine/game.js").Game} game @param {number} [nodeLimit]
   * @returns {Promise<any>} */
  ask(kind, game, nodeLimit = HINT_NODE_LIMIT) {
    const position = { cards: game.deal.toText(), goal: game.goal.value, passes: game.passes,
      moves: game.moves.map(String) };
    const key = JSON.stringify(position);
    // A verdict is never worth ending a hint or an analysis of the same position (the hint
    // brings the verdict with it); anything else waiting is about an older position.
    if (this.waiting && kind === "verdict" && this.waiting.question.kind !== "verdict"
        && this.waiting.key === key) return Promise.resolve(null);
    if (this.waiting) this.stale();
    if (this.broken) return Promise.resolve(null);
    const question = { id: ++this.count, kind, position, nodeLimit };
    return new Promise((resolve) => {
      this.waiting = { question, resolve, key };
      this.post(question);
    });
  }
}

/** The page's one solver. */
export const device = new DeviceSolver();

// @ts-check
/* The page's side of the solver's worker (worker.js): ask(kind, game) answers from a search run
 * off the page's thread. One search at a time, the newest: a question about a newer position
 * ends the worker running a stale search and starts a fresh one (the stale question answers
 * null). No worker (an old browser, a failed load): every answer is null, and the board asks
 * the server as it always did. */

import { HINT_NODE_LIMIT } from "./solver.js";

/** @typedef {import("./worker.js").Kind} Kind */

export class DeviceSolver {
  /** @param {URL|string} [url] the worker's script */
  constructor(url = new URL("./worker.js", import.meta.url)) {
    this.url = url;
    /** @type {Worker|null} */
    this.worker = null;
    /** The question being searched (`key`: its position, as JSON).
     * @type {{id: number, resolve: (answer: any) => void, kind: Kind, key: string}|null} */
    this.waiting = null;
    this.count = 0;
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
      if (!this.waiting || data.id !== this.waiting.id) return;
      const { resolve } = this.waiting;
      this.waiting = null;
      resolve(data.error ? null : data.answer);
    });
    this.worker.addEventListener("error", () => {
      this.broken = true;
      this.stop();
    });
  }

  /** @private End the worker and what it was searching (its question answers null). */
  stop() {
    this.worker?.terminate();
    this.worker = null;
    if (this.waiting) {
      this.waiting.resolve(null);
      this.waiting = null;
    }
  }

  /** The position changed: end a search still running about the old one, now (a search of
   * the new one is asked once its press is painted). */
  stale() {
    if (this.waiting) this.stop();
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
    // brings the verdict with it); anything else still running is about an older position.
    if (this.waiting && kind === "verdict" && this.waiting.kind !== "verdict"
        && this.waiting.key === key) return Promise.resolve(null);
    if (this.waiting) this.stop();
    this.start();
    if (!this.worker) return Promise.resolve(null);
    const id = ++this.count;
    return new Promise((resolve) => {
      this.waiting = { id, resolve, kind, key };
      this.worker.postMessage({ id, kind, position, nodeLimit });
    });
  }
}

/** The page's one solver. */
export const device = new DeviceSolver();

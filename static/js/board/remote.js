// @ts-check
/* The board's conversation with the server and with the other tabs: the answers to its
 * batches (it listens to the syncer), the game as another tab left it, the game moved
 * elsewhere, a hint, a pause. The board (controller.js) holds one; it tells the board what
 * changed, and the board draws it. */

import { GameStatus } from "../engine/index.js";
import { csrfToken } from "./dom.js";
import { UNDO } from "./local.js";
import {
  deviceHint, hintSentence, hintedNames, hintsOffered, moveOfNames, showHint,
} from "./ondevice.js";
import * as saved from "./saved.js";
import { hintSteps, isHintStep, syncer } from "./sync.js";
import { languageHeaders, say, sayCount, withSymbols } from "./words.js";

/** @typedef {import("./controller.js").Board} Board */

export class Remote {
  /** @param {Board} board the board it keeps in step with the server */
  constructor(board) {
    this.board = board;
    /** A hint asked for while steps were still on their way: asked once they are confirmed. */
    this.hintWaiting = false;
    /** A hint being asked (the device's search, or the server). */
    this.asking = false;
    /** The address a game begun here moves to once the server has stored it.
     * @type {string|null} */
    this.newUrl = null;
    syncer.listeners.add(this);
    saved.onOtherTab(() => this.fromStorage());
  }

  // --- what the server says, here or in another tab -------------------------------------------
  /** The kept copy of this board's game (under its server id once another tab filed it). */
  kept() {
    const { key } = this.board.record;
    return saved.get(key) || saved.all().find((r) => r.was === key) || null;
  }

  /** Draw the game as kept now, if it changed: the queue or another tab of this browser moved
   * it on. The kept copy is the one truth every tab draws. */
  fromStorage(message = "") {
    const board = this.board;
    const fresh = this.kept();
    if (!fresh) return;
    const moves = afterAll(fresh);
    const wasLocal = !board.record.id;
    board.record = fresh;
    if (wasLocal && fresh.id) this.stored(null);
    const { local } = board;
    local.hints = fresh.server.hints + hintSteps(fresh.steps);
    const moved = moves.join(" ") !== local.moveTexts.join(" ");
    if (moved) {
      const selected = local.selected;
      local.reset(moves, { hints: local.hints,
        undos: fresh.server.undos + fresh.steps.filter((s) => s.text === UNDO).length,
        status: statusOf(fresh) });
      if (selected && local.isFree(selected)) local.selected = selected;
      if (!fresh.steps.length) {
        board.clock.set(fresh.server.elapsed ?? board.clock.seconds(),
          local.playing && moves.length > 0 && !board.paused());
      }
      board.drawer.marks.clear();
    }
    if (moved || message) board.draw(); else board.confirmed();
    if (message) board.drawer.say(message, true);
    if (!local.playing) board.ended();
  }

  /** The syncer's word on a batch of a game (this board's, or another's). */
  answered(record, { agreed, notKept, answer, newUrl, key }) {
    // The game begun for this one is stored: the server has abandoned this one meanwhile.
    if (record.leaves && record.leaves === this.board.record.key && record.id) {
      this.lookAgain();
      return;
    }
    const mine = this.board.record.key;
    if (key !== mine && record.key !== mine && record.was !== mine) return;
    const wasLocal = !this.board.record.id;
    const message = agreed ? "" : notKept ? sayCount("not_kept", notKept)
      : answer.message ? withSymbols(answer.message) : say("disagreed");
    if (wasLocal && record.id && newUrl) this.newUrl = newUrl;
    this.fromStorage(message);
    if (!record.steps.length) {
      if (this.hintWaiting) this.hint(true);
      if (answer.status !== GameStatus.PLAYING.value) this.board.ended();
    }
  }

  /** The game begun here is stored now: its address is its own, and so are its forms (the
   * board's fragment from the server, as a reload would draw it).
   * @param {string|null} newUrl */
  async stored(newUrl) {
    const { record, drawer } = this.board;
    drawer.root.dataset.game = record.id;
    drawer.root.dataset.play = record.urls.play;
    const page = newUrl || this.newUrl || record.urls.board;
    if (page) window.history.replaceState(window.history.state, "", page);
    let html;
    try {
      const response = await fetch(record.urls.board, { credentials: "same-origin",
        headers: { "HX-Request": "true", ...languageHeaders() } });
      if (!response.ok) return;
      html = await response.text();
    } catch {
      return;
    }
    await drawer.motion.settled();  // never redrawn under cards in flight (a busy CPU's frames)
    const fresh = document.createElement("template");
    fresh.innerHTML = html;
    const board = fresh.content.querySelector("#board");
    if (!board || fresh.content.querySelector("[data-banner]")) return;
    window.Idiomorph?.morph(drawer.root, board, { morphStyle: "outerHTML" });
    drawer.root = /** @type {HTMLElement} */ (document.getElementById("board"));
    this.board.draw();
  }

  /** The network is gone, or back. @param {boolean} away */
  offline(away) {
    this.board.drawer.offline(away);
  }

  synced() {}

  /** The server asks a question of the player (a game to leave): its page.
   * @param {any} record @param {string} url */
  redirect(record, url) {
    if (record.key === this.board.record.key) window.location.assign(url);
  }

  /** The server refused a batch (its session expired, or an error).
   * @param {any} record @param {number} status */
  failed(record, status) {
    if (record?.key !== this.board.record.key) return;
    this.board.drawer.say(status === 403 ? say("expired") : say("failed", { status }), true);
  }

  // --- a hint: the device's solver first, else the server ------------------------------------
  /** Ask a hint: one at a time (a second press while the first is answered would end the
   * device's search of it and pay for two hints, one of them the server's).
   * @param {boolean} [serverOnly] the device has answered "not sure" already */
  async hint(serverOnly = false) {
    if (this.asking) return;
    this.asking = true;
    try {
      await this.askHint(serverOnly);
    } finally {
      this.asking = false;
    }
  }

  /** @private @param {boolean} serverOnly */
  async askHint(serverOnly) {
    const board = this.board;
    if (!board.local.playing || !hintsOffered(board)) return;
    const found = serverOnly ? null : await deviceHint(board);
    if (!board.local.playing) return;
    const away = syncer.offline || !navigator.onLine;
    const { record } = board;
    // Where the server answers a hint: the game's, or (not stored yet) its deal page's. A game
    // begun on this device has none until its first batch stores it: a try again (the server
    // would hint at the deal's start), or a game that leaves another one (a hint can't say so).
    const url = record.id ? record.urls?.hint
      : record.urls?.hint || (record.start?.abandon ? null : record.start?.hint);
    const unasked = !record.steps.length && !url;  // and no batch waits that would store it
    // The same search as the server's, so its answer is the server's; past its node budget it
    // is "not sure", and the server is asked when it can be (its budget is the same, but it may
    // have the position solved already); when it can't, the device's answer is the hint.
    if (found && (found.winnable !== null || away || unasked)) {
      this.deviceHinted(found);
      return;
    }
    if (away || unasked) {  // (unasked: the device has no solver to answer either)
      board.drawer.say(say("needs_network_hint"));
      return;
    }
    if (record.steps.length) {  // the server hints at the position it holds: save them first
      this.hintWaiting = true;
      board.drawer.say(say("hint_waits"));
      syncer.kick(true);
      return;
    }
    this.hintWaiting = false;
    let answer;
    let refused = null;
    try {
      const response = await fetch(url, { method: "POST", credentials: "same-origin",
        headers: { Accept: "application/json", "X-CSRF-Token": csrfToken(), ...languageHeaders() } });
      if (response.status === 429) {
        // Over the player's budget (app/web/core/budget.py): the server's sentence, in the page's
        // language; a proxy's own 429 has none. The board plays on meanwhile.
        refused = (await response.json().catch(() => null))?.detail
          || say("failed", { status: response.status });
      } else if (!response.ok) {
        throw new Error(String(response.status));
      } else {
        answer = await response.json();
      }
    } catch {
      board.drawer.say(say("needs_network_hint"));
      return;
    }
    if (refused !== null) {
      board.drawer.say(refused, true);
      return;
    }
    if (!board.record.id && answer.id) {
      const fresh = saved.get(board.record.key) || board.record;
      saved.rename(fresh, answer.id);
      board.record = saved.update(fresh, (record) => {
        record.urls = answer.urls || record.urls;
        record.server.version = answer.version;
      });
      this.stored(null);
    }
    board.local.hints = answer.hints + hintSteps(board.record.steps);
    board.record.server.hints = answer.hints;
    board.hinted = answer.refused ? null : answer.hinted;
    showHint(board, answer.refused ? null : moveOfNames(answer.hinted), "server");
    board.marked(answer.hinted);
    board.drawer.say(withSymbols(answer.message || ""), answer.refused);
  }

  /** A hint the device's solver gave: shown and marked as the server's would be, and kept as a
   * step `hint:MOVE` of the game's batch, so that the server counts it as its own.
   * @param {{move: any, winnable: boolean|null, until?: number|null}} found */
  deviceHinted({ move, winnable, until }) {
    const board = this.board;
    const offline = syncer.offline || !navigator.onLine;
    board.local.hints += 1;
    board.record = saved.update(board.record, (record) => {
      if (offline) record.timed = false;
      record.steps.push({ text: `hint:${move.toText()}`, offline });
    });
    board.hinted = hintedNames(move);
    showHint(board, move, "device");
    board.marked(board.hinted);
    board.drawer.say(hintSentence(move, winnable, until));
    syncer.kick();
  }

  /** Tell the server the game's clock stops (`pausing`) or starts again; no answer awaited.
   * @param {boolean} pausing */
  pause(pausing) {
    const { record } = this.board;
    const url = record.id && record.urls[pausing ? "pause" : "resume"];
    if (url && !syncer.offline) {
      fetch(url, { method: "POST", keepalive: true, credentials: "same-origin",
        headers: { "X-CSRF-Token": csrfToken() } }).catch(() => {});
    }
  }

  // --- the game moved elsewhere ----------------------------------------------------------------
  /** Ask the server where the game stands (a page shown again, a tab back in view). */
  async lookAgain() {
    const { record } = this.board;
    const url = record.id && record.urls.board;
    if (!url || record.steps.length || syncer.offline) return;
    let response;
    try {
      response = await fetch(url, { credentials: "same-origin", headers: {
        Accept: "application/json", "If-None-Match": `"${record.server.version}"`,
        ...languageHeaders() } });
    } catch {
      return;
    }
    if (response.status !== 200) return;
    const answer = await response.json();
    const now = this.board.record;
    if (now.steps.length || answer.version <= now.server.version) return;
    const mine = answer.last_input && answer.last_input.split(":")[0] === saved.tab;
    this.adopt(answer, mine ? "" : say("moved_elsewhere"));
  }

  /** The game as the server holds it, drawn in place of this one's.
   * @param {any} answer the board's JSON @param {string} message */
  adopt(answer, message) {
    const board = this.board;
    board.record = saved.update(board.record, (record) => {
      record.server = { version: answer.version, moves: answer.moves, hints: answer.hints,
        undos: answer.undos, status: answer.status, last_input: answer.last_input,
        score: answer.score, elapsed: answer.elapsed, timed: answer.timed };
      record.elapsed = answer.elapsed;
    });
    board.local.reset(answer.moves, answer);
    board.clock.set(answer.elapsed, answer.running && answer.moves.length > 0);
    board.drawer.marks.clear();
    board.draw();
    if (message) board.drawer.say(message);
    if (!board.local.playing) board.ended();
  }
}

/** A kept game's status: the server's, but a game its player agreed to leave for another
 * (begun while offline, not stored yet) is abandoned already: it takes no more moves. */
export function statusOf(record) {
  return record.left && afterAll(record).length ? "abandoned" : record.server.status;
}

/** The moves a kept game shows: the server's, and the steps played since. */
export function afterAll(record) {
  const moves = [...record.server.moves];
  for (const step of record.steps) {
    if (step.text === UNDO) moves.pop(); else if (!isHintStep(step.text)) moves.push(step.text);
  }
  return moves;
}

/* The board's conversation with the server and with the other tabs: the answers to its
 * batches, the game as another tab left it, the game moved elsewhere, a hint, a pause. Mixed
 * into the Board (controller.js), so each is a method of the board. */

import { roving } from "./input.js";
import { UNDO } from "./local.js";
import {
  deviceHint, hintSentence, hintedNames, hintsOffered, moveOfNames, showHint,
} from "./ondevice.js";
import * as saved from "./saved.js";
import { hintSteps, isHintStep, syncer } from "./sync.js";
import { languageHeaders, say, sayCount, withSymbols } from "./words.js";

export class Remote {
  // --- what the server says, here or in another tab -------------------------------------------
  /** The kept copy of this board's game (under its server id once another tab filed it). */
  kept() {
    return saved.get(this.record.key) || saved.all().find((r) => r.was === this.record.key) || null;
  }

  /** Draw the game as kept now, if it changed: the queue or another tab of this browser moved
   * it on. The kept copy is the one truth every tab draws. */
  fromStorage(message = "") {
    const fresh = this.kept();
    if (!fresh) return;
    const moves = afterAll(fresh);
    const wasLocal = !this.record.id;
    this.record = fresh;
    if (wasLocal && fresh.id) this.stored(null);
    this.local.hints = fresh.server.hints + hintSteps(fresh.steps);
    const moved = moves.join(" ") !== this.local.moveTexts.join(" ");
    if (moved) {
      const selected = this.local.selected;
      this.local.reset(moves, { hints: this.local.hints,
        undos: fresh.server.undos + fresh.steps.filter((s) => s.text === UNDO).length,
        status: fresh.server.status });
      if (selected && this.local.isFree(selected)) this.local.selected = selected;
      if (!fresh.steps.length) {
        this.clock.set(fresh.server.elapsed ?? this.clock.seconds(),
          this.local.playing && moves.length > 0 && !this.paused());
      }
      this.marks.clear();
    }
    if (moved || message) this.draw(); else this.confirmed();
    if (message) this.say(message, true);
    if (!this.local.playing) this.ended();
  }

  answered(record, { agreed, notKept, answer, newUrl, key }) {
    if (key !== this.record.key && record.key !== this.record.key && record.was !== this.record.key) return;
    const wasLocal = !this.record.id;
    const message = agreed ? "" : notKept ? sayCount("not_kept", notKept)
      : answer.message ? withSymbols(answer.message) : say("disagreed");
    if (wasLocal && record.id && newUrl) this.newUrl = newUrl;
    this.fromStorage(message);
    if (!record.steps.length) {
      if (this.hintWaiting) this.hint(true);
      if (answer.status !== "playing") this.ended();
    }
  }

  /** The game begun here is stored now: its address is its own, and so are its forms (the
   * board's fragment from the server, as a reload would draw it). */
  async stored(newUrl) {
    this.root.dataset.game = this.record.id;
    this.root.dataset.play = this.record.urls.play;
    const page = newUrl || this.newUrl || this.record.urls.board;
    if (page) window.history.replaceState(window.history.state, "", page);
    let html;
    try {
      const response = await fetch(this.record.urls.board, { credentials: "same-origin",
        headers: { "HX-Request": "true", ...languageHeaders() } });
      if (!response.ok) return;
      html = await response.text();
    } catch {
      return;
    }
    const fresh = document.createElement("template");
    fresh.innerHTML = html;
    const board = fresh.content.querySelector("#board");
    if (!board || fresh.content.querySelector("[data-banner]")) return;
    window.Idiomorph?.morph(this.root, board, { morphStyle: "outerHTML" });
    this.root = document.getElementById("board");
    this.draw();
  }

  /** The version and last batch the server holds, on the board as a page from it has them. */
  versioned() {
    const { server } = this.record;
    this.root.dataset.version = String(server.version);
    if (server.last_input) this.root.dataset.lastInput = server.last_input;
    for (const input of this.root.querySelectorAll('input[name="version"]')) {
      input.value = String(server.version);
    }
  }

  offline(away) {
    const banner = document.querySelector("[data-offline]");
    if (banner) banner.hidden = !away;
    document.documentElement.toggleAttribute("data-offline-now", away);
  }

  synced() {}

  redirect(record, url) {
    if (record.key === this.record.key) window.location.assign(url);
  }

  failed(record, status) {
    if (record?.key !== this.record.key) return;
    this.say(status === 403 ? say("expired") : say("failed", { status }), true);
  }

  // --- a hint: the device's solver first, else the server ------------------------------------
  async hint(serverOnly = false) {
    if (!this.local.playing || !hintsOffered(this)) return;
    const found = serverOnly ? null : await deviceHint(this);
    if (!this.local.playing) return;
    const away = syncer.offline || !navigator.onLine;
    // The same search as the server's, so its answer is the server's; past its node budget it
    // is "not sure", and the server is asked when it can be (its budget is the same, but it may
    // have the position solved already).
    if (found && (found.winnable !== null || away)) {
      this.deviceHinted(found);
      return;
    }
    if (away) {
      this.say(say("needs_network_hint"));
      return;
    }
    if (this.record.steps.length || !this.record.id && !this.record.urls?.hint) {
      this.hintWaiting = true;
      this.say(say("hint_waits"));
      syncer.kick(true);
      return;
    }
    this.hintWaiting = false;
    const url = this.record.id ? this.record.urls.hint : this.record.start.hint;
    let answer;
    let refused = null;
    try {
      const response = await fetch(url, { method: "POST", credentials: "same-origin",
        headers: { Accept: "application/json", "X-CSRF-Token": csrf(), ...languageHeaders() } });
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
      this.say(say("needs_network_hint"));
      return;
    }
    if (refused !== null) {
      this.say(refused, true);
      return;
    }
    if (!this.record.id && answer.id) {
      const fresh = saved.get(this.record.key) || this.record;
      saved.rename(fresh, answer.id);
      this.record = saved.update(fresh, (record) => {
        record.urls = answer.urls || record.urls;
        record.server.version = answer.version;
      });
      this.stored(null);
    }
    this.local.hints = answer.hints + hintSteps(this.record.steps);
    this.record.server.hints = answer.hints;
    this.hinted = answer.refused ? null : answer.hinted;
    showHint(this, answer.refused ? null : moveOfNames(answer.hinted), "server");
    this.marked(answer.hinted);
    this.say(withSymbols(answer.message || ""), answer.refused);
  }

  /** A hint the device's solver gave: shown and marked as the server's would be, and kept as a
   * step `hint:MOVE` of the game's batch, so that the server counts it as its own. */
  deviceHinted({ move, winnable, until }) {
    const offline = syncer.offline || !navigator.onLine;
    this.local.hints += 1;
    this.record = saved.update(this.record, (record) => {
      if (offline) record.timed = false;
      record.steps.push({ text: `hint:${move.toText()}`, offline });
    });
    this.hinted = hintedNames(move);
    showHint(this, move, "device");
    this.marked(this.hinted);
    this.say(hintSentence(move, winnable, until));
    syncer.kick();
  }

  /** Mark the cards (or the draw or recycle control) a hint points at. */
  marked(names) {
    for (const name of names) {
      if (name === "draw" || name === "recycle") this.marks.hintedAction = name;
      else this.marks.hinted.add(name);
    }
    this.draw();
  }

  togglePause() {
    const cover = this.root.querySelector("[data-paused-cover]");
    if (!cover) return;
    const pausing = !this.paused();
    if (pausing && !this.clock.running) return;
    const url = this.record.id && this.record.urls[pausing ? "pause" : "resume"];
    if (url && !syncer.offline) {
      fetch(url, { method: "POST", keepalive: true, credentials: "same-origin",
        headers: { "X-CSRF-Token": csrf() } }).catch(() => {});
    }
    this.root.toggleAttribute("data-paused", pausing);
    cover.hidden = !pausing;
    if (pausing) {
      this.clock.stop();
      cover.querySelector('[data-action="resume"]')?.focus();
    } else {
      this.clock.start();
      roving(this.root);
    }
    this.record = saved.update(this.record, (record) => {
      record.paused = pausing;
      record.elapsed = this.clock.seconds();
    });
  }

  /** The game has ended: the server's banner once it has every step, else one drawn here. */
  ended() {
    this.clock.stop();
    window.dispatchEvent(new CustomEvent("pyramid:ended", { detail: { board: this } }));
  }

  // --- the game moved elsewhere ----------------------------------------------------------------
  /** Ask the server where the game stands (a page shown again, a tab back in view). */
  async lookAgain() {
    const url = this.record.id && this.record.urls.board;
    if (!url || this.record.steps.length || syncer.offline) return;
    let response;
    try {
      response = await fetch(url, { credentials: "same-origin", headers: {
        Accept: "application/json", "If-None-Match": `"${this.record.server.version}"`,
        ...languageHeaders() } });
    } catch {
      return;
    }
    if (response.status !== 200) return;
    const answer = await response.json();
    if (this.record.steps.length || answer.version <= this.record.server.version) return;
    const mine = answer.last_input && answer.last_input.split(":")[0] === saved.tab;
    this.adopt(answer, mine ? "" : say("moved_elsewhere"));
  }

  adopt(answer, message) {
    this.record = saved.update(this.record, (record) => {
      record.server = { version: answer.version, moves: answer.moves, hints: answer.hints,
        undos: answer.undos, status: answer.status, last_input: answer.last_input,
        score: answer.score, elapsed: answer.elapsed, timed: answer.timed };
      record.elapsed = answer.elapsed;
    });
    this.local.reset(answer.moves, answer);
    this.clock.set(answer.elapsed, answer.running && answer.moves.length > 0);
    this.marks.clear();
    this.draw();
    if (message) this.say(message);
    if (!this.local.playing) this.ended();
  }
}

/** The moves a kept game shows: the server's, and the steps played since. */
export function afterAll(record) {
  const moves = [...record.server.moves];
  for (const step of record.steps) {
    if (step.text === UNDO) moves.pop(); else if (!isHintStep(step.text)) moves.push(step.text);
  }
  return moves;
}

export function csrf() {
  return document.querySelector('meta[name="csrf-token"]')?.getAttribute("content") || "";
}

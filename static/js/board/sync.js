// @ts-check
/* Sending the steps played on this device to the server, which replays each with its own
 * engine and is the only judge of what is recorded.
 *
 *  - One batch at a time per game, oldest game first: the steps played since the last answer
 *    (at most BATCH), with the version they were played on and an id (this tab's id and a
 *    count). A batch sent again after a lost answer, a reload or an outage carries the same id
 *    and version, and the server plays it once.
 *  - A game begun here has no server id yet: its first batch goes to the page it was begun
 *    from (a deal, the deal of the day), which stores it; it says so if the player agreed here
 *    to leave the game in progress (`abandon`), and whether its moves were made without
 *    network (`offline`, with this page's clock: the server did not watch it).
 *  - No network, or a server that answers 5xx: the batch waits and is sent again, sooner when
 *    the browser says it is back online; play goes on meanwhile.
 *  - The server's answer is the game as it holds it. If it is not the game as played here
 *    (another tab or device moved first), the server's stands, and the steps not kept are
 *    counted for the player.
 * Every tab shares one queue (Web Locks): two tabs never send the same game's batch at once. */

import { csrfToken } from "./dom.js";
import * as saved from "./saved.js";
import { languageHeaders } from "./words.js";

// The steps a batch may hold (app/web/services/boardinput.py, BATCH_LIMIT).
export const BATCH = 100;
const RETRY_FIRST = 500, RETRY_MOST = 8000;   // ms between tries while the server is away

let batchCount = (() => {
  try { return Number(window.sessionStorage.getItem("pyramid-batches") || "0"); } catch { return 0; }
})();
function nextInput() {
  batchCount += 1;
  try { window.sessionStorage.setItem("pyramid-batches", String(batchCount)); } catch { /* */ }
  return `${saved.tab}:${batchCount}`;
}

/** A step that is a hint the device's solver gave (`hint` or `hint:MOVE`): no move. */
export function isHintStep(text) {
  return text === "hint" || text.startsWith("hint:");
}

/** The hints among `steps` (saved.js's {text} steps). */
export function hintSteps(steps) {
  return steps.filter((step) => isHintStep(step.text)).length;
}

/** The move list after `steps` (texts; "undo" takes the last one back; a hint moves nothing). */
export function afterSteps(moves, steps) {
  const result = [...moves];
  for (const step of steps) {
    if (step === "undo") result.pop(); else if (!isHintStep(step)) result.push(step);
  }
  return result;
}

function sameList(a, b) {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

function withLock(work) {
  if (navigator.locks) return navigator.locks.request("pyramid-sync", work);
  return work();
}

class Listeners {
  constructor() { this.all = []; }
  add(listener) { this.all.push(listener); }
  tell(event, ...args) { for (const listener of this.all) listener[event]?.(...args); }
}

export class Syncer {
  /** Listeners hear about every game the server answered for (`answered(record, what)`), the
   * network (`offline(boolean)`), the end of a sync (`synced(count of games begun offline now
   * saved)`), a question the server asks (`redirect(record, url)`) and a refusal (`failed`). */
  constructor() {
    this.listeners = new Listeners();
    this.offline = false;
    this.running = false;
    this.retryDelay = RETRY_FIRST;
    this.retryTimer = null;
    this.savedOffline = 0;
    window.addEventListener("online", () => this.kick(true));
    saved.onOtherTab(() => this.kick());
  }

  /** Send what waits, now (`soon`: the network is back, don't wait for the next try). */
  kick(soon = false) {
    if (soon && this.retryTimer) {
      window.clearTimeout(this.retryTimer);
      this.retryTimer = null;
    }
    if (this.running || this.retryTimer) return;
    this.running = true;
    this.run().finally(() => { this.running = false; });
  }

  async run() {
    for (;;) {
      const record = saved.all().find((r) => saved.isPending(r) && !r.blocked && r.steps.length);
      if (!record) break;
      const outcome = await withLock(() => this.sendNext(record.key));
      if (outcome === "away") {
        this.retryTimer = window.setTimeout(() => { this.retryTimer = null; this.kick(); },
          this.retryDelay);
        this.retryDelay = Math.min(this.retryDelay * 2, RETRY_MOST);
        return;
      }
      if (outcome === "stop") return;
    }
    if (this.savedOffline) {
      this.listeners.tell("synced", this.savedOffline);
      this.savedOffline = 0;
    }
  }

  /** Send the next batch of the game filed under `key` and take the answer in. */
  async sendNext(key) {
    const record = saved.get(key);
    if (!record || !record.steps.length) return "done";
    if (!record.inflight) {
      const count = Math.min(record.steps.length, BATCH);
      record.inflight = { input: nextInput(), count, version: record.server.version };
      saved.put(record);
    }
    const { inflight } = record;
    const steps = record.steps.slice(0, inflight.count);
    const fields = new URLSearchParams({
      moves: steps.map((s) => s.text).join(" "), version: String(inflight.version),
      input: inflight.input,
    });
    if (steps.some((s) => s.offline) || !record.timed) {
      fields.set("offline", "1");
      fields.set("elapsed", String(Math.max(0, Math.round(record.elapsed || 0))));
    }
    if (!record.id && record.start?.abandon) fields.set("abandon", "1");
    const url = record.id ? record.urls.play : record.start.url;
    let response;
    try {
      response = await fetch(url, {
        method: "POST", body: fields, credentials: "same-origin",
        headers: { Accept: "application/json", "X-CSRF-Token": csrfToken(), ...languageHeaders() },
      });
    } catch {
      return this.away();
    }
    if (response.status >= 500 || response.status === 408 || response.status === 429) {
      return this.away();
    }
    const redirect = response.headers.get("HX-Redirect");
    if (response.status === 204 && redirect) {
      const fresh = saved.get(key);
      fresh.blocked = redirect;
      saved.put(fresh);
      this.listeners.tell("redirect", fresh, redirect);
      return "done";
    }
    // 409: the game moved elsewhere first; 422: the server's engine refused a step. Either
    // way the answer is the game as the server holds it, and it stands.
    if (!(response.ok || response.status === 409 || response.status === 422)) {
      this.listeners.tell("failed", saved.get(key), response.status);
      return "stop";
    }
    let answer;
    try { answer = await response.json(); } catch { return this.away(); }
    if (response.status === 422 && !Array.isArray(answer.moves)) {
      this.listeners.tell("failed", saved.get(key), response.status);
      return "stop";
    }
    this.back();
    this.take(key, answer, response.status, response.headers.get("HX-Replace-Url"));
    return "done";
  }

  /** The server's answer to a batch of the game `key`. */
  take(key, answer, status, newUrl) {
    let record = saved.get(key);
    const begunHere = !record.id;
    if (begunHere && answer.id) {
      saved.rename(record, answer.id);
      record = saved.get(answer.id);
      if (record.offline) this.savedOffline += 1;
    }
    if (answer.urls) record.urls = answer.urls;
    const sent = record.steps.slice(0, record.inflight ? record.inflight.count : 0);
    const expected = afterSteps(record.server.moves, sent.map((s) => s.text));
    const agreed = status === 200 && !answer.refused && sameList(answer.moves, expected);
    const notKept = agreed ? 0 : record.steps.length;
    record.server = {
      version: answer.version, moves: answer.moves, hints: answer.hints, undos: answer.undos,
      status: answer.status, last_input: answer.last_input, score: answer.score,
      elapsed: answer.elapsed, timed: answer.timed,
    };
    record.steps = agreed ? record.steps.slice(sent.length) : [];
    record.inflight = null;
    saved.put(record);
    this.listeners.tell("answered", record, { agreed, notKept, answer, newUrl, key });
  }

  away() {
    if (!this.offline) {
      this.offline = true;
      this.listeners.tell("offline", true);
    }
    return "away";
  }

  back() {
    this.retryDelay = RETRY_FIRST;
    if (this.offline) {
      this.offline = false;
      this.listeners.tell("offline", false);
    }
  }
}

/** The one queue of this page (every page has one: games sync by themselves wherever the
 * player is when the network comes back). */
export const syncer = new Syncer();

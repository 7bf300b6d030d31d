// @ts-check
/* Which game a board page shows, and from where: the server's page data, the moves this device
 * kept, or (with no network) a game begun on this device.
 *
 * A page from the server says where the game stands there. This device may know more (steps
 * played since, not yet confirmed) or less (another tab or device moved meanwhile):
 *  - nothing kept here, or nothing pending: the page's state;
 *  - steps pending on the version the page shows: those steps go on top;
 *  - the batch in flight has landed (the page's last input is its id): the rest go on top;
 *  - the page is older than what this device was told (a page kept by the browser): ours;
 *  - else the game moved elsewhere: the server's stands, and the steps not kept are counted.
 * With no network the service worker gives the page without a game (the shell), and the
 * address says what to show: a game kept here, a deal, the deal of the day, a new game. */

import { Deal, GameStatus } from "../engine/index.js";
import { dealOf } from "./local.js";
import * as saved from "./saved.js";
import { afterSteps } from "./sync.js";

function here() { return window.location.pathname + window.location.search; }

export function dealData(deal) {
  return { number: deal.number === null ? null : String(deal.number),
    pyramid: deal.pyramid.map((card) => card.name), stock: deal.stock.map((card) => card.name) };
}

function serverOf(data) {
  return { version: data.version, moves: data.moves, hints: data.hints, undos: data.undos,
    status: data.status, last_input: data.last_input, score: data.score,
    elapsed: data.elapsed, timed: data.timed };
}

/** A record for the game a page from the server shows. */
function fromData(data) {
  return {
    key: data.id || saved.localKey(), id: data.id, deal: data.deal, goal: data.goal,
    passes: data.passes, daily: data.daily, server: serverOf(data), steps: [], inflight: null,
    urls: data.urls, start: data.id ? null : { url: data.urls.play, hint: data.urls.hint,
      abandon: false },
    elapsed: data.elapsed, paused: data.paused, timed: data.timed !== false, offline: false,
    page: here(), created: Date.now(),
  };
}

/** The record to play on a page from the server, and how many steps kept here were not kept
 * by the server. */
export function fromPage(data) {
  const kept = data.id ? saved.byId(data.id)
    : saved.all().find((r) => !r.id && r.page === here() && r.steps.length && !r.blocked);
  if (!kept) return { record: fromData(data), notKept: 0 };
  if (!data.id) return { record: kept, notKept: 0 };  // begun here, not stored yet: ours
  if (!kept.steps.length) {
    if (data.version >= kept.server.version) return { record: { ...kept, ...refresh(data) }, notKept: 0 };
    return { record: kept, notKept: 0 };
  }
  if (data.version === kept.server.version) return { record: kept, notKept: 0 };
  const flight = kept.inflight;
  if (flight && data.last_input === flight.input) {
    const sent = kept.steps.slice(0, flight.count).map((s) => s.text);
    if (sameList(afterSteps(kept.server.moves, sent), data.moves)) {
      return { record: { ...kept, server: serverOf(data), steps: kept.steps.slice(flight.count),
        inflight: null }, notKept: 0 };
    }
  }
  if (data.version < kept.server.version) return { record: kept, notKept: 0 };
  return { record: { ...kept, ...refresh(data), steps: [], inflight: null },
    notKept: kept.steps.length };
}

function refresh(data) {
  return { server: serverOf(data), urls: data.urls, elapsed: data.elapsed, paused: data.paused,
    timed: data.timed !== false };
}

function sameList(a, b) {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

/** The game in progress on this device (with moves, not ended), other than `key`. */
export function inProgress(key = null) {
  return saved.all().reverse().find((r) => r.key !== key && !r.left
    && (r.server.moves.length || r.steps.length) && localStatus(r) === PLAYING) || null;
}

const PLAYING = GameStatus.PLAYING.value;

/** A kept game's status value: the server's once ended there, else as played here. */
function localStatus(record) {
  if (record.server.status !== PLAYING) return record.server.status;
  return record.ended || PLAYING;
}

/** A new game of `deal` begun on this device, stored by its first batch at `startUrl`. */
export function begun(deal, goal, passes, { startUrl, daily = null, page = here() }) {
  const current = inProgress();
  return {
    key: saved.localKey(), id: null, deal: dealData(deal), goal, passes: Number(passes), daily,
    server: { version: 0, moves: [], hints: 0, undos: 0, status: GameStatus.PLAYING.value,
      last_input: null },
    steps: [], inflight: null, urls: {},
    start: { url: startUrl, abandon: Boolean(current) }, leaves: current ? current.key : null,
    elapsed: 0, paused: false, timed: !!navigator.onLine, offline: !navigator.onLine,
    page, created: Date.now(),
  };
}

/** What stands for `placeholder` in the route `pattern` (as the page writes it: /deal/NUMBER)
 * at the start of `path`, when it has the `shape` (a RegExp); else undefined. */
function placed(path, pattern, placeholder, shape) {
  if (!pattern) return undefined;
  const literal = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const [before, after] = pattern.split(placeholder).map(literal);
  return path.match(new RegExp(`^${before}(${shape.source})${after}`))?.[1];
}

/** With no network: what the address asks for, from what this device has. `shell` is the
 * shell page's data (the routes, the largest random deal number). */
export function fromAddress(shell) {
  const path = window.location.pathname;
  const query = new URLSearchParams(window.location.search);
  const goal = query.get("goal") || "standard";
  const passes = query.get("passes") || "3";
  const game = placed(path, shell.routes.board, "GAME", /[A-Za-z0-9_-]+/);
  if (game) {
    const kept = saved.byId(game);
    return kept ? { record: kept } : { missing: "not_on_device" };
  }
  let number = placed(path, shell.routes.deal_link, "NUMBER", /\d+/);
  if (!number && query.get("new")) {
    number = String(1 + Math.floor(Math.random() * shell.random_deal_max));
    const winnable = query.get("winnable_only") && (saved.extra("pack")?.winnable || {})[`${goal}-${passes}`];
    if (winnable?.length) number = String(winnable[Math.floor(Math.random() * winnable.length)]);
    window.history.replaceState(null, "", shell.routes.deal_link.replace("NUMBER", number)
      + `?goal=${encodeURIComponent(goal)}&passes=${encodeURIComponent(passes)}`);
  }
  if (number) {
    const kept = saved.all().find((r) => r.page === here() && !r.id && localStatus(r) === PLAYING);
    if (kept) return { record: kept };
    const startUrl = shell.routes.deal_play.replace("NUMBER", number)
      + `?goal=${encodeURIComponent(goal)}&passes=${encodeURIComponent(passes)}`;
    return { record: begun(Deal.fromNumber(BigInt(number)), goal, passes, { startUrl }) };
  }
  if (shell.routes.daily && path.startsWith(shell.routes.daily)) {
    const day = new Date().toISOString().slice(0, 10);
    const deal = (saved.extra("pack")?.days || []).find((d) => d.date === day)?.deals?.[`${goal}-${passes}`];
    if (!deal) return { missing: "needs_network" };
    const kept = saved.all().find((r) => r.page === here() && r.daily === day && localStatus(r) === PLAYING);
    if (kept) return { record: kept };
    const drawn = saved.extra("pack")?.drawn;  // the day the server drew the pack, signed
    const startUrl = `${shell.routes.daily_play}?goal=${encodeURIComponent(goal)}`
      + `&passes=${encodeURIComponent(passes)}&day=${day}`
      + (drawn ? `&drawn=${encodeURIComponent(drawn)}` : "");
    return { record: begun(Deal.fromNumber(BigInt(deal)), goal, passes, { startUrl, daily: day }) };
  }
  return { missing: "needs_network" };
}

/** The same deal again, begun on this device at once (Restart, or "Play this deal again"):
 * stored by its first batch at the game's `again` address, leaving the game it restarts. */
export function again(record) {
  // A game the server has seen has its urls; one begun on this device, not yet stored, the
  // start it was begun with.
  const { again_hint: hint, again_page: page } = record.urls || {};
  const startUrl = record.urls?.again || record.start?.url;
  const fresh = begun(dealOf(record.deal), record.goal, record.passes,
    { startUrl, daily: record.daily, page });
  fresh.start = { url: startUrl, hint, abandon: true };
  fresh.urls = { again: startUrl, again_hint: hint, again_page: page };
  fresh.leaves = record.key;
  return fresh;
}

/** Where a try again of `record` begins (its first batch stores it): the deal page's start,
 * as for the same deal again; null when there is none (a custom deal, a deal of the day). */
export function retryStart(record) {
  if (record.daily) return null;
  return record.urls?.again || record.start?.url || null;
}

/** "Try again from move `before`" of a lost game, begun on this device at once (no network
 * needed): a game not counted, at the position before that move, as the server's retry
 * (app/web/routes/pages.py) makes it. Its first batch names the moves it starts from
 * (`retry`), and the server stores it as its own retry; meanwhile those moves stand as the
 * server's. Null when the game has no deal page to begin at.
 * @param {any} record @param {string[]} moves the lost game's, in their text form
 * @param {number} before */
export function retried(record, moves, before) {
  const start = retryStart(record);
  if (!start) return null;
  const from = moves.slice(0, Math.max(0, before - 1));
  const url = new URL(start, window.location.href);
  url.searchParams.delete("challenge");
  url.searchParams.set("retry", from.join(" "));
  const startUrl = url.pathname + url.search;
  const fresh = begun(dealOf(record.deal), record.goal, record.passes,
    { startUrl, page: record.urls?.again_page || record.page });
  fresh.server.moves = from;
  fresh.start.hint = null;  // the server's hint would start a game of the deal's start
  fresh.urls = record.urls?.again ? { again: record.urls.again, again_hint: record.urls.again_hint,
    again_page: record.urls.again_page } : {};
  return fresh;
}

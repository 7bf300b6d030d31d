// @ts-check
/* Games kept on this device (localStorage), so that a reload, a closed tab or a lost network
 * loses no move: each game's last state the server confirmed, and the steps played here since.
 *
 * A record:
 *   key       the server's game id once it has one, else "local-..." (a game begun offline)
 *   id        the server's game id, or null
 *   deal, goal, passes, daily   as the page's game data has them (app/web/views/boarddata.py)
 *   server    {version, moves, hints, undos, status, last_input}: the last state confirmed
 *   steps     [{text, offline}]: played here, not confirmed yet, in order
 *   inflight  null, or {input, count, version}: the first `count` steps, sent as batch `input`
 *             on `version`, answer not seen yet (sent again as they are, the server plays them
 *             once)
 *   urls      where the game's inputs go; start: {url, abandon} for a game not stored yet
 *   elapsed   the clock's seconds, as this page counted them; offline: begun without network
 *   tab       the tab that last changed it; updated: when
 *
 * Every tab of the site shares the records; the batches' versions keep two tabs from playing
 * over each other (the server refuses the later one, and its steps are said not to be kept). */

/** The localStorage key the records are kept under (every tab reads and writes it). */
export const KEY = "pyramid.games.v1";
const KEPT = 30;  // records kept; confirmed, ended ones go first

// The records as last read or written here, and their text: read again only when the text in
// storage is another (another tab wrote it), which costs a string comparison, not a parse.
let cached = null;
let cachedText = null;

function read() {
  let text = null;
  try { text = window.localStorage.getItem(KEY); } catch { /* private mode */ }
  if (cached && text === cachedText) return cached;
  try {
    const data = JSON.parse(text || "{}");
    cached = data && typeof data.games === "object" ? data : { games: {} };
  } catch {
    cached = { games: {} };
  }
  cachedText = text;
  return cached;
}

function write(data) {
  const text = JSON.stringify(data);
  cached = data;
  cachedText = text;
  try {
    window.localStorage.setItem(KEY, text);
    return true;
  } catch {
    return false;  // private mode or full: play goes on, a reload may then lose the last moves
  }
}

/** This tab's id: kept across reloads of the tab, new in another tab. */
/** Call `listener` whenever another tab changes the kept records.
 * @param {() => void} listener */
export function onOtherTab(listener) {
  window.addEventListener("storage", (event) => {
    if (event.key === KEY) listener();
  });
}

export const tab = (() => {
  try {
    const known = window.sessionStorage.getItem("pyramid-tab");
    if (known) return known;
    const fresh = Array.from(window.crypto.getRandomValues(new Uint8Array(8)),
      (b) => b.toString(16).padStart(2, "0")).join("");
    window.sessionStorage.setItem("pyramid-tab", fresh);
    return fresh;
  } catch {
    return "t" + Math.random().toString(16).slice(2, 18);
  }
})();

export function all() {
  return Object.values(read().games).map((record) => structuredClone(record))
    .sort((a, b) => a.created - b.created);
}

/** A copy of the record filed under `key` (changes reach storage only through put). */
export function get(key) {
  const found = read().games[key];
  return found ? structuredClone(found) : null;
}

export function byId(id) {
  return all().find((record) => record.id === id) || null;
}

export function put(record) {
  const data = read();
  record.updated = Date.now();
  record.tab = tab;
  data.games[record.key] = structuredClone(record);
  prune(data);
  return write(data);
}

/** Change the kept copy of `record` (or `record` itself, not kept yet) and keep it: every
 * change goes through the copy in storage, which the queue (sync.js) changes too.
 * @returns {object} the record as kept now */
export function update(record, change) {
  const fresh = get(record.key) || record;
  change(fresh);
  put(fresh);
  return fresh;
}

/** A game begun here now has a server id: file it under that id. */
export function rename(record, id) {
  const data = read();
  delete data.games[record.key];
  record.was = record.key;
  record.id = id;
  record.key = id;
  data.games[id] = record;
  write(data);
}

export function remove(key) {
  const data = read();
  delete data.games[key];
  write(data);
}

export function isPending(record) {
  return record.steps.length > 0 || !record.id;
}

function prune(data) {
  const records = Object.values(data.games);
  if (records.length <= KEPT) return;
  const settled = records.filter((r) => !isPending(r)).sort((a, b) => a.updated - b.updated);
  for (const record of settled.slice(0, records.length - KEPT)) delete data.games[record.key];
}

/** A fresh key for a game begun on this device. */
export function localKey() {
  return "local-" + Array.from(window.crypto.getRandomValues(new Uint8Array(9)),
    (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Anything else this device keeps for offline play (the deals of the next days). */
export function extra(name, value) {
  const key = `pyramid.${name}.v1`;
  try {
    if (value === undefined) return JSON.parse(window.localStorage.getItem(key) || "null");
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    return null;
  }
  return value;
}

/* Pyramid's service worker, release {{ release }} (written by app/web/routes/offline.py).
 *
 * - Install: keep this release's shell (scripts, styles, icons, the offline board, the home
 *   page) in a cache of its own. No skipWaiting: a new release's worker waits until no page
 *   uses this one, so nobody's game changes scripts halfway; it takes over at the next visit.
 * - Activate: drop older releases' caches; take the pages already open on a first install
 *   (a page still loading then asks to be taken once it runs: static/js/site.js).
 * - Files of a release (/assets/<release>/...) never change: from the cache, else the network.
 * - Pages: from the network; with none, the page kept for that address, else the offline
 *   board (/offline), whose script shows a game kept on the device, or begins one. A page is
 *   kept as drawn for nobody in particular (KEPT_HEADER); personal pages are never kept.
 * - "New game" posted with no network: the offline board begins a random deal.
 * - Everything else (moves, hints, the API) goes to the network as it is: the pages' scripts
 *   keep the moves and send them again. */
"use strict";

const RELEASE = {{ release|tojson }};
const CACHE = `pyramid-${RELEASE}`;
const SHELL = {{ shell|tojson }};
const NEW_GAME = {{ new_game|tojson }};
const PACK = {{ pack|tojson }};
const DEAL_LINK = {{ deal_link|tojson }};  // with NUMBER for the deal's number
const PRECACHE = {{ precache|tojson }};
const KEPT_PAGES = {{ kept_pages|tojson }};
const BOARDS = {{ boards|tojson }}.map((pattern) => new RegExp(pattern));

// A page kept for offline use is fetched for the cache with KEPT_HEADER: the server draws it
// without what belongs to one player (the home page's game in progress), so whoever uses the
// browser next, its cookies cleared or signed out, finds nothing of the previous player's.
// Personal pages (the statistics, the calendar) are never kept at all.
const KEPT_HEADER = { "X-Pyramid-Kept": "1" };

async function keep(cache, path) {
  const response = await fetch(path, { headers: KEPT_HEADER, credentials: "same-origin" });
  if (response.ok) await cache.put(path, response);
}

async function keepAll(cache, paths) {
  const pages = paths.filter((path) => !path.startsWith("/assets/"));
  await cache.addAll(paths.filter((path) => path.startsWith("/assets/")));
  await Promise.all(pages.map((path) => keep(cache, path)));
}

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => keepAll(cache, PRECACHE)));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("pyramid-") && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

async function fromCacheFirst(request) {
  const kept = await caches.match(request, { cacheName: CACHE });
  return kept || fetch(request);
}

async function page(request) {
  const url = new URL(request.url);
  try {
    const response = await fetch(request);
    if (response.ok && KEPT_PAGES.includes(url.pathname) && !url.search) {
      caches.open(CACHE).then((cache) => keep(cache, url.pathname)).catch(() => {});
    }
    return response;
  } catch (error) {
    const cache = await caches.open(CACHE);
    if (!BOARDS.some((pattern) => pattern.test(url.pathname))) {
      const kept = await cache.match(url.pathname);
      if (kept) return kept;
    }
    const shell = await cache.match(SHELL);
    if (shell) return shell;
    throw error;
  }
}

async function newGame(request) {
  const form = await request.clone().formData();
  try {
    return await fetch(request);
  } catch (error) {
    const query = new URLSearchParams({ new: "1" });
    for (const name of ["goal", "passes", "winnable_only", "deal"]) {
      if (form.get(name)) query.set(name, form.get(name));
    }
    const deal = (form.get("deal") || "").trim();
    if (/^\d+$/.test(deal)) return Response.redirect(`${DEAL_LINK.replace("NUMBER", deal)}?${query}`, 303);
    return Response.redirect(`${SHELL}?${query}`, 303);
  }
}

async function pack(request) {
  try {
    const response = await fetch(request);
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(PACK, copy));
    }
    return response;
  } catch (error) {
    const kept = await caches.match(PACK, { cacheName: CACHE });
    if (kept) return kept;
    throw error;
  }
}

// A page may ask which release serves it (the browser tests do); asks to be taken when it
// was still loading at this worker's activation, so its claim missed it (static/js/site.js:
// taken only when its script is this release's); and says when the player's language or look
// changed: the pages kept at install are fetched again, as now drawn.
self.addEventListener("message", (event) => {
  if (event.data === "release?") event.source.postMessage({ release: RELEASE });
  if (PRECACHE.includes(event.data?.claim)) event.waitUntil(self.clients.claim());
  if (event.data === "pages-changed") {
    const pages = PRECACHE.filter((path) => !path.startsWith("/assets/"));
    event.waitUntil(caches.open(CACHE).then((cache) => keepAll(cache, pages)).catch(() => {}));
  }
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "GET" && url.pathname.startsWith("/assets/")) {
    event.respondWith(fromCacheFirst(request));
  } else if (request.mode === "navigate" && request.method === "GET") {
    event.respondWith(page(request));
  } else if (request.mode === "navigate" && request.method === "POST" && url.pathname === NEW_GAME) {
    event.respondWith(newGame(request));
  } else if (request.method === "GET" && url.pathname === PACK) {
    event.respondWith(pack(request));
  }
});

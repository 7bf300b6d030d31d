// @ts-check
/* What every page does for play without network (a module: base.html loads it):
 *  - registers the service worker (templates/sw.js), which keeps this release's shell;
 *  - sends the moves this device kept (board/sync.js), wherever the player is when the network
 *    comes back, and says how many games played offline were saved;
 *  - fetches ahead the deals of the next days and some winnable deals (for offline starts);
 *  - "New game" with no network begins a random deal on this device;
 *  - when the player's language or look changed, has the worker fetch again the pages it keeps
 *    (the offline board, the home page, the rules), so offline they read as online.
 * Without it (or without service workers) the site works as before, online. */

import { foundOrMade } from "./board/dom.js";
import * as saved from "./board/saved.js";
import { syncer } from "./board/sync.js";
import { sayCount } from "./board/words.js";

const PACK_AGE = 6 * 3600 * 1000;  // ms before the offline pack is fetched again

const INSTALL_TRIES = 4;  // a first install that fails is tried again while the page is open
const INSTALL_WAIT = 3000;  // ms before it is tried again, doubled at each try

/** Register the service worker. A first install fails as a whole when one of the shell's files
 * does not come (a train's network, a server busy for a moment): the page would then have no
 * offline play until the next page opened, so it tries again, a few times, while it is open.
 * @param {number} tried */
function install(tried) {
  const again = () => {
    if (tried + 1 < INSTALL_TRIES) setTimeout(() => install(tried + 1), INSTALL_WAIT * 2 ** tried);
  };
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).then((registration) => {
    const worker = registration.installing || registration.waiting || registration.active;
    if (!worker) return again();
    worker.addEventListener("statechange", () => {
      if (worker.state === "redundant" && !registration.active) again();
    });
  }, again);
}

/** Have the active worker take this page, when it does not yet. Its claim at activation takes
 * only the pages already running: a page asked for while the worker was installing (the home
 * page's install, then a game opened at once, its answer slow from a busy server) is still
 * loading then, and would stay without the worker, so without offline play, until the next
 * page opened. The page names this script, and only a worker that keeps it (of the page's own
 * release) takes the page: a page of a new release, whose worker waits for the old one's last
 * page to go, must not become that old worker's page, keeping it, and the new one waiting. */
function claimThisPage() {
  navigator.serviceWorker.ready.then((registration) => {
    if (!navigator.serviceWorker.controller) {
      registration.active?.postMessage({ claim: new URL(import.meta.url).pathname });
    }
  });
}

if ("serviceWorker" in navigator) {
  install(0);
  claimThisPage();
}

function notice(text) {
  const box = foundOrMade("[data-synced]", "p",
    { class: "synced-notice", "data-synced": true, role: "status" },
    (made) => { document.querySelector("main")?.prepend(made); });
  if (!box) return;
  box.textContent = text;
  box.hidden = false;
}

syncer.listeners.add({
  synced(count) { notice(sayCount("synced_games", count)); },
});

async function fetchPack() {
  const kept = saved.extra("pack");
  if (!navigator.onLine || (kept && Date.now() - kept.fetched < PACK_AGE)) return;
  const url = document.querySelector('meta[name="pyramid-offline-pack"]')?.getAttribute("content");
  if (!url) return;
  try {
    const response = await fetch(url, { credentials: "same-origin" });
    if (response.ok) saved.extra("pack", { ...(await response.json()), fetched: Date.now() });
  } catch { /* next time */ }
}

/* "New game" with no network: begin a random deal here (the worker's shell plays it). */
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (navigator.onLine || !(form instanceof HTMLFormElement) || !form.matches("form[data-new-game]")) {
    return;
  }
  event.preventDefault();
  const data = new FormData(form);
  const query = new URLSearchParams({ new: "1" });
  for (const name of ["goal", "passes", "winnable_only"]) {
    if (data.get(name)) query.set(name, String(data.get(name)));
  }
  const deal = String(data.get("deal") || "").trim();
  const shell = form.getAttribute("data-offline-start");
  const dealLink = form.getAttribute("data-deal-address").replace("NUMBER", deal);
  window.location.assign(/^\d+$/.test(deal) ? `${dealLink}?${query}` : `${shell}?${query}`);
});

/* The pages the worker keeps were drawn in the language and look of the day it kept them. */
function keepPagesCurrent() {
  const html = document.documentElement;
  const look = [html.lang, html.dataset.theme, html.dataset.felt, html.dataset.back,
    html.dataset.cards].join(" ");
  const worker = navigator.serviceWorker?.controller;
  if (!worker || saved.extra("look") === look) return;
  if (saved.extra("look") !== null) worker.postMessage("pages-changed");
  saved.extra("look", look);
}

function start() {
  syncer.kick();
  fetchPack();
  keepPagesCurrent();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
window.addEventListener("online", fetchPack);

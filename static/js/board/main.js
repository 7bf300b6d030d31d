// @ts-check
/* The board page's script: finds the game to show (start.js), then hands the board to the
 * controller. Loaded as a module by templates/game.html; without it every control still works
 * as a plain form.
 *
 * Hooks others test by: #board[data-status] with data-game (the server's id once it has one)
 * and data-moves (moves shown, the steps not yet confirmed included); <html data-inputs="N">
 * (steps the server has not confirmed: 0 when it holds the game as shown); [data-offline]
 * visible while the server can't be reached; window.pyramidBoard (the controller).
 *
 * Every address it goes to is the page's (drawn by the server with path_for): the game's own
 * in its data (`urls`), the shell's routes in its data, and on #board data-home-url and
 * data-board-url (a board's address with GAME where the game's id goes). */

import { Variant } from "../engine/index.js";
import { Board } from "./controller.js";
import { showEnding } from "./ending.js";
import { ask, listen, replayEarly } from "./input.js";
import { teach } from "./learn.js";
import * as saved from "./saved.js";
import { fromAddress, fromPage, inProgress } from "./start.js";
import { syncer } from "./sync.js";
import { say, variantTitle } from "./words.js";

window.pyramidFeel = window.pyramidFeel || [];

function json(id) {
  const node = document.getElementById(id);
  if (!node) return null;
  try { return JSON.parse(node.textContent); } catch { return null; }
}

/** Nothing to show with no network: say so in one sentence, where the game would be. */
function notHere(why, home) {
  const game = document.querySelector(".game");
  const note = document.createElement("h1");  // the page's heading: what it cannot show
  note.className = "notice needs-network";
  note.setAttribute("data-needs-network", why);
  note.textContent = say(why);
  const link = document.createElement("a");
  link.href = home;
  link.className = "btn";
  link.textContent = say("play_offline");
  game.replaceChildren(note, link);
}

/** The offline board names the game it shows: its deal and rules, in the title too. */
function nameTheGame(root, record) {
  const variant = new Variant(record.goal, record.passes);
  const label = record.deal.number ? say("deal_number", { number: record.deal.number })
    : say("custom_deal");
  const heading = document.querySelector(".deal-info h1");
  if (heading) heading.textContent = label;
  const rules = document.querySelector(".rules-line");
  if (rules) rules.textContent = variantTitle(variant);
  document.querySelector(".deal-info .share")?.remove();
  document.title = `${label} \u00b7 ${variantTitle(variant)} \u00b7 Pyramid`;
  root.dataset.deal = record.deal.number || "";
  root.dataset.goal = record.goal;
  root.dataset.passes = String(record.passes);
}

/** The shell's board is the game's now: its inputs are played (data-play). */
function shown(root, record) {
  root.setAttribute("data-play", record.id ? record.urls.play : record.start.url);
  root.dataset.game = record.id || "";
  root.removeAttribute("data-shell");
}

/** Ask before a game begun here leaves the game in progress (it counts as abandoned). */
async function askToLeave(record) {
  const left = saved.get(record.leaves);
  if (!left) return true;
  if (await ask(say("abandon_question"))) {
    saved.update(left, (kept) => { kept.left = true; });
    return true;
  }
  const boardUrl = (id) => document.getElementById("board").dataset.boardUrl.replace("GAME", id);
  window.location.assign(left.id ? left.urls.board || boardUrl(left.id) : left.page);
  return false;
}

async function boot() {
  const root = document.getElementById("board");
  if (!root) return;
  const data = json("game-data");
  let found;
  if (data) {
    found = fromPage(data);
  } else {
    const shell = json("shell-data")
      || { routes: { home: root.dataset.homeUrl, board: root.dataset.boardUrl }, random_deal_max: 1e9 };
    found = fromAddress(shell);
    if (found.missing) { notHere(found.missing, shell.routes.home); return; }
    nameTheGame(root, found.record);
  }
  if (!data && !found.record.leaves) shown(root, found.record);
  if (data && !root.hasAttribute("data-play")) return;  // someone else's game, or a replay
  const practice = Boolean(data?.learn);
  const board = new Board(root, found.record, { canPlay: data ? data.can_play : true,
    notKept: found.notKept, practice });
  // The deal asked for is on the board behind the question, not the shell's.
  if (!data && found.record.leaves) {
    if (!found.record.steps.length && inProgress(found.record.key)
        && !(await askToLeave(found.record))) return;
    shown(root, found.record);
  }
  // Kept when it has steps to send, and whenever this device kept the game before: every
  // change goes through the kept copy (saved.update), so a copy older than the page (a look
  // again that saw an earlier move made elsewhere) would take the next move, sent on its
  // version, and the server would refuse it as played on a game since moved on.
  if (!practice && (found.notKept || found.record.steps.length
      || (data && saved.get(found.record.key)))) saved.put(found.record);
  if (data?.hinted?.length && !found.record.steps.length) board.marked(data.hinted);
  window.pyramidBoard = board;
  listen(board);
  if (practice) teach(board);
  replayEarly(board);
  window.addEventListener("pyramid:ended", () => showEnding(board, { endedHere: true }));
  if (!board.local.playing) showEnding(board);
  else if (!board.local.game.moves.length) board.drawer.motion.deal();
  if (!practice) board.remote.lookAgain();  // a page kept by the browser may be older than the game
  syncer.kick();
  // Another tab or device may move this game: look again when the page comes back in view.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") board.remote.lookAgain();
  });
  window.addEventListener("pageshow", (event) => { if (event.persisted) board.remote.lookAgain(); });
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
else boot();

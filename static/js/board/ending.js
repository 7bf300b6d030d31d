// @ts-check
/* The end of a game: the server's banner (result, score, par, challenges) once the server
 * holds every step; until then, or with no network, one drawn here from the engine's outcome,
 * saying the game is kept on this device. */

import { GameStatus } from "../engine/index.js";
import { formatTime } from "./clock.js";
import { formatNumber, languageHeaders, say, sayCount, sayEnded, sayInto } from "./words.js";
import { element } from "./dom.js";
import { deviceCoach, hintsOffered } from "./ondevice.js";

function place(board, banner) {
  const old = board.root.querySelector("[data-banner]");
  const active = document.activeElement;
  // The focus was on the board (a card the last move took away, or the banner being
  // replaced): it goes to the end card's first control, never to the page's top.
  const onBoard = !active || active === document.body || board.root.contains(active);
  // The player folded the end card to study the board: the card that replaces it (the
  // server's, a moment later) stays folded.
  if (old && !old.open) banner.open = false;
  if (old) old.replaceWith(banner); else board.root.append(banner);
  if (board.endedHere && onBoard) {
    const first = banner.querySelector(".banner-actions :is(button, a[href])")
      || banner.querySelector("summary");
    first?.focus({ preventScroll: true });
  }
}

/** The banner drawn here: what the engine knows of the end. */
function localBanner(board) {
  const { local } = board;
  const status = local.status;
  const outcome = local.game.outcome();
  const seconds = board.clock.seconds();
  const moves = local.game.moves.length;
  const title = say(status === GameStatus.WON ? "won"
    : status === GameStatus.ABANDONED ? "abandoned" : "game_over");
  const total = local.score(seconds).total;
  const children = [
    element("h2", {}, [title]),
    element("p", { class: "reason" }, [outcome ? sayEnded(outcome.status.value, outcome.termination.value) : ""]),
    element("p", { class: "summary" }, [say("summary", { time: formatTime(seconds),
      moves: sayCount("moves", moves), cleared: local.game.cardsCleared,
      total: local.game.goal.cardsToClear })]),
    element("p", { class: "final-score", "data-final-score": total },
      sayInto("score", {}, { score: element("strong", {}, [formatNumber(total)]) })),
    element("p", { class: "saved-here", "data-saved-here": true }, [say("ended_offline")]),
  ];
  // Where a lost game went wrong, from the device's solver (the server's own analysis replaces
  // it with the server's banner). Not for a deal of the day: its line is nobody's while it is
  // in play (docs/players.md), and the server's analysis refuses it too.
  if (status === GameStatus.LOST && hintsOffered(board) && !board.record.daily) {
    children.push(deviceCoach(board));
  }
  const actions = element("div", { class: "banner-actions" });
  if (board.canRestart()) {
    actions.append(element("button", { type: "button", class: "btn primary", "data-action": "again" },
      [say("play_again")]));
  }
  // The same words as the server's card that replaces it: after a win, the next deal.
  actions.append(element("a", { class: "btn", href: board.root.dataset.homeUrl, "data-action": "new" },
    [say(status === GameStatus.WON ? "next_deal" : "new_game")]));
  children.push(actions);
  return element("details", { class: `banner ${status.value}`, "data-banner": status.value, "data-local": true,
    open: true }, [
    element("summary", { class: "banner-toggle", "data-banner-toggle": true }, [
      element("span", { class: "when-open" }, [`\u2715 ${say("show_board")}`]),
      element("span", { class: "when-closed" }, [say("show_result")])]),
    element("div", { role: "alert" }, children)]);
}

/** The server's banner for the ended game (the board's fragment, as htmx would fetch it). */
async function serverBanner(board) {
  const url = board.record.urls?.board;
  if (!url) return null;
  try {
    const response = await fetch(url, { credentials: "same-origin", headers: { "HX-Request": "true", ...languageHeaders() } });
    if (!response.ok) return null;
    const page = document.createElement("template");
    page.innerHTML = await response.text();
    return page.content.querySelector("[data-banner]");
  } catch {
    return null;
  }
}

let asked = 0;

/** Show how the game ended (`endedHere`: it ended on this page, by the player's input: the
 * focus goes to the end card). */
export async function showEnding(board, { endedHere = false } = {}) {
  if (board.local.playing) return;
  if (endedHere) board.endedHere = true;
  const ask = ++asked;
  const confirmed = board.record.id && !board.record.steps.length;
  const shown = board.root.querySelector("[data-banner]");
  if (confirmed && shown && !shown.hasAttribute("data-local")) return;  // the server's already
  if (!shown || !confirmed) place(board, localBanner(board));
  if (!confirmed) return;
  const banner = await serverBanner(board);
  if (!banner || ask !== asked || board.local.playing) return;
  place(board, banner);
  window.htmx?.process(banner);
}

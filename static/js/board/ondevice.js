// @ts-check
/* The solver on the device (static/js/solver/: the server's C solver as WebAssembly, in a
 * worker) for the board: the hint asked first here, the verdict after every move ("this
 * position can no longer be won" as soon as it is true), and a lost game's coach with no
 * network. Each answers what the server would: the same search, the same tie-breaks.
 *
 * Hooks others test by: a hint shown puts on #board (the [data-status] element) data-hint, the
 * move in the JSON API's form, and data-hint-from ("device" or "server"); a hint taken here is
 * a step `hint:MOVE` of the game's batch (sync.js), which the server counts in hints_used.
 * Where the board offers no hint control ([data-action=hint]), nothing here runs. */

import { Move } from "../engine/index.js";
import { device } from "../solver/device.js";
import { element } from "./dom.js";
import { retryStart } from "./start.js";
import { formatNumber, say, sayInto } from "./words.js";

/** @typedef {import("./controller.js").Board} Board */
/** @typedef {import("../engine/game.js").Game} Game */

/** Hints are offered on this board (a rule set or a race that turns them off has no control).
 * @param {Board} board @returns {boolean} */
export function hintsOffered(board) {
  return Boolean(board.root.querySelector('[data-action="hint"]')) && !board.practice;
}

/** @param {Game} game */
const keyOf = (game) => game.moves.map(String).join(" ");

/** The hint from the device's solver for the board's position: {move: Move, winnable} with
 * winnable null when the search ran past its budget ("not sure"); null when the device has no
 * answer (no worker) or the position changed meanwhile. @param {Board} board
 * @returns {Promise<{move: Move, winnable: boolean|null, until: number|null}|null>} */
export async function deviceHint(board) {
  const game = board.local.game;
  const key = keyOf(game);
  const found = await device.ask("hint", game);
  if (!found || !found.move || keyOf(board.local.game) !== key) return null;
  if (found.winnable !== null) showVerdict(board, found.winnable ? "winnable" : "not_winnable");
  return { move: Move.fromDict(found.move), winnable: found.winnable, until: found.until };
}

/** A move in a sentence's middle, as the server's hints say it. @param {Move} move */
function moveWords(move) {
  if (move.op.value === "draw") return say("move_draw");
  if (move.op.value === "recycle") return say("move_recycle");
  const [a, b] = move.cards.map((card) => card.symbol);
  return b ? say("move_pair", { a, b }) : say("move_king", { a });
}

/** The hint in words, as the server's (app/web/views/view.py, describe_hint); `until`: the
 * moves to undo to be back in a winnable position, when no win is left here.
 * @param {Move} move @param {boolean|null} winnable @param {number|null} [until]
 * @returns {string} */
export function hintSentence(move, winnable, until = null) {
  const words = moveWords(move);
  if (winnable === false) {
    const said = say("hint_lost", { move: words });
    return until ? `${said} ${say("undo_back", { count: until, num: formatNumber(until) })}` : said;
  }
  return `${say("hint_move", { move: words })} ${say(winnable ? "hint_winnable" : "hint_unsure")}`;
}

/** What a hint names, as the board marks it: card names, or the draw or recycle control.
 * @param {Move} move @returns {string[]} */
export function hintedNames(move) {
  return move.cards.length ? move.cards.map((card) => card.name) : [move.op.value];
}

/** Put the hinted move on the board's hooks (null: no hint shown).
 * @param {Board} board @param {Move|null} move @param {"device"|"server"} [from] */
export function showHint(board, move, from) {
  if (!move) {
    delete board.root.dataset.hint;
    delete board.root.dataset.hintFrom;
    return;
  }
  board.root.dataset.hint = JSON.stringify(move.toDict());
  board.root.dataset.hintFrom = from;
}

/** The move a server's hint answer named (its `hinted` names).
 * @param {string[]|null|undefined} names @returns {Move|null} */
export function moveOfNames(names) {
  if (!names || !names.length) return null;
  if (names[0] === "draw") return Move.draw();
  if (names[0] === "recycle") return Move.recycle();
  return Move.fromText(names.join("+"));
}

// --- the verdict after every move ------------------------------------------------------------
/** @param {Board} board @returns {HTMLElement|null} */
function verdictNote(board) {
  /** @type {HTMLElement|null} */
  let note = document.querySelector("[data-verdict-note]");
  if (!note) {
    const message = document.getElementById("message");
    if (!message) return null;
    note = element("p", { class: "verdict-note", "data-verdict-note": true, role: "status",
      hidden: true }, [say("no_longer_winnable")]);
    message.after(note);
  }
  return note;
}

/** The device's verdict (winnable, not_winnable, unknown) on the note, as data-device-verdict;
 * the note shows only when no win is left. Not on #board: its attributes are the server's.
 * @param {Board} board @param {string} verdict */
function showVerdict(board, verdict) {
  const note = verdictNote(board);
  if (!note) return;
  note.dataset.deviceVerdict = verdict;
  note.hidden = verdict !== "not_winnable";
}

/** Ask the device whether the board's position can still be won, and say so when it cannot. A
 * newer position (the next move) cancels the question. @param {Board} board */
export async function watchVerdict(board) {
  const game = board.local.game;
  if (!hintsOffered(board) || game.isOver()) {
    /** @type {HTMLElement|null} */
    const note = document.querySelector("[data-verdict-note]");
    if (note) {
      note.hidden = true;
      delete note.dataset.deviceVerdict;
    }
    return;
  }
  const key = keyOf(game);
  const found = await device.ask("verdict", game);
  if (!found || keyOf(board.local.game) !== key || !board.local.playing) return;
  showVerdict(board, found.verdict);
}

// --- the coach, with no network --------------------------------------------------------------
/** A move as a replay's list shows it (view.py's describe_step), the draw with its card.
 * @param {Game} game @param {number} number the move's, from 1 @returns {string} */
function stepWords(game, number) {
  const move = game.moves[number - 1];
  if (move.op.value === "recycle") return say("recycle");
  if (move.op.value === "draw") {
    const before = game.copy();
    while (before.moves.length >= number) before.undo();
    return say("step_draw", { card: before.stockTop.symbol });
  }
  return move.cards.map((card) => card.symbol).join(" + ");
}

/** @param {Move} move @returns {string} */
function keptTheWin(move) {
  if (move.op.value === "draw") return say("coach_kept_draw");
  if (move.op.value === "recycle") return say("coach_kept_recycle");
  const [a, b] = move.cards.map((card) => card.symbol);
  return b ? say("coach_kept_pair", { a, b }) : say("coach_kept_king", { a });
}

/** What the board says back before move `number` of a try again, `move` keeping the win
 * (view.py's back_before). @param {Move} move @param {number} number @returns {string} */
export function retrySentence(move, number) {
  if (move.op.value === "draw") return say("retry_back_draw", { number });
  if (move.op.value === "recycle") return say("retry_back_recycle", { number });
  const [a, b] = move.cards.map((card) => card.symbol);
  return b ? say("retry_back_pair", { number, a, b }) : say("retry_back_king", { number, a });
}

/** "Try again from move N", as the server's analysis offers it (templates/analysis.html): a
 * button that begins that game here and now (controller.js, retry), and its note.
 * @param {Board} board @param {number} lostAt @param {Move|null} better @returns {HTMLElement[]} */
function tryAgain(board, lostAt, better) {
  const button = element("button", { type: "button", class: "btn small primary",
    "data-action": "retry" }, [say("retry_from", { number: formatNumber(lostAt) })]);
  button.addEventListener("click", () => board.retry(lostAt, better));
  return [element("div", { class: "analysis-links" }, [button]),
    element("p", { class: "analysis-note" }, [say("retry_note")])];
}

/** Where a lost game went wrong, from the device's solver (the server's analysis, worked out
 * here), and "try again from move N": an element for the local banner, filled in when the
 * answer comes.
 * @param {Board} board @returns {HTMLElement} */
export function deviceCoach(board) {
  const box = element("div", { class: "analysis", "data-analysis": true,
    "data-analysis-from": "device" });
  const game = board.local.game.copy();
  device.ask("analysis", game).then((found) => {
    if (!found) return;
    let line;
    if (found.winnableAtStart === false) {
      line = element("p", { "data-verdict": "never" }, [say("coach_never")]);
    } else if (found.winnableAtStart === null) {
      line = element("p", { "data-verdict": "unknown" }, [say("coach_unknown")]);
    } else if (found.lostAt) {
      const strong = element("strong", {}, [stepWords(game, found.lostAt)]);
      line = element("p", { "data-verdict": "lost-at", "data-lost-at": found.lostAt },
        sayInto("coach_lost_at", { number: found.lostAt }, { move: strong }));
      const better = found.betterMove ? Move.fromDict(found.betterMove) : null;
      if (better) line.append(` ${keptTheWin(better)}`);
      if (retryStart(board.record)) {
        box.replaceChildren(line, ...tryAgain(board, found.lostAt, better));
        return;
      }
    } else {
      return;
    }
    box.replaceChildren(line);
  });
  return box;
}

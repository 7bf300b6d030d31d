// @ts-check
/* The board: every input is played by the engine on this device and drawn in the next frame;
 * the steps go to the server in batches (sync.js), which replays them with its own engine and
 * is the only judge of what is recorded. What needs the server (a hint, the end's results)
 * asks it, and says so in one sentence when there is no network.
 *
 * It holds three parts: `local`, the game on this device (local.js, the engine); `remote`,
 * its conversation with the server and the other tabs (remote.js); `drawer`, what the page
 * shows (drawer.js). It decides; they play, ask and draw. */

import { Card, GameStatus, Move } from "../engine/index.js";
import { forcedEnding, hintedMove, playOut, showHelpers, tipsDone } from "./assist.js";
import { Clock } from "./clock.js";
import { Drawer } from "./drawer.js";
import { positions } from "./motion.js";
import { ask, focusCard, roving } from "./input.js";
import { LocalGame, UNDO, stepOf, stepText } from "./local.js";
import { device } from "../solver/device.js";
import { hintedNames, hintsOffered, retrySentence, showHint, watchVerdict } from "./ondevice.js";
import { Remote, statusOf } from "./remote.js";
import * as saved from "./saved.js";
import { again, retried } from "./start.js";
import { hintSteps, isHintStep, syncer } from "./sync.js";
import { cardName, say, sayCount, sayRefusal } from "./words.js";

const AWAY_MS = 1000;  // a tab hidden this long pauses the game

function cue(what) {  // a sound for a move, a refusal or a win (sound.js decides if it plays)
  window.pyramidSound?.play(what);
}

export class Board {
  /** @param {HTMLElement} root #board @param {any} record saved.js's record
   * @param {{canPlay?: boolean, notKept?: number, practice?: boolean}} [options] */
  constructor(root, record, { canPlay = true, notKept = 0, practice = false } = {}) {
    this.practice = practice;
    this.record = record;
    this.canPlay = canPlay;
    this.local = new LocalGame({ ...record, moves: record.server.moves,
      hints: record.server.hints + hintSteps(record.steps), undos: record.server.undos,
      status: statusOf(record) });
    for (const step of record.steps) {
      if (!isHintStep(step.text)) this.local.apply(stepOf(step.text));
    }
    this.drawer = new Drawer(root);
    const ended = !this.local.playing;
    this.clock = new Clock(record.elapsed || 0, !ended && this.local.game.moves.length > 0 && !record.paused);
    /** The cards (or "draw", "recycle") the last hint named, while it can be played.
     * @type {string[]|null} */
    this.hinted = null;
    /** The clock starts at the next move (a try again begun here). */
    this.clockWaits = false;
    /** The forced ending being played out (assist.js), or null. @type {object|null} */
    this.finishing = null;
    /** Called after each step (the guided game's lessons). @type {((step: any) => void)|null} */
    this.afterStep = null;
    this.remote = new Remote(this);
    // Leaving the tab pauses after a second away: a reload, a link followed or the tab closed
    // also hide the page first, and must not leave a paused game behind them.
    let away = null;
    document.addEventListener("visibilitychange", () => {
      window.clearTimeout(away);
      if (document.visibilityState === "hidden") {
        away = window.setTimeout(() => { if (!this.paused()) this.togglePause(); }, AWAY_MS);
      }
    });
    window.addEventListener("pagehide", () => window.clearTimeout(away));
    this.draw();
    if (notKept) this.say(sayCount("not_kept", notKept), true);
    if (syncer.offline || !navigator.onLine) this.drawer.offline(true);
    if (hintsOffered(this)) watchVerdict(this);
  }

  /** #board, as drawn now. */
  get root() { return this.drawer.root; }

  selected() { return this.local.selected; }
  paused() { return this.root.hasAttribute("data-paused"); }
  pairs(a, b) {
    return !this.local.game.whyIllegal(Move.fromText(`${a}+${b}`));
  }

  /** One input: played here at once, or said why not. */
  take(input) {
    if (!this.canPlay) return;
    const kind = input.kind;
    if (kind !== "finish") this.finishing = null;
    this.drawer.motion.land();
    this.drawer.marks.clear();
    if (kind === "finish") {
      const line = forcedEnding(this.local.game);
      if (line && !this.finishing) playOut(this, line);
      return;
    }
    if (kind === "play-hint") {
      const move = hintedMove(this);
      if (move) this.step(move, input.at);
      return;
    }
    if (kind === "pause") return this.togglePause();
    if (this.paused()) return;
    if (kind === "hint") return this.remote.hint();
    if (kind === "deselect") {
      if (this.local.selected) {
        const name = this.local.selected;
        this.local.selected = null;
        this.drawSelection();
        if (!input.quietly) this.say(say("deselected", { card: cardLong(name) }));
        else this.say("");
      }
      return;
    }
    if (kind === "card") return this.press(input.card, input.at);
    if (kind === "pile") {
      const top = input.pile === "stock" ? this.local.game.stockTop : this.local.game.wasteTop;
      if (!top || !this.local.playing) {
        this.say(say(input.pile === "stock" ? "no_stock_card" : "no_waste_card"));
        return;
      }
      focusCard(this.root, this.root.querySelector(`button[data-card="${top.name}"]`));
      return this.press(top.name, input.at);
    }
    if (kind === "stock" || kind === "draw" || kind === "recycle") {
      const move = kind === "draw" ? Move.draw() : kind === "recycle" ? Move.recycle()
        : this.local.stockMove();
      return this.step(move, input.at);
    }
    if (kind === "undo") return this.step(UNDO, input.at);
    if (kind === "redo") {  // the move undo took back, played again as any move is
      const move = this.local.redoMove;
      if (move) return this.step(move, input.at);
      this.say(say("nothing_to_redo"), true);
    }
  }

  press(name, at) {
    const read = this.local.press(name);
    if (read.move) return this.step(read.move, at);
    if (read.refused) {
      for (const card of read.cards || []) this.drawer.marks.refused.add(card);
      this.draw();
      this.say(sayRefusal(read.refused), true);
      cue("refused");
      return;
    }
    this.drawSelection();  // a card selected or dropped: nothing else changes
    this.say(read.message);
    this.drawer.painted(at);
  }

  /** Play `step` (a Move or UNDO) here, draw it, keep it, and send it. */
  step(step, at) {
    const why = this.local.whyNot(step);
    if (why !== null) {
      if (why) this.say(typeof why === "string" ? why : sayRefusal(why), true);
      if (why) cue("refused");
      return;
    }
    const was = this.local.selected;
    this.hinted = null;
    showHint(this, null);
    const flight = this.flightOf(step);
    const before = positions(this.root, flight.cards());
    const played = this.local.apply(step);
    device.stale();  // a search about the position before is over: it would take a core
    if ((this.local.game.moves.length === 1 || this.clockWaits) && step !== UNDO) {
      this.clock.start();  // at the first move (a try again's: the first after its start)
      this.clockWaits = false;
    }
    if (!this.local.playing) this.clock.stop();
    const offline = syncer.offline || !navigator.onLine;
    if (!this.practice) {  // a guided game is played on the page alone: kept nowhere
      this.record = saved.update(this.record, (record) => {
        if (offline) record.timed = false;
        record.steps.push({ text: stepText(step), offline });
        record.elapsed = this.clock.seconds();
        record.ended = this.local.playing ? null : this.local.status.value;
      });
    }
    this.draw();
    this.drawer.motion.step(flight.kind, flight.cards(), before);
    const won = this.local.status === GameStatus.WON;
    if (won) {
      this.drawer.motion.cascade(this.local.game.moves.flatMap((move) => move.cards.map((c) => c.name)));
    }
    let message = played.message;
    if (was && !this.local.selected && step !== UNDO && !step.cards.length) {
      message = `${message} ${say("selection_dropped", { card: cardLong(was) })}`;
    }
    this.say(message);
    cue(step === UNDO ? "undo" : won ? "win" : step.toText());
    this.drawer.painted(at);
    if (!this.local.playing) this.ended();
    // The verdict in the solver's worker, asked once this frame is painted.
    requestAnimationFrame(() => window.setTimeout(() => watchVerdict(this), 0));
    this.afterStep?.(step);
    if (this.practice) return;
    // Sent once this frame is painted: the press is shown first, the network can wait 16 ms.
    requestAnimationFrame(() => window.setTimeout(() => syncer.kick(), 0));
  }

  /** Draw every card left in the stock, one after another (the guided game's "Draw the
   * rest"). */
  playOutStock() {
    playOut(this, Array.from(this.local.game.stock, () => Move.draw()));
  }

  // --- the same deal again ---------------------------------------------------------------------
  canRestart() {
    return this.canPlay && Boolean(this.record.urls?.again || this.record.start?.url);
  }

  /** Restart: the same deal, begun here at once (asking first if that leaves a game with
   * moves, which then counts as abandoned); its first batch stores it. */
  async restart() {
    const game = this.local;
    if (game.playing && game.game.moves.length && !(await ask(say("restart_question")))) return;
    const fresh = again(this.record);
    this.record = saved.update(this.record, (record) => { record.left = true; });
    this.finishing = null;
    this.hinted = null;
    this.record = fresh;
    this.local = new LocalGame({ ...fresh, moves: [], hints: 0, undos: 0,
      status: GameStatus.PLAYING.value });
    this.clock.set(0, false);
    this.drawer.marks.clear();
    this.root.querySelector("[data-banner]")?.remove();
    this.root.dataset.game = "";
    this.root.dataset.play = fresh.start.url;
    if (fresh.page) window.history.replaceState(null, "", fresh.page);
    this.draw();
    this.say("");
    this.drawer.motion.deal();
  }

  /** "Try again from move `before`" of this lost game, begun here at once, with no network as
   * with it (start.js, retried): a game not counted, at the position before that move, the
   * board marking `better`, the move that keeps the win, as the server's retry does (its
   * notice goes with the next input, as a hint's). @param {number} before
   * @param {Move|null} better */
  retry(before, better) {
    const fresh = retried(this.record, this.local.moveTexts, before);
    if (!fresh) return;
    this.finishing = null;
    saved.put(fresh);
    this.record = fresh;
    this.local = new LocalGame({ ...fresh, moves: fresh.server.moves, hints: 0, undos: 0,
      status: GameStatus.PLAYING.value });
    this.clock.set(0, false);
    this.clockWaits = true;
    this.drawer.marks.clear();
    showHint(this, null);
    this.root.querySelector("[data-banner]")?.remove();
    this.root.dataset.game = "";
    this.root.dataset.play = fresh.start.url;
    if (fresh.page) window.history.replaceState(null, "", fresh.page);
    this.hinted = better ? hintedNames(better) : null;
    if (this.hinted) this.marked(this.hinted); else this.draw();
    this.say(better ? retrySentence(better, before) : "");
    if (hintsOffered(this)) watchVerdict(this);
  }

  /** Which flight `step` makes, and its cards (read after the step, for those it reveals). */
  flightOf(step) {
    const { game } = this.local;
    if (step !== UNDO) {
      if (step.cards.length) return { kind: "remove", cards: () => step.cards.map((c) => c.name) };
      if (step.op.value === "draw") {
        const name = game.stockTop.name;
        return { kind: "draw", cards: () => [name] };
      }
      const name = game.wasteTop?.name;
      return { kind: "recycle", cards: () => (name ? [name] : []) };
    }
    const last = game.moves[game.moves.length - 1];
    if (last.cards.length) return { kind: "unremove", cards: () => last.cards.map((c) => c.name) };
    if (last.op.value === "draw") {
      const name = game.wasteTop.name;
      return { kind: "undraw", cards: () => [name] };
    }
    return { kind: "unrecycle", cards: () => (game.wasteTop ? [game.wasteTop.name] : []) };
  }

  /** The server has confirmed steps the board already shows: only what says so changes. */
  confirmed() {
    this.drawer.confirmed(this.local, this.record, this.clock.seconds());
  }

  /** The board drawn from the game here, with the helpers that apply to it. */
  draw() {
    this.drawer.draw(this.local, this.record, this.clock.seconds(), this.canPlay);
    showHelpers(this);
    tipsDone(this.root, this.local.game);
  }

  /** The selection drawn after a press that only selected or dropped a card (the position
   * unchanged): that card alone, unless the board must be drawn whole (marks to take off). */
  drawSelection() {
    if (!this.drawer.selection(this.local.selected)) this.draw();
  }

  /** @param {string} text @param {boolean} [refused] */
  say(text, refused = false) {
    this.drawer.say(text, refused);
  }

  /** Mark the cards (or the draw or recycle control) a hint points at.
   * @param {string[]} names */
  marked(names) {
    const { marks } = this.drawer;
    for (const name of names) {
      if (name === "draw" || name === "recycle") marks.hintedAction = name;
      else marks.hinted.add(name);
    }
    this.draw();
  }

  togglePause() {
    const cover = this.root.querySelector("[data-paused-cover]");
    if (!(cover instanceof HTMLElement)) return;
    const pausing = !this.paused();
    if (pausing && !this.clock.running) return;
    this.remote.pause(pausing);
    this.root.toggleAttribute("data-paused", pausing);
    cover.hidden = !pausing;
    if (pausing) {
      this.clock.stop();
      /** @type {HTMLElement|null} */ (cover.querySelector('[data-action="resume"]'))?.focus();
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
}

function cardLong(name) {
  return cardName(Card.parse(name));
}

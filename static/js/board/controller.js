/* The board: every input is played by the engine on this device and drawn in the next frame;
 * the steps go to the server in batches (sync.js), which replays them with its own engine and
 * is the only judge of what is recorded. What needs the server (a hint, the end's results)
 * asks it, and says so in one sentence when there is no network. */

import { Card, Move } from "../engine/index.js";
import { forcedEnding, hintedMove, playOut, showHelpers, tipsDone } from "./assist.js";
import { Clock } from "./clock.js";
import { Marks, drawBoard, drawCounters } from "./draw.js";
import { Motion, positions } from "./motion.js";
import { ask, focusCard, focusOnBoard, keepFocus, roving } from "./input.js";
import { LocalGame, UNDO, stepText } from "./local.js";
import { device } from "../solver/device.js";
import { hintsOffered, showHint, watchVerdict } from "./ondevice.js";
import { Remote } from "./remote.js";
import * as saved from "./saved.js";
import { again } from "./start.js";
import { hintSteps, isHintStep, syncer } from "./sync.js";
import { cardName, say, sayCount, sayEngine } from "./words.js";

const AWAY_MS = 1000;  // a tab hidden this long pauses the game

function cue(what) {  // a sound for a move, a refusal or a win (sound.js decides if it plays)
  window.pyramidSound?.play(what);
}

export class Board extends Remote {
  /** @param {HTMLElement} root #board @param {object} record saved.js's record */
  constructor(root, record, { canPlay = true, notKept = 0, practice = false } = {}) {
    super();
    this.practice = practice;
    this.root = root;
    this.record = record;
    this.canPlay = canPlay;
    this.local = new LocalGame({ ...record, moves: record.server.moves,
      hints: record.server.hints + hintSteps(record.steps), undos: record.server.undos,
      status: record.server.status });
    for (const step of record.steps) {
      if (!isHintStep(step.text)) this.local.apply(stepOfText(step.text));
    }
    this.marks = new Marks();
    this.motion = new Motion(root);
    const ended = !this.local.playing;
    this.clock = new Clock(record.elapsed || 0, !ended && this.local.game.moves.length > 0 && !record.paused);
    this.hintWaiting = false;
    syncer.listeners.add(this);
    window.addEventListener("storage", (event) => {
      if (event.key === "pyramid.games.v1") this.fromStorage();
    });
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
    if (syncer.offline || !navigator.onLine) this.offline(true);
    if (hintsOffered(this)) watchVerdict(this);
  }

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
    this.motion.land();
    this.marks.clear();
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
    if (kind === "hint") return this.hint();
    if (kind === "deselect") {
      if (this.local.selected) {
        const name = this.local.selected;
        this.local.selected = null;
        this.draw();
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
  }

  press(name, at) {
    const read = this.local.press(name);
    if (read.move) return this.step(read.move, at);
    if (read.refused) {
      for (const card of read.cards || []) this.marks.refused.add(card);
      this.draw();
      this.say(sayEngine(read.refused), true);
      cue("refused");
      return;
    }
    this.draw();
    this.say(read.message);
    this.painted(at);
  }

  /** Play `step` (a Move or UNDO) here, draw it, keep it, and send it. */
  step(step, at) {
    const why = this.local.whyNot(step);
    if (why !== null) {
      if (why) this.say(sayEngine(why), true);
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
    if (this.local.game.moves.length === 1 && step !== UNDO) this.clock.start();
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
    this.motion.step(flight.kind, flight.cards(), before);
    if (this.local.status.value === "won") {
      this.motion.cascade(this.local.game.moves.flatMap((move) => move.cards.map((c) => c.name)));
    }
    let message = played.message;
    if (was && !this.local.selected && step !== UNDO && !step.cards.length) {
      message = `${message} ${say("selection_dropped", { card: cardLong(was) })}`;
    }
    this.say(message);
    cue(step === UNDO ? "undo" : this.local.status.value === "won" ? "win" : step.toText());
    this.painted(at);
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
    return this.canPlay && Boolean(this.record.urls?.again);
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
    this.local = new LocalGame({ ...fresh, moves: [], hints: 0, undos: 0, status: "playing" });
    this.clock.set(0, false);
    this.marks.clear();
    this.root.querySelector("[data-banner]")?.remove();
    this.root.dataset.game = "";
    this.root.dataset.play = fresh.start.url;
    if (fresh.page) window.history.replaceState(null, "", fresh.page);
    this.draw();
    this.say("");
    this.motion.deal();
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
    this.versioned();
    document.documentElement.dataset.inputs = String(this.record.steps.length);
    drawCounters(this.local, this.clock.seconds());
  }

  /** The board drawn from the game here. */
  draw() {
    const focused = focusOnBoard(this.root);
    this.versioned();
    drawBoard(this.root, this.local, this.marks, { canPlay: this.canPlay });
    drawCounters(this.local, this.clock.seconds());
    document.documentElement.dataset.inputs = String(this.record.steps.length);
    // Where the focus goes when its card left is measured in the next frame, when the page is
    // laid out anyway: measured now, it would lay the page out twice.
    if (focused && !this.root.contains(document.activeElement)) {
      requestAnimationFrame(() => keepFocus(this.root, focused));
    }
    roving(this.root);
    showHelpers(this);
    tipsDone(this.root, this.local.game);
  }

  say(text, refused = false) {
    const region = document.getElementById("message");
    if (!region) return;
    region.textContent = "";
    if (!text) return;
    const span = document.createElement("span");
    span.className = refused ? "tone-error" : "tone-info";
    span.setAttribute("data-tone", refused ? "error" : "info");
    if (refused) span.setAttribute("data-refused", "");
    span.textContent = text;
    region.appendChild(span);
  }

  /** How long a press took to show (bench/play_feel.py reads window.pyramidFeel). */
  painted(at) {
    if (at === undefined) return;
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => window.pyramidFeel.push(performance.now() - at);
      channel.port2.postMessage(null);
    });
  }

}

function stepOfText(text) {
  return text === UNDO ? UNDO : Move.fromText(text);
}

function cardLong(name) {
  return cardName(Card.parse(name));
}

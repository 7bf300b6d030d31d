/* The board: every input is played by the engine on this device and drawn in the next frame;
 * the steps go to the server in batches (sync.js), which replays them with its own engine and
 * is the only judge of what is recorded. What needs the server (a hint, the end's results)
 * asks it, and says so in one sentence when there is no network. */

import { Card, Move } from "../engine/index.js";
import { Clock } from "./clock.js";
import { Marks, drawBoard, drawCounters } from "./draw.js";
import { focusCard, focusOnBoard, keepFocus, roving } from "./input.js";
import { LocalGame, UNDO, stepText } from "./local.js";
import { Remote } from "./remote.js";
import * as saved from "./saved.js";
import { syncer } from "./sync.js";
import { cardName, say, sayCount, withSymbols } from "./words.js";

const AWAY_MS = 1000;  // a tab hidden this long pauses the game

function cue(what) {  // a sound for a move, a refusal or a win (sound.js decides if it plays)
  window.pyramidSound?.play(what);
}

export class Board extends Remote {
  /** @param {HTMLElement} root #board @param {object} record saved.js's record */
  constructor(root, record, { canPlay = true, notKept = 0 } = {}) {
    super();
    this.root = root;
    this.record = record;
    this.canPlay = canPlay;
    this.local = new LocalGame({ ...record, moves: record.server.moves, hints: record.server.hints,
      undos: record.server.undos, status: record.server.status });
    for (const step of record.steps) this.local.apply(stepOfText(step.text));
    this.marks = new Marks();
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
  }

  selected() { return this.local.selected; }
  paused() { return this.root.hasAttribute("data-paused"); }
  pairs(a, b) {
    return !this.local.game.whyIllegal(Move.fromText(`${a}+${b}`));
  }

  /** One input: played here at once, or said why not. */
  take(input) {
    if (!this.canPlay) return;
    this.marks.clear();
    const kind = input.kind;
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
      this.say(withSymbols(read.refused), true);
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
      if (why) this.say(withSymbols(why), true);
      if (why) cue("refused");
      return;
    }
    const was = this.local.selected;
    const played = this.local.apply(step);
    if (this.local.game.moves.length === 1 && step !== UNDO) this.clock.start();
    if (!this.local.playing) this.clock.stop();
    const offline = syncer.offline || !navigator.onLine;
    this.record = saved.update(this.record, (record) => {
      if (offline) record.timed = false;
      record.steps.push({ text: stepText(step), offline });
      record.elapsed = this.clock.seconds();
      record.ended = this.local.playing ? null : this.local.status.value;
    });
    this.draw();
    let message = played.message;
    if (was && !this.local.selected && step !== UNDO && !step.cards.length) {
      message = `${message} ${say("selection_dropped", { card: cardLong(was) })}`;
    }
    this.say(message);
    cue(step === UNDO ? "undo" : this.local.status.value === "won" ? "win" : step.toText());
    this.painted(at);
    if (!this.local.playing) this.ended();
    syncer.kick();
  }

  /** The board drawn from the game here. */
  draw() {
    const focused = focusOnBoard(this.root);
    this.versioned();
    drawBoard(this.root, this.local, this.marks, { canPlay: this.canPlay });
    drawCounters(this.local, this.clock.seconds());
    document.documentElement.dataset.inputs = String(this.record.steps.length);
    keepFocus(this.root, focused);
    roving(this.root);
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

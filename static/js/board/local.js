// @ts-check
/* The game on this device: the engine's Game (static/js/engine, the server's rules), and what
 * a board input means on it.
 *
 * A press on a card reads exactly as the server's form reads a click
 * (app/web/services/boardinput.py, read_click): a lone card that is not a King becomes the
 * selection; the same card again drops it; a King, or a second card, is a removal for the
 * engine to judge. Every step (a move or an undo) is played here first and drawn at once; the
 * server replays it with its own engine. */

import {
  Card, Deal, Game, GameStatus, IllegalMove, Move, Op, gameOver, score,
} from "../engine/index.js";
import { cardName, say } from "./words.js";

export const UNDO = "undo";

/** What a step did, for the drawing and the announcement. */
export class Played {
  constructor(step, { removed = [], drawn = null, undone = null, message = "" } = {}) {
    this.step = step;
    this.removed = removed;   // cards that left the table
    this.drawn = drawn;       // the card a draw turned over
    this.undone = undone;     // the move an undo took back
    this.message = message;
  }
}

/** A deal from the page's data: its cards, and its number as a BigInt (numbers run past what a
 * JavaScript number holds). */
export function dealOf(data) {
  const pyramid = data.pyramid.map((name) => Card.parse(name));
  const stock = data.stock.map((name) => Card.parse(name));
  return new Deal(pyramid, stock, data.number === null ? null : BigInt(data.number));
}

export class LocalGame {
  /** @param {object} data the page's game data (app/web/views/boarddata.py) */
  constructor(data) {
    this.deal = dealOf(data.deal);
    this.goal = data.goal;
    this.passes = data.passes;
    this.game = Game.replay(this.deal, this.goal, this.passes, data.moves.map(Move.fromText));
    this.hints = data.hints || 0;
    this.undos = data.undos || 0;
    this.abandoned = data.status === GameStatus.ABANDONED.value;
    this.selected = null;
    this.redoable = [];  // the moves undone since the last new move, the next one last
  }

  get status() {
    return this.abandoned ? GameStatus.ABANDONED : this.game.status;
  }

  get playing() { return this.status === GameStatus.PLAYING; }

  get moveTexts() { return this.game.moves.map((move) => move.toText()); }

  score(seconds = null) {
    return score(this.game, { hints: this.hints, undos: this.undos, seconds });
  }

  /** Is `name` a card a move may use now? */
  isFree(name) {
    return this.playing && this.game.freeCards().some((card) => card.name === name);
  }

  /** A press on card `name`: {select}, {deselect}, {move}, or {refused: why}. */
  press(name) {
    if (!this.playing) return { refused: gameOver(this.status, this.game.outcome()) };
    const card = Card.parse(name);
    if (this.selected === name) {
      this.selected = null;
      return { deselect: card, message: say("deselected", { card: cardName(card) }) };
    }
    if (this.selected !== null || card.isKing) {
      const move = this.selected === null ? Move.remove(card)
        : Move.remove(Card.parse(this.selected), card);
      const why = this.game.whyIllegal(move);
      this.selected = null;
      return why ? { refused: why, cards: move.cards.map((c) => c.name) } : { move };
    }
    const why = this.game.whyNotFree(card);
    if (why) return { refused: why, cards: [name] };
    this.selected = name;
    return { select: card, message: say("selected", { card: cardName(card) }) };
  }

  /** The stock's control: a draw while the stock has cards, else a recycle (when there is a
   * pass left: else the draw, whose refusal says why nothing can be drawn). */
  stockMove() {
    const { game } = this;
    return game.stock.length || !game.isLegal(Move.recycle()) ? Move.draw() : Move.recycle();
  }

  /** The move redo plays: the last one undone, while no new move has been made since. */
  get redoMove() {
    return this.playing ? this.redoable[this.redoable.length - 1] || null : null;
  }

  /** Whether `step` may be played now (null), or why not: the engine's refusal, or (an undo)
   * the board's own sentence ("" on an ended game: nothing to say). */
  whyNot(step) {
    if (step === UNDO) {
      if (!this.playing) return this.game.isOver() ? "" : say("nothing_to_undo");
      return this.game.moves.length ? null : say("nothing_to_undo");
    }
    return this.game.whyIllegal(step);
  }

  /** Play `step` (a Move or UNDO), which must be legal; returns what it did. */
  apply(step) {
    const game = this.game;
    if (step === UNDO) {
      const undone = game.undo();
      this.undos += 1;
      this.selected = null;
      this.redoable.push(undone);
      return new Played(step, { undone, message: tookBack(undone) });
    }
    const drawn = step.op === Op.DRAW ? game.stockTop : null;
    game.play(step);
    // The move redo would play is played again (by redo or by hand): the next one waits. Any
    // other move starts a new line, and what redo could play is gone.
    const next = this.redoable[this.redoable.length - 1];
    if (next && next.toText() === step.toText()) this.redoable.pop();
    else this.redoable = [];
    if (this.selected !== null && !this.isFree(this.selected)) {
      this.selected = null;  // drawn over, or gone with the move
    }
    return new Played(step, { removed: step.cards, drawn, message: this.describe(step, drawn) });
  }

  /** What the move just played did, in words, and how the game ended if it did. */
  describe(move, drawn) {
    let text;
    if (move.op === Op.DRAW) {
      const next = this.game.stockTop;
      text = next ? say("drew", { card: cardName(drawn), next: cardName(next) })
        : say("drew_last", { card: cardName(drawn) });
    } else if (move.op === Op.RECYCLE) {
      text = say("recycled", { pass: this.game.passNumber, passes: this.passes });
    } else if (move.cards.length === 1) {
      text = say("removed_king", { a: cardName(move.cards[0]) });
    } else {
      text = say("removed_pair", { a: cardName(move.cards[0]), b: cardName(move.cards[1]) });
    }
    return text;  // how the game ended, the banner says
  }

  /** Rebuild from the server's moves (after a disagreement or another tab's moves). */
  reset(moves, { hints, undos, status }) {
    this.game = Game.replay(this.deal, this.goal, this.passes, moves.map(Move.fromText));
    this.hints = hints;
    this.undos = undos;
    this.abandoned = status === GameStatus.ABANDONED.value;
    this.selected = null;
    this.redoable = [];
  }
}

/** A step as the batch notation writes it: `5H+8C`, `draw`, `undo`. */
export function stepText(step) {
  return step === UNDO ? UNDO : step.toText();
}

/** A step read back from the notation. */
export function stepOf(text) {
  return text === UNDO ? UNDO : Move.fromText(text);
}

/** What an undo says it took back, in a sentence. */
function tookBack(move) {
  if (move.op === Op.DRAW) return say("undone_draw");
  if (move.op === Op.RECYCLE) return say("undone_recycle");
  const [a, b] = move.cards.map(cardName);
  return b ? say("undone_pair", { a, b }) : say("undone_king", { a });
}

export { IllegalMove };

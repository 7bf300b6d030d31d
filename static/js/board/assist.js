// @ts-check
/* What the board does for the player beyond the rules: an ending that needs no choice played
 * out (Finish, F), the hinted move played (Play the hint, N), and the first game's tips, each
 * leaving once it is done or no longer applies. */

import { Move } from "../engine/index.js";

const LONGEST_FINISH = 80;  // steps: a forced ending is short; this only bounds the look-ahead

/** The rest of the game when every step of it is forced (one legal move each time), to its
 * end; else null. */
export function forcedEnding(game) {
  if (game.isOver()) return null;
  const copy = game.copy();
  const line = [];
  while (!copy.isOver()) {
    const legal = copy.legalMoves();
    if (legal.length !== 1 || line.length >= LONGEST_FINISH) return null;
    copy.play(legal[0]);
    line.push(legal[0]);
  }
  return line;
}

/** Play `line` step by step, each once the last one's cards have landed; any other input
 * stops it (``board.finishing`` changes). */
export async function playOut(board, line) {
  const token = {};
  board.finishing = token;
  for (const move of line) {
    if (board.finishing !== token || !board.local.playing) return;
    board.step(move);
    await board.drawer.motion.settled();
  }
  if (board.finishing === token) board.finishing = null;
}

/** The move a hint named (its cards, or draw or recycle), if it can still be played. */
export function hintedMove(board) {
  const named = board.hinted;
  if (!named || !named.length) return null;
  let move;
  if (named[0] === "draw") move = Move.draw();
  else if (named[0] === "recycle") move = Move.recycle();
  else move = Move.fromText(named.join("+"));
  return board.local.game.isLegal(move) ? move : null;
}

/** Show the Finish and Play-the-hint controls when they apply. */
export function showHelpers(board) {
  const finish = board.root.querySelector('[data-action="finish"]');
  if (finish) finish.hidden = !(board.canPlay && forcedEnding(board.local.game));
  const play = board.root.querySelector('[data-action="play-hint"]');
  if (play) play.hidden = !(board.canPlay && hintedMove(board));
}

/** The first game's tips, each gone once done or no longer of use: "make 13" after a pair,
 * "Kings" after a King or when none is left, the stock's once a card is drawn or the stock is
 * empty. */
export function tipsDone(root, game) {
  const removed = game.moves.filter((move) => move.cards.length);
  const kingsLeft = [...game.pyramid, ...game.stock, ...game.waste]
    .some((card) => card && card.isKing);
  const done = {
    pairs: removed.some((move) => move.cards.length === 2),
    kings: removed.some((move) => move.cards.length === 1) || !kingsLeft,
    stock: game.moves.some((move) => move.op.value === "draw") || !game.stock.length,
  };
  for (const [name, gone] of Object.entries(done)) {
    const tip = root.querySelector(`[data-tip="${name}"]`);
    if (tip && tip.hidden !== gone) tip.hidden = gone;
  }
}

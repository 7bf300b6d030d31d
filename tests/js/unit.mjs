/* JS-only unit tests of the engine: what the Python side cannot ask of it (one object per
 * card, BigInt deal numbers, errors as JS classes, modules a browser can load as they are),
 * and a few refusals spelled out by hand, as app/engine words them (the conformance traces
 * compare thousands more with Python's). Run by conformance.mjs; alone: node tests/js/unit.mjs */

import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  Card, CardError, Deal, DealError, FULL_DECK, Game, GameStatus, Goal, IllegalMove, Move,
  MoveError, Outcome, Termination, score,
} from "../../static/js/engine/index.js";

const ENGINE = new URL("../../static/js/engine/", import.meta.url);
const MOST_LINES = 260;

function equal(actual, expected, what) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

function throws(fn, cls, message) {
  try {
    fn();
  } catch (exc) {
    if (!(exc instanceof cls)) throw new Error(`expected ${cls.name}, got ${exc}`);
    equal(exc.message, message, `${cls.name}'s message`);
    return;
  }
  throw new Error(`expected ${cls.name}: ${message}`);
}

const deal1 = () => new Game(Deal.fromNumber(1), "standard", 1);
const play = (game, texts) => { for (const t of texts) game.play(Move.fromText(t)); return game; };

const TESTS = {
  "a card is one object, so cards compare with ===": () => {
    equal(new Card(10, "D") === Card.parse("10d"), true, "new Card(10, D) === parse(10d)");
    equal(new Set(FULL_DECK).size, 52, "distinct cards");
    equal(Object.isFrozen(Card.parse("KS")), true, "frozen");
    throws(() => new Card(14, "S"), CardError, "no such card: rank 14, suit 'S'");
  },
  "a pair is one move whichever card comes first": () => {
    equal(Move.fromText("8C+5H").equals(Move.fromText(" 5h + 8c ")), true, "equal");
    equal(Move.fromText("8C+5H").toText(), "5H+8C", "text");
    equal(Move.fromDict({ op: "remove", cards: ["8C", "5H"] }).toDict(),
      { op: "remove", cards: ["5H", "8C"] }, "dict");
    throws(() => Move.fromText("5H+5H"), MoveError, "a pair needs two different cards, not 5H twice");
    throws(() => Move.fromText("5H+8C+2D"), MoveError,
      "'5H+8C+2D' is not a move: write 'KS', '5H+8C', 'draw' or 'recycle'");
  },
  "refusals say why, in the server's words, and change nothing": () => {
    const game = deal1();
    const refusals = {
      "KD": "KD is covered by AD and QC.",
      "4C+9S": "9S is covered by 3H and 2S.",
      "5C+8H": "8H is not a free card: only the top cards of the stock and the waste can be played.",
      "QH": "QH is not a King: only a King is removed on its own.",
      "recycle": "The stock still has 24 cards: recycle only when it is empty.",
    };
    for (const [text, sentence] of Object.entries(refusals)) {
      equal(game.whyIllegal(Move.fromText(text)), sentence, text);
      throws(() => game.play(Move.fromText(text)), IllegalMove, sentence);
    }
    equal(game.moves.length + game.waste.length, 0, "nothing played");
    play(game, ["AS+QH"]);
    equal(game.whyIllegal(Move.fromText("AS+QH")), "AS has already been removed.", "removed");
    for (let i = 0; i < 24; i++) game.play(Move.draw());
    equal(game.whyIllegal(Move.draw()), "The stock is empty and no passes are left.", "draw");
    equal(game.whyIllegal(Move.recycle()), "No passes left: this game allows 1 pass.", "recycle");
    throws(() => deal1().undo(), IllegalMove, "There is no move to undo.");
    throws(() => Game.replay(Deal.fromNumber(1), "standard", 1,
      ["3C+TS", "KS"].map((t) => Move.fromText(t))), IllegalMove, "move 2 (KS): KS is covered by 4C.");
  },
  "a copy is independent, and undo goes back to the same piles": () => {
    const game = play(deal1(), ["3C+TS", "draw"]);
    const copy = game.copy();
    copy.play(Move.fromText("AC+QH"));
    equal([game.moves.length, copy.moves.length], [2, 3], "moves");
    copy.undo();
    equal(copy.equals(game) && copy.stock.join() === game.stock.join(), true, "undone");
  },
  "the deck-stuck ending, on piles laid out by hand as Python's test_deck_stuck_check does": () => {
    const game = new Game(Deal.fromNumber(1), "wholedeck");
    game.pyramid = new Array(28).fill(null);
    game.stock = ["5S", "5H", "9C"].map((n) => Card.parse(n));
    game.waste = [];
    game.play(Move.draw());
    const outcome = game.outcome();
    equal(outcome && outcome.termination.value, "deck_stuck", "termination");
    equal(outcome.won || game.legalMoves().length, 0, "lost, no moves");
    equal(outcome.reason.includes("no two of them make 13"), true, "reason");
    throws(() => game.play(Move.draw()), IllegalMove, "The game is over: " + outcome.reason +
      " Its result is final.");
  },
  "deal numbers past 2**53 are BigInts, never rounded": () => {
    const last = Deal.fromNumber(99999999999999999999n);
    equal(last.number === 99999999999999999999n, true, "number");
    equal(last.toDict().deal, "99999999999999999999", "toDict's deal");
    equal(Deal.fromDict(last.toDict()).equals(last), true, "fromDict");
    equal(Deal.fromNumber(617).number === 617n && Deal.fromNumber(617).toDict().deal === 617,
      true, "small numbers");
    throws(() => Deal.fromNumber(2 ** 60), DealError, "1152921504606847000 is past 2**53 and so " +
      "not exact: give the deal number as a BigInt or a string of digits");
    equal(String(Deal.parseNumber("#12,345,678,901,234,567,890")), "12345678901234567890", "parseNumber");
  },
  "enum members compare with === and serialise as their values": () => {
    const game = deal1();
    equal(game.status === GameStatus.PLAYING && game.goal === Goal.STANDARD, true, "===");
    equal(JSON.stringify([game.status, game.goal, Move.draw().op]),
      '["playing","standard","draw"]', "JSON");
    equal(new Outcome("no_moves") === new Outcome(Termination.NO_MOVES), true, "one outcome");
    equal(`${Termination.PYRAMID_STUCK}`, "pyramid_stuck", "template");
  },
  "the score never goes below 0": () => {
    const points = score(deal1(), { hints: 3, undos: 2 });
    equal([points.total, points.hints, points.undos], [0, 75, 20], "score");
  },
  "the engine's modules import only each other, say what they mirror, and stay short": () => {
    for (const file of readdirSync(ENGINE).filter((f) => f.endsWith(".js"))) {
      const text = readFileSync(new URL(file, ENGINE), "utf8");
      const lines = text.split("\n").length - 1;
      if (lines > MOST_LINES) throw new Error(`${file} has ${lines} lines, over ${MOST_LINES}`);
      // After the type checker's pragma (`// @ts-check`, tsconfig.json), the header comment.
      if (!text.replace(/^\/\/ @ts-check\n/, "").startsWith("/* ")) {
        throw new Error(`${file} starts with no header comment`);
      }
      for (const [, from] of text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/gm)) {
        if (!/^\.\/[a-z]+\.js$/.test(from)) throw new Error(`${file} imports ${from}`);
      }
    }
  },
};

/** Run every test into `section` ({compared, fail(message)}). */
export function runUnitTests(section) {
  for (const [name, test] of Object.entries(TESTS)) {
    section.compared += 1;
    try {
      test();
    } catch (exc) {
      section.fail(`${name}: ${exc.message}`);
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const failures = [];
  const section = { compared: 0, fail: (message) => failures.push(message) };
  runUnitTests(section);
  for (const message of failures) console.log("FAIL " + message);
  console.log(`${section.compared - failures.length} of ${section.compared} passed`);
  process.exitCode = failures.length ? 1 : 0;
}

/* JS-only unit tests of the engine: what the Python side cannot ask of it (one object per
 * card, BigInt deal numbers, errors as JS classes, modules a browser can load as they are),
 * and a few refusals spelled out by hand, as app/engine makes them (the conformance traces
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

/** `fn` throws a `cls` whose refusal is `[code, fields]`. */
function throws(fn, cls, [code, fields = {}]) {
  try {
    fn();
  } catch (exc) {
    if (!(exc instanceof cls)) throw new Error(`expected ${cls.name}, got ${exc}`);
    equal(exc.refusal.toDict(), { code, fields }, `${cls.name}'s refusal`);
    return exc;
  }
  throw new Error(`expected ${cls.name}: ${code}`);
}

const said = (refusal) => refusal && [refusal.code, refusal.fields];

const deal1 = () => new Game(Deal.fromNumber(1), "standard", 1);
const play = (game, texts) => { for (const t of texts) game.play(Move.fromText(t)); return game; };

const TESTS = {
  "a card is one object, so cards compare with ===": () => {
    equal(new Card(10, "D") === Card.parse("10d"), true, "new Card(10, D) === parse(10d)");
    equal(new Set(FULL_DECK).size, 52, "distinct cards");
    equal(Object.isFrozen(Card.parse("KS")), true, "frozen");
    throws(() => new Card(14, "S"), CardError, ["no_such_card", { rank: 14, suit: "S" }]);
  },
  "a pair is one move whichever card comes first": () => {
    equal(Move.fromText("8C+5H").equals(Move.fromText(" 5h + 8c ")), true, "equal");
    equal(Move.fromText("8C+5H").toText(), "5H+8C", "text");
    equal(Move.fromDict({ op: "remove", cards: ["8C", "5H"] }).toDict(),
      { op: "remove", cards: ["5H", "8C"] }, "dict");
    throws(() => Move.fromText("5H+5H"), MoveError, ["same_card_twice", { card: "5H" }]);
    throws(() => Move.fromText("5H+8C+2D"), MoveError, ["not_a_move", { text: "5H+8C+2D" }]);
  },
  "refusals say why as a code and fields, as the server's do, and change nothing": () => {
    const game = deal1();
    const refusals = {
      "KD": ["covered", { card: "KD", by: ["AD", "QC"] }],
      "4C+9S": ["covered", { card: "9S", by: ["3H", "2S"] }],
      "5C+8H": ["not_free", { card: "8H" }],
      "QH": ["not_a_king", { card: "QH" }],
      "recycle": ["stock_not_empty", { count: 24 }],
    };
    for (const [text, refusal] of Object.entries(refusals)) {
      equal(said(game.whyIllegal(Move.fromText(text))), refusal, text);
      throws(() => game.play(Move.fromText(text)), IllegalMove, refusal);
    }
    equal(game.moves.length + game.waste.length, 0, "nothing played");
    play(game, ["AS+QH"]);
    equal(said(game.whyIllegal(Move.fromText("AS+QH"))), ["already_removed", { card: "AS" }], "removed");
    for (let i = 0; i < 24; i++) game.play(Move.draw());
    equal(said(game.whyIllegal(Move.draw())), ["stock_exhausted", {}], "draw");
    equal(said(game.whyIllegal(Move.recycle())), ["no_passes_left", { passes: 1 }], "recycle");
    throws(() => deal1().undo(), IllegalMove, ["nothing_to_undo"]);
    const refused = throws(() => Game.replay(Deal.fromNumber(1), "standard", 1,
      ["3C+TS", "KS"].map((t) => Move.fromText(t))), IllegalMove, ["covered", { card: "KS", by: ["4C"] }]);
    equal(refused.number, 2, "the refused move's number");
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
    throws(() => game.play(Move.draw()), IllegalMove,
      ["game_over", { status: "lost", termination: "deck_stuck" }]);
  },
  "deal numbers past 2**53 are BigInts, never rounded": () => {
    const last = Deal.fromNumber(99999999999999999999n);
    equal(last.number === 99999999999999999999n, true, "number");
    equal(last.toDict().deal, "99999999999999999999", "toDict's deal");
    equal(Deal.fromDict(last.toDict()).equals(last), true, "fromDict");
    equal(Deal.fromNumber(617).number === 617n && Deal.fromNumber(617).toDict().deal === 617,
      true, "small numbers");
    throws(() => Deal.fromNumber(2 ** 60), DealError, ["inexact_number", { number: 2 ** 60 }]);
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

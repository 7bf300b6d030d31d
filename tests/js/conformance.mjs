/* The JS engine (static/js/engine/) replays what app/engine did, and says where they differ.
 *
 * tests/engine/test_js_conformance.py plays games with the Python engine, records what it
 * saw at every step, and hands the lot to this one Node process:
 *   node tests/js/conformance.mjs PAYLOAD.json   -> one JSON report on stdout
 * Each section of the payload is replayed with the JS engine and compared:
 *   traces    games step by step (moves, undos, refused moves) and the view after each step:
 *             legal moves in order, status, ending, score, free cards, tops, the piles, counts;
 *   perft     tests/data/perft.json's move and position counts, walked again in JS;
 *   deals     deal numbers and the cards Python dealt for them, and the golden deal vectors;
 *   notation  cards, moves, deals, deal numbers and rule sets read from text and JSON, good and
 *             bad: the same result or the same error class and refusal (code and fields);
 *   constants the refusal codes and the pass limit (MAX_PASSES), defined once on each side;
 * and the JS-only unit tests of ./unit.mjs run too. The report counts what was compared and
 * lists the first disagreements of each section (deal, rule set, step and what differed). */

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  Code, Deal, Game, IllegalMove, MAX_PASSES, Move, Refused, Variant, score,
} from "../../static/js/engine/index.js";
import { NOTATION } from "./notation.mjs";
import { runUnitTests } from "./unit.mjs";

/** What a step's view holds, in order; the Python side sends its own list to check. */
export const FIELDS = ["legal moves", "status", "termination", "score", "free cards",
  "free positions", "stock top", "waste top", "piles", "counts"];
const SHOWN = 20;  // disagreements listed per section (all are counted)

const name = (card) => (card ? card.name : null);

/** The piles as one line: 28 pyramid slots (-- for a gone card) / stock top first / waste. */
export function piles(game) {
  return game.pyramid.map((card) => (card ? card.name : "--")).join("") + "/" +
    game.stock.map(name).join("") + "/" + game.waste.map(name).join("");
}

/** Everything the trace records about a position, as Python's view() lays it out. */
export function view(game, { hints, undos, seconds }) {
  const outcome = game.outcome();
  const points = score(game, { hints, undos, seconds });
  return [
    game.legalMoves().map(String).join(" "),
    game.status.value,
    outcome ? outcome.termination.value : null,
    [points.total, points.removals, points.rows, points.wholeDeck, points.timeBonus,
      points.hints, points.undos],
    game.freeCards().map(String).join(" "),
    game.freePyramid().map(([index]) => index).join(" "),
    name(game.stockTop),
    name(game.wasteTop),
    piles(game),
    [game.passNumber, game.passesLeft, game.pyramidLeft, game.cardsRemoved, game.cardsCleared,
      game.moves.length],
  ];
}

/** An engine's refusal by its code and fields; anything else (a bug in the runner or the
 * engine) with where it was thrown. */
const brief = (exc) => (exc instanceof IllegalMove ? `JS refused a move it listed: ${exc.message}`
  : String(exc.stack).split("\n").slice(0, 3).join(" "));

/** A value as the payload writes it: a BigInt as a number when it is exact, else
 * `{"$int": "digits"}`, as the Python side writes an int past 2**53. */
function encode(value) {
  if (typeof value === "bigint") {
    const small = value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER);
    return small ? Number(value) : { $int: value.toString() };
  }
  if (Array.isArray(value)) return value.map(encode);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encode(v)]));
  }
  return value;
}

/** A refusal (or null) as the payload writes Python's: {code, fields}. */
const asDict = (refusal) => (refusal === null ? null : encode(refusal.toDict()));
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
/** An object with its keys in order, for comparing JSON objects whatever their key order. */
const sorted = (object) => Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : 1)));
const show = (value) => JSON.stringify(value);

class Section {
  constructor() { this.compared = 0; this.failed = 0; this.messages = []; }
  fail(message) {
    this.failed += 1;
    if (this.messages.length < SHOWN) this.messages.push(message);
  }
}

/** The first difference between a Python view and the JS one, or null. */
function difference(python, js) {
  for (let i = 0; i < FIELDS.length; i++) {
    if (!same(python[i], js[i])) {
      return `${FIELDS[i]} differ: Python ${show(python[i])}, JS ${show(js[i])}`;
    }
  }
  return null;
}

/** A trace's refused moves at one step: the same reason, the same refusal (code and fields),
 * nothing changed. */
function checkProbes(game, probes) {
  for (const [text, why, refusal] of probes) {
    const move = Move.fromText(text);
    const jsWhy = asDict(game.whyIllegal(move));
    if (!same(jsWhy, why)) return `whyIllegal(${text}) differs: Python ${show(why)}, JS ${show(jsWhy)}`;
    if (game.isLegal(move)) return `isLegal(${text}) is true in JS, false in Python`;
    const before = piles(game);
    try {
      game.play(move);
      return `play(${text}) was refused by Python (${show(refusal)}) but played by JS`;
    } catch (exc) {
      if (!(exc instanceof IllegalMove)) return `play(${text}) threw ${exc}, not IllegalMove`;
      if (!same(asDict(exc.refusal), refusal)) {
        return `play(${text}) refusal differs: Python ${show(refusal)}, JS ${show(asDict(exc.refusal))}`;
      }
    }
    if (piles(game) !== before) return `the refused play(${text}) changed the piles`;
  }
  return null;
}

function replayTrace(trace, section, counts) {
  const variant = new Variant(trace.goal, trace.passes);
  const where = (trace.deal !== null ? `deal ${trace.deal}` : `custom deal ${trace.cards}`) +
    `, ${variant.key} (${variant.label}), ${trace.policy}`;
  const deal = trace.deal !== null ? Deal.fromNumber(BigInt(trace.deal)) : Deal.fromText(trace.cards);
  if (deal.toText() !== trace.cards) {
    section.fail(`${where}: the deal differs: Python ${trace.cards}, JS ${deal.toText()}`);
    return;
  }
  if (variant.key !== trace.variant[0] || variant.label !== trace.variant[1]
      || variant.title !== trace.variant[2]) {
    section.fail(`${where}: the rule set's names differ: Python ${show(trace.variant)}, JS ` +
      show([variant.key, variant.label, variant.title]));
    return;
  }
  const game = new Game(deal, trace.goal, trace.passes);
  const facts = { hints: trace.hints, undos: 0, seconds: trace.seconds };
  for (let i = 0; i < trace.steps.length; i++) {
    const [action, expected, probes] = trace.steps[i];
    const at = `${where}: step ${i}` + (action === null ? " (the start)" : ` (after ${action})`);
    counts.steps += 1;
    counts.probes += probes.length;
    try {
      if (action === "undo") {
        game.undo();
        facts.undos += 1;
      } else if (action !== null) {
        game.play(Move.fromText(action));
      }
    } catch (exc) {
      section.fail(`${at}: JS refused it: ${exc.message}`);
      return;
    }
    const problem = difference(expected, view(game, facts)) ?? checkProbes(game, probes);
    if (problem) {
      section.fail(`${at}: ${problem}`);
      return;
    }
  }
  // A game is its deal, rules and moves: replaying them gives the same game.
  const again = Game.replay(deal, trace.goal, trace.passes, game.moves);
  if (!again.equals(game) || piles(again) !== piles(game) || again.outcome() !== game.outcome()) {
    section.fail(`${where}: Game.replay of the ${game.moves.length} moves is not the same game`);
  }
  const copy = game.copy();
  if (!copy.equals(game) || piles(copy) !== piles(game)) section.fail(`${where}: copy() differs`);
}

function positionKey(game) {
  return piles(game) + "/" + game.passNumber;
}

/** perft.json's counts: move sequences and distinct positions at each depth. */
function perft(game, depth) {
  const counts = new Array(depth + 1).fill(0);
  const seen = Array.from({ length: depth + 1 }, () => new Set());
  const walk = (d) => {
    counts[d] += 1;
    seen[d].add(positionKey(game));
    if (d === depth) return;
    for (const move of game.legalMoves()) {
      game.play(move);
      walk(d + 1);
      game.undo();
    }
  };
  walk(0);
  return [counts, seen.map((s) => s.size)];
}

function checkPerft(cases, section, counts) {
  for (const c of cases) {
    const where = `perft: deal ${c.deal}, ${c.goal}-${c.passes}, from "${c.prefix}"`;
    section.compared += 1;
    try {
      const game = Game.replay(Deal.fromNumber(BigInt(c.deal)), c.goal, c.passes,
        c.moves.map((text) => Move.fromText(text)));
      const [perftCounts, positions] = perft(game, c.perft.length - 1);
      counts.perftNodes += perftCounts.reduce((a, b) => a + b, 0);
      if (!same(perftCounts, c.perft)) {
        section.fail(`${where}: move counts by depth differ: perft.json ${show(c.perft)}, JS ` +
          show(perftCounts));
      } else if (!same(positions, c.positions)) {
        section.fail(`${where}: distinct positions by depth differ: perft.json ` +
          `${show(c.positions)}, JS ${show(positions)}`);
      }
    } catch (exc) {
      section.fail(`${where}: ${brief(exc)}`);
    }
  }
}

function checkDeals(deals, vectors, section) {
  for (const [number, text] of deals) {
    section.compared += 1;
    const js = Deal.fromNumber(BigInt(number)).toText();
    if (js !== text) section.fail(`deal ${number}: Python deals ${text}, JS deals ${js}`);
  }
  for (const vector of vectors) {
    section.compared += 1;
    const deal = Deal.fromNumber(vector.deal);
    if (!same(sorted(deal.toDict()), sorted(vector))) {
      section.fail(`deal vector ${vector.deal}: JS deals ${show(deal.toDict())}`);
    } else if (!Deal.fromDict(vector).equals(deal) || Deal.fromDict(vector).number !== BigInt(vector.deal)) {
      section.fail(`deal vector ${vector.deal}: Deal.fromDict does not read it back`);
    }
  }
}

/** `{"$int": "digits"}` stands for an integer past 2**53 (a BigInt here, an int in Python). */
function decode(value) {
  if (Array.isArray(value)) return value.map(decode);
  if (value !== null && typeof value === "object") {
    if (Object.keys(value).length === 1 && "$int" in value) return BigInt(value.$int);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decode(v)]));
  }
  return value;
}

function checkNotation(cases, section) {
  for (const [call, args, expected] of cases) {
    section.compared += 1;
    const run = NOTATION[call];
    let got;
    if (!run) {
      got = ["missing", `the runner has no "${call}"`];
    } else {
      try {
        got = ["ok", encode(run(...decode(args)))];
      } catch (exc) {
        got = exc instanceof Refused ? ["error", exc.name, asDict(exc.refusal)]
          : ["error", exc.name, exc.message];
      }
    }
    if (!same(got, expected)) {
      section.fail(`${call}(${show(args).slice(1, -1)}): Python ${show(expected)}, JS ${show(got)}`);
    }
  }
}

/** The definitions each side makes once: the refusal codes and the pass limit. */
function checkConstants(constants, section) {
  section.compared += 1;
  const js = { codes: Object.values(Code).sort(), max_passes: MAX_PASSES };
  const python = { codes: [...constants.codes].sort(), max_passes: constants.max_passes };
  if (!same(js, python)) section.fail(`Python defines ${show(python)}, JS ${show(js)}`);
}

export function run(payload) {
  const sections = { traces: new Section(), perft: new Section(), deals: new Section(),
    notation: new Section(), constants: new Section(), unit: new Section() };
  const counts = { steps: 0, probes: 0, perftNodes: 0 };
  if (!same(payload.fields, FIELDS)) {
    sections.traces.fail(`the test's fields ${show(payload.fields)} are not the runner's ` +
      show(FIELDS));
  } else {
    for (const trace of payload.traces) {
      sections.traces.compared += 1;
      try {
        replayTrace(trace, sections.traces, counts);
      } catch (exc) {
        sections.traces.fail(`deal ${trace.deal ?? trace.cards}, ${trace.goal}-${trace.passes}: ` +
          brief(exc));
      }
    }
  }
  checkPerft(payload.perft, sections.perft, counts);
  checkDeals(payload.deals, payload.vectors, sections.deals);
  checkNotation(payload.notation, sections.notation);
  checkConstants(payload.constants, sections.constants);
  runUnitTests(sections.unit);
  return {
    counts,
    sections: Object.fromEntries(Object.entries(sections).map(([key, s]) => [key, { ...s }])),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const began = performance.now();
  const report = run(JSON.parse(readFileSync(process.argv[2], "utf8")));
  report.milliseconds = Math.round(performance.now() - began);
  process.stdout.write(JSON.stringify(report) + "\n");
}

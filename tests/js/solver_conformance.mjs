/* The WebAssembly solver (static/wasm/solver.wasm, through static/js/solver/solver.js) answers
 * as the native extension did, position by position.
 *
 *   node tests/js/solver_conformance.mjs CASES.json   -> one JSON report on stdout
 *
 * tests/engine/test_wasm_conformance.py records, for each position (a deal, a rule set, the
 * moves to it), what app/engine/solver.py answered: the verdict within a node limit, the nodes
 * searched, the winning line, the hint, the par and its line. This runner replays the moves with
 * the JS engine, asks the .wasm the same, and reports per answer what was compared and the first
 * disagreements, each naming the deal, the rule set and the moves. */

import { readFileSync } from "node:fs";
import { Deal, Game, Move } from "../../static/js/engine/index.js";
import { analyse, winnableUntil } from "../../static/js/solver/analysis.js";
import { SearchLimitReached, Solver } from "../../static/js/solver/solver.js";

const SHOWN = 20;
const WHAT = ["verdict", "nodes", "line", "hint", "par", "par_line"];

const texts = (moves) => (moves === null ? null : moves.map(String));

/** What the .wasm answers for one position, in the Python side's shapes. */
function answers(solver, game, nodeLimit, parLimit, check) {
  const found = solver.solve(game, { nodeLimit });
  const advice = solver.hint(game, nodeLimit, found);
  const shortest = solver.solve(game, { nodeLimit: Math.min(nodeLimit, parLimit), shortest: true });
  const par = shortest.winnable === null ? "limit" : shortest.par;
  if (check) {  // par() itself, the call the page makes, on every tenth position
    let called;
    try { called = solver.par(game, Math.min(nodeLimit, parLimit)); } catch (exc) {
      if (!(exc instanceof SearchLimitReached)) throw exc;
      called = "limit";
    }
    if (called !== par) throw new Error(`par() says ${called}, solve(shortest) ${par}`);
  }
  return { verdict: found.verdict, nodes: found.nodes, line: texts(found.moves),
    hint: advice.move ? String(advice.move) : null, par, par_line: texts(shortest.moves) };
}

const payload = JSON.parse(readFileSync(process.argv[2], "utf8"));
const solver = await Solver.load(readFileSync(payload.wasm));
const report = { positions: [], answers: {} };
for (const what of WHAT) report.answers[what] = { compared: 0, failed: 0, messages: [] };
for (const c of payload.cases) {
  const deal = c.deal !== null ? Deal.fromNumber(BigInt(c.deal)) : Deal.fromText(c.cards);
  const where = `deal ${c.deal ?? c.cards}, ${c.goal} ${c.passes} pass(es), ${c.kind}, ` +
    `after ${c.moves.length} moves [${c.moves.join(" ")}]`;
  report.positions.push(where);
  let js;
  try {
    const game = Game.replay(deal, c.goal, c.passes, c.moves.map((t) => Move.fromText(t)));
    js = answers(solver, game, c.node_limit, c.par_limit, report.positions.length % 10 === 1);
  } catch (exc) {
    js = { error: String(exc.stack).split("\n").slice(0, 3).join(" ") };
  }
  for (const what of WHAT) {
    const part = report.answers[what];
    part.compared += 1;
    const python = JSON.stringify(c.native[what]);
    const wasm = js.error ? js.error : JSON.stringify(js[what]);
    if (python !== wasm) {
      part.failed += 1;
      if (part.messages.length < SHOWN) part.messages.push(`${where}: native ${python}, wasm ${wasm}`);
    }
  }
}
// Where each ended game went wrong: analysis.py's answer, worked out on the device.
const analyses = { compared: 0, failed: 0, lost_at: 0, messages: [] };
for (const g of payload.analyses || []) {
  const game = Game.replay(Deal.fromText(g.cards), g.goal, g.passes, g.moves.map((t) => Move.fromText(t)));
  const found = analyse(solver, game, 2_000_000);
  const wasm = [found.winnableAtStart, found.lostAt, found.losingMove && String(found.losingMove),
    found.betterMove && String(found.betterMove), found.solves, found.nodes, found.complete,
    winnableUntil(solver, game, 500_000)];
  analyses.compared += 1;
  if (found.lostAt) analyses.lost_at += 1;
  if (JSON.stringify(wasm) !== JSON.stringify(g.native)) {
    analyses.failed += 1;
    if (analyses.messages.length < SHOWN) {
      analyses.messages.push(`deal ${g.deal}, ${g.goal} ${g.passes} pass(es), moves ` +
        `[${g.moves.join(" ")}]: native ${JSON.stringify(g.native)}, wasm ${JSON.stringify(wasm)}`);
    }
  }
}
report.analyses = analyses;
process.stdout.write(JSON.stringify(report));

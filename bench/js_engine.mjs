/* How long the JS engine (static/js/engine/) takes to judge a whole game in Node: for each of
 * a few hundred seeded random games, the time of every legalMoves() and play() from the deal
 * to the end, as a page that judges moves itself would spend them.
 *
 *   node bench/js_engine.mjs [--games 300] [--seed 1] [--json]
 *
 * Prints the median, p90 and max per game and per move; --json prints each game (deal, rule
 * set, moves, milliseconds) for bench/js_engine.py, which adds the machine's speed and the
 * Python engine's time on the very same games. The first games warm the JIT up and are not
 * counted. A figure, not a test: nothing here is asserted. */

import { Deal, Game, Op, VARIANTS } from "../static/js/engine/index.js";

const WARM_UP = 50;

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

/** mulberry32: a small seeded generator, so that every run plays the same games. */
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One game to its end, a removal when there is one (random play loses in a few moves). */
function playGame(number, variant, random) {
  const game = new Game(Deal.fromNumber(number), variant.goal, variant.passes);
  const began = performance.now();
  for (;;) {
    const moves = game.legalMoves();
    if (!moves.length) break;
    const removals = moves.filter((move) => move.op === Op.REMOVE);
    const pool = removals.length ? removals : moves;
    game.play(pool[Math.floor(random() * pool.length)]);
  }
  return { ms: performance.now() - began, game };
}

function summary(label, values, unit, scale) {
  const ordered = [...values].sort((a, b) => a - b);
  const at = (q) => ordered[Math.floor(q * (ordered.length - 1))] * scale;
  return `${label.padEnd(10)} median ${at(0.5).toFixed(3).padStart(8)} ${unit}   ` +
    `p90 ${at(0.9).toFixed(3).padStart(8)} ${unit}   max ${at(1).toFixed(3).padStart(8)} ${unit}` +
    `   (n=${ordered.length})`;
}

const games = option("games", 300);
const random = generator(option("seed", 1));
const played = [];
for (let i = 0; i < WARM_UP + games; i++) {
  const number = 1 + Math.floor(random() * 1_000_000);
  const variant = VARIANTS[i % VARIANTS.length];
  const { ms, game } = playGame(number, variant, random);
  if (i >= WARM_UP) {
    played.push({ deal: number, goal: variant.goal.value, passes: variant.passes,
      moves: game.moves.map(String), ms });
  }
}
if (process.argv.includes("--json")) {
  process.stdout.write(JSON.stringify({ node: process.version, games: played }) + "\n");
} else {
  const moves = played.map((g) => g.moves.length);
  console.log(`JS engine, Node ${process.version}: legalMoves() + play() over a whole random ` +
    `game (${games} games, the six rule sets, ${[...moves].sort((a, b) => a - b)[moves.length >> 1]} ` +
    "moves a game on median)");
  console.log(summary("per game", played.map((g) => g.ms), "ms", 1));
  console.log(summary("per move", played.map((g) => g.ms / g.moves.length), "µs", 1000));
}

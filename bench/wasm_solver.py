"""The solver on the device against the solver on the server: the WebAssembly build
(static/wasm/solver.wasm, in Node) and the native extension on the same positions.

    .venv/bin/python bench/wasm_solver.py [--positions 200] [--seed 1] [--rounds 3]

The positions: for each of the six rule sets, seeded games (random moves, removals first, the
greedy player) stopped a few moves in, and deal starts (half of them: the searches that take
time): a hint's search on each (``solve`` with the hint's node limit, as the server's hint
route asks). Each position is solved ``--rounds`` times by each build and its fastest time
kept (a search is deterministic: the spread is the machine's). Printed: median and p95 of
each build, over all positions and per rule set, the ratio of the medians and of the p95s,
the mean per-position ratio, and the machine's speed.
The two builds are checked to agree (verdict and nodes) on every position as they are timed.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_DIR))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine import speed_line  # noqa: E402

from app.engine import VARIANTS, Deal, Game  # noqa: E402
from app.engine.greedy import choose_move  # noqa: E402
from app.engine.solver import HINT_NODE_LIMIT, solve  # noqa: E402

RUNNER = r"""
import { readFileSync } from "node:fs";
import { Deal, Game, Move } from "ROOT/static/js/engine/index.js";
import { Solver } from "ROOT/static/js/solver/solver.js";
const { cases, rounds, limit } = JSON.parse(readFileSync(process.argv[2], "utf8"));
const solver = await Solver.load(readFileSync("ROOT/static/wasm/solver.wasm"));
const out = [];
for (const c of cases) {
  const moves = c.moves.map((t) => Move.fromText(t));
  const game = Game.replay(Deal.fromText(c.cards), c.goal, c.passes, moves);
  let best = Infinity; let found;
  for (let r = 0; r < rounds; r++) {
    const began = performance.now();
    found = solver.solve(game, { nodeLimit: limit });
    best = Math.min(best, performance.now() - began);
  }
  out.push({ ms: best, verdict: found.verdict, nodes: found.nodes });
}
process.stdout.write(JSON.stringify(out));
"""
DEPTHS = (0, 0, 5, 12)


def positions(count: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        variant = VARIANTS[len(found) % len(VARIANTS)]
        game = Game(Deal.from_number(rng.randrange(1, 10**9)), variant.goal, variant.passes)
        depth = DEPTHS[(len(found) // len(VARIANTS)) % len(DEPTHS)]
        while len(game.moves) < depth and not game.is_over():
            kind = rng.randrange(3)
            legal = game.legal_moves
            removals = [m for m in legal if m.cards]
            move = (choose_move(game) if kind == 2 else rng.choice(removals) if kind == 1
                    and removals else rng.choice(legal))
            game.play(move)
        if game.is_over():
            continue
        found.append({"cards": game.deal.to_text(), "goal": variant.goal.value,
                      "passes": variant.passes, "moves": [m.to_text() for m in game.moves],
                      "rules": variant.key, "game": game})
    return found


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    node = shutil.which("node")
    if node is None:
        print("node is not on the PATH (apt-get install nodejs)", file=sys.stderr)
        return 2
    cases = positions(args.positions, args.seed)
    print(speed_line())
    native = []
    for case in cases:
        best = float("inf")
        for _ in range(args.rounds):
            began = time.perf_counter()
            found = solve(case["game"], node_limit=HINT_NODE_LIMIT)
            best = min(best, time.perf_counter() - began)
        native.append({"ms": 1000 * best, "verdict": found.verdict.value, "nodes": found.nodes})
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "bench.mjs"
        script.write_text(RUNNER.replace("ROOT", str(PROJECT_DIR)))
        data = Path(folder) / "cases.json"
        data.write_text(json.dumps({"cases": [{k: v for k, v in c.items() if k != "game"}
                                              for c in cases],
                                    "rounds": args.rounds, "limit": HINT_NODE_LIMIT}))
        done = subprocess.run([node, str(script), str(data)], capture_output=True, text=True,
                              check=True)
    wasm = json.loads(done.stdout)
    differ = sum((a["verdict"], a["nodes"]) != (b["verdict"], b["nodes"])
                 for a, b in zip(native, wasm, strict=True))
    print(f"{len(cases)} positions (seed {args.seed}, best of {args.rounds}), hint searches "
          f"(node limit {HINT_NODE_LIMIT:,}); verdicts or nodes differing: {differ}")
    print(f"{'rules':<16}{'native med':>11}{'p95':>9}{'wasm med':>10}{'p95':>9}"
          f"{'ratio med':>10}{'ratio p95':>10}")
    groups = {"all": range(len(cases))}
    for variant in VARIANTS:
        groups[variant.key] = [i for i, c in enumerate(cases) if c["rules"] == variant.key]
    for name, indices in groups.items():
        n = [native[i]["ms"] for i in indices]
        w = [wasm[i]["ms"] for i in indices]
        print(f"{name:<16}{statistics.median(n):>9.3f}ms{p95(n):>7.3f}ms"
              f"{statistics.median(w):>8.3f}ms{p95(w):>7.3f}ms"
              f"{statistics.median(w) / statistics.median(n):>10.2f}{p95(w) / p95(n):>10.2f}")
    ratios = [w["ms"] / n["ms"] for n, w in zip(native, wasm, strict=True) if n["ms"] > 0]
    print(f"per-position ratio wasm/native: median {statistics.median(ratios):.2f}, "
          f"mean {statistics.mean(ratios):.2f}; total native {sum(x['ms'] for x in native):.0f}"
          f" ms, wasm {sum(x['ms'] for x in wasm):.0f} ms")
    print(speed_line())
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())

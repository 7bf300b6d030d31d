"""The figures /odds sets beside the published one-pass odds: our own checks of where the
difference could come from (issue 16), written to ``app/data/checks.json``.

- **The deals?** The one-pass rates on uniform random shuffles (``random.Random(seed)``, the
  deck shuffled the textbook way), and on PySolFC's two deal generators separately (deals
  1..31,999 come from the FreeCell generator, 32,000.. from the Mersenne Twister), read from
  the committed verdicts.
- **Where the stock's order does not matter**: the solver's rule options, unlimited passes
  (and overlap pairs), on deals 1..N, to set against the published figures for those rules.

Usage: ``python bench/one_pass_checks.py [--shuffles 20000] [--deals 100000]`` (minutes; it
prints the machine's speed and each figure with its time).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine import FULL_DECK, Deal, Game, Goal, Variant
from app.engine.solver import solve
from app.odds.interval import wilson_interval
from app.odds.run import solve_range
from app.odds.winnable import verdicts
from bench.machine import speed_line

OUT = Path(__file__).resolve().parents[1] / "app" / "data" / "checks.json"
SPLIT = 32_000
"""PySolFC deals below this come from its FreeCell generator; from it on, Mersenne Twister."""


def figure(label: str, wins: int, deals: int, command: str, **extra) -> dict:
    low, high = wilson_interval(wins, deals)
    row = {"label": label, "wins": wins, "deals": deals, "rate": wins / deals,
           "wilson_95": [low, high], "command": command, **extra}
    print(f"{label}: {wins:,}/{deals:,} = {100 * wins / deals:.2f}% "
          f"[{100 * low:.2f}, {100 * high:.2f}]", flush=True)
    return row


def shuffles(goal: Goal, count: int, seed: int = 16) -> int:
    rng = random.Random(seed)
    wins = 0
    for _ in range(count):
        cards = list(FULL_DECK)
        rng.shuffle(cards)
        wins += bool(solve(Game(Deal(tuple(cards[:28]), tuple(cards[28:])), goal, 1)).winnable)
    return wins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shuffles", type=int, default=20_000)
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    print(speed_line(), flush=True)
    here = "python bench/one_pass_checks.py"
    rows = []
    for goal in Goal:
        began = time.perf_counter()
        won = shuffles(goal, args.shuffles)
        rows.append(figure(f"{goal.label} goal, 1 pass, uniform random shuffles", won,
                           args.shuffles, f"{here} --shuffles {args.shuffles}", goal=goal.value,
                           passes=1, kind="shuffles", seconds=round(time.perf_counter() - began)))
        found = verdicts(Variant(goal, 1))
        below = sum(1 for n in range(1, SPLIT) if n in found)
        above = sum(1 for n in range(SPLIT, found.deals + 1) if n in found)
        rows.append(figure(f"{goal.label} goal, 1 pass, PySolFC deals 1..{SPLIT - 1:,}", below,
                           SPLIT - 1, "(the committed verdicts)", goal=goal.value, passes=1,
                           kind="freecell-generator"))
        rows.append(figure(f"{goal.label} goal, 1 pass, PySolFC deals {SPLIT:,}.."
                           f"{found.deals:,}", above, found.deals - SPLIT + 1,
                           "(the committed verdicts)", goal=goal.value, passes=1,
                           kind="mersenne-twister"))
        for overlap in (False, True):
            began = time.perf_counter()
            odds = solve_range(goal, 3, 1, args.deals, workers=args.workers, unlimited=True,
                               overlap=overlap)
            name = "unlimited passes" + (", overlap pairs" if overlap else "")
            flag = " --overlap" if overlap else ""
            rows.append(figure(
                f"{goal.label} goal, {name}, deals 1..{args.deals:,}", odds.wins, odds.decided,
                f"pyramid odds --goal {goal.value} --deals {args.deals} --unlimited{flag} --json",
                goal=goal.value, passes=None, overlap=overlap, kind="rule-options",
                seconds=round(time.perf_counter() - began)))
    OUT.write_text(json.dumps(rows, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()

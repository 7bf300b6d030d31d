"""Re-prove a random sample of the committed "not winnable" verdicts with every pruning off.

    python bench/reprove_lost.py [--deals 100000] [--sample 25] [--seed 16]
                                 [--node-limit 400000000] [--goal G] [--passes P]

For each rule set, ``--sample`` deals drawn at random (seeded) among deals 1..``--deals`` that
the committed bitsets (``app/data/winnable/*.bits``) call not winnable are solved again by the
plain exhaustive search (``solve(pruning=NO_PRUNING)``: no King or forced-pair shortcut, no
dead-end test, no relaxed or stacked game, no commuting moves; only the table of positions
already searched). A deal it finds winnable is a wrong verdict: its line is replayed through
``Game.play`` to show the win, it is printed (``WRONG``), and the exit status is 1. A deal
the node limit stops is counted as not re-proved (the plain search can need hundreds of
millions of positions on a three-pass deal; memory grows with them: about 8 bytes a
position). It prints, per rule set, the deals re-proved, the time and nodes per deal, and the
machine's speed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from machine import machine_speed  # noqa: E402

from app.engine import VARIANTS, Deal, Game, Variant  # noqa: E402
from app.engine.solver import NO_PRUNING, Verdict, solve  # noqa: E402
from app.odds.winnable import verdicts  # noqa: E402


def lost_sample(variant: Variant, deals: int, size: int, seed: int) -> list[int]:
    winnable = verdicts(variant)
    lost = [n for n in range(1, min(deals, winnable.deals) + 1) if n not in winnable]
    return sorted(random.Random(f"{seed}:{variant.key}").sample(lost, size))


def reprove(variant: Variant, number: int, node_limit: int | None) -> tuple[Verdict, int, float]:
    game = Game(Deal.from_number(number), variant.goal, variant.passes)
    began = time.perf_counter()
    solution = solve(game, node_limit=node_limit, pruning=NO_PRUNING)
    seconds = time.perf_counter() - began
    if solution.verdict is Verdict.WINNABLE:
        Game.replay(game.deal, variant.goal, variant.passes, solution.moves or ())
    return solution.verdict, solution.nodes, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--sample", type=int, default=25, help="deals a rule set")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--node-limit", type=int, default=400_000_000)
    parser.add_argument("--goal", choices=["standard", "wholedeck"])
    parser.add_argument("--passes", type=int, choices=[1, 2, 3])
    args = parser.parse_args(argv)
    unit = machine_speed()
    print(f"machine speed: sum(range(10**6)) = {1000 * unit:.1f} ms")
    wrong = 0
    totals = [0, 0, 0]
    for variant in VARIANTS:
        if (args.goal and variant.goal.value != args.goal) or (
                args.passes and variant.passes != args.passes):
            continue
        confirmed, stopped, seconds, nodes = 0, [], [], []
        for number in lost_sample(variant, args.deals, args.sample, args.seed):
            verdict, searched, took = reprove(variant, number, args.node_limit)
            seconds.append(took)
            nodes.append(searched)
            if verdict is Verdict.NOT_WINNABLE:
                confirmed += 1
            elif verdict is Verdict.UNKNOWN:
                stopped.append(number)
            else:
                wrong += 1
                print(f"WRONG {variant.key} deal {number}: the plain search wins it")
        totals[0] += confirmed
        totals[1] += len(stopped)
        totals[2] += len(seconds)
        print(f"{variant.key}: {confirmed} of {len(seconds)} re-proved not winnable, "
              f"{len(stopped)} stopped at the node limit {stopped or ''}; "
              f"time a deal mean {statistics.fmean(seconds):.2f} s "
              f"({statistics.fmean(seconds) / unit:.0f} loops), max {max(seconds):.1f} s; "
              f"nodes mean {statistics.fmean(nodes):,.0f}, max {max(nodes):,}", flush=True)
    print(f"all: {totals[0]} of {totals[2]} re-proved, {totals[1]} stopped, {wrong} wrong; "
          f"machine speed at the end {1000 * machine_speed():.1f} ms")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())

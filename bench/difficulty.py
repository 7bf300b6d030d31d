"""What measuring a deal's difficulty costs, part by part, beside the machine's speed.

    python bench/difficulty.py [--deals 300] [--python-playouts 20]

For the winnable deals among 1..``--deals`` of each rule set it times, per deal, each of
``app.odds.difficulty.measure``'s parts: the par search (``solve(shortest=True)``), the
solves of the first moves, the 200 random playouts in C, and the greedy player; and, for
comparison, ``--python-playouts`` random playouts on ``Game`` in Python (scaled to 200), the
reason the playouts are in C. Times are means in milliseconds, and in loops: multiples of the
machine's speed (``bench/machine.py``), printed at the start and the end.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from machine import machine_speed, speed_line  # noqa: E402

from app.engine import VARIANTS, Deal, Game  # noqa: E402
from app.engine.greedy import greedy_wins  # noqa: E402
from app.engine.playout import playouts, random_playout  # noqa: E402
from app.engine.solver import solve  # noqa: E402
from app.odds.difficulty import PLAYOUTS  # noqa: E402
from app.odds.winnable import is_proven_winnable  # noqa: E402


def timed(work, *args) -> float:
    began = time.perf_counter()
    work(*args)
    return time.perf_counter() - began


def first_moves(game: Game) -> None:
    """Decide the position after each legal first move."""
    for move in game.legal_moves:
        game.play(move)
        solve(game)
        game.undo()


def python_playouts(game: Game, count: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        random_playout(game, rng)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--python-playouts", type=int, default=20)
    args = parser.parse_args(argv)
    unit = machine_speed()
    print(speed_line(unit))
    print("| rule set | winnable deals | par search | first moves | 200 playouts (C) | "
          "200 playouts (Python) | greedy | all (ms; loops) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for variant in VARIANTS:
        parts: dict[str, list[float]] = {k: [] for k in ("par", "first", "c", "py", "greedy")}
        for number in range(1, args.deals + 1):
            if not is_proven_winnable(number, variant):
                continue
            game = Game(Deal.from_number(number), variant.goal, variant.passes)
            parts["par"].append(timed(partial(solve, shortest=True), game))
            parts["first"].append(timed(first_moves, game))
            parts["c"].append(timed(playouts, game, PLAYOUTS, number))
            python = timed(python_playouts, game, args.python_playouts, number)
            parts["py"].append(python * PLAYOUTS / args.python_playouts)
            parts["greedy"].append(timed(greedy_wins, game.deal, variant.goal, variant.passes))
        means = {k: 1000 * statistics.fmean(v) for k, v in parts.items()}
        total = means["par"] + means["first"] + means["c"] + means["greedy"]
        print(f"| {variant.label} | {len(parts['par'])} | {means['par']:.1f} | "
              f"{means['first']:.1f} | {means['c']:.2f} | {means['py']:.0f} | "
              f"{means['greedy']:.2f} | {total:.1f}; {total / 1000 / unit:.2f} |", flush=True)
    print(speed_line())
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Cross-check the solver: the pruned search against the plain one, and both against the
pure-Python reference search.

    python bench/crosscheck.py [--deals 200] [--passes 1 2 3] [--reference-deals 40]
                               [--options] [--par]

For every deal and variant: the pruned C search (all pruning on) and the plain C search (no
pruning at all: every move tried, a table of lost positions only) must give the same verdict,
and every winning line must replay through ``Game.play`` to a win. For the first
``--reference-deals`` deals of each variant, ``reference_solve`` (plain search over ``Game``
itself, sharing no code with the C search) must agree too, from a position some random moves
into the game (20 + 12 x passes), where it finishes in reasonable time. ``--options`` also
compares the pruned and the plain search under the solver's rule options (unlimited passes,
overlap pairs, both). ``--par`` also checks that each par line replays to a win and is no
longer than the decision search's line. Exits 1 on any disagreement.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.engine import Deal, Game
from app.engine.solver import NO_PRUNING, reference_solve, solve
from bench.machine import speed_line


def replay_wins(game: Game, moves: tuple) -> bool:
    copy = game.copy()
    for move in moves:
        copy.play(move)
    outcome = copy.outcome()
    return outcome is not None and outcome.won


def midgame(deal: Deal, goal: str, passes: int, seed: int, depth: int) -> Game:
    """A position ``depth`` random legal moves into the game (or fewer if it ends)."""
    rng = random.Random(seed)
    game = Game(deal, goal, passes)
    for _ in range(depth):
        moves = game.legal_moves
        if not moves:
            break
        game.play(rng.choice(moves))
    return game


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--start", type=int, default=1)
    parser.add_argument("--passes", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--goals", nargs="+", default=["standard", "wholedeck"])
    parser.add_argument("--reference-deals", type=int, default=40)
    parser.add_argument("--options", action="store_true",
                        help="also pruned against plain under unlimited passes and overlap pairs")
    parser.add_argument("--par", action="store_true",
                        help="also check the par lines")
    args = parser.parse_args()
    print(speed_line(), flush=True)
    failures = 0
    for goal in args.goals:
        for passes in args.passes:
            began = time.perf_counter()
            wins = reference_checked = 0
            failures_before = failures
            for number in range(args.start, args.start + args.deals):
                deal = Deal.from_number(number)
                game = Game(deal, goal, passes)
                pruned = solve(game)
                plain = solve(game, pruning=NO_PRUNING)
                if pruned.verdict != plain.verdict:
                    failures += 1
                    print(f"DISAGREE deal {number} {goal} {passes}p: pruned {pruned.verdict}, "
                          f"plain {plain.verdict}")
                for label, sol in (("pruned", pruned), ("plain", plain)):
                    if sol.winnable and not replay_wins(game, sol.moves):
                        failures += 1
                        print(f"BAD LINE deal {number} {goal} {passes}p from the {label} search")
                wins += bool(pruned.winnable)
                if args.options:
                    for passes_option, overlap in ((None, False), (passes, True), (None, True)):
                        a = solve(game, passes=passes_option, overlap=overlap)
                        b = solve(game, NO_PRUNING, passes=passes_option, overlap=overlap)
                        if a.verdict != b.verdict:
                            failures += 1
                            print(f"DISAGREE deal {number} {goal} {passes}p passes="
                                  f"{passes_option} overlap={overlap}: pruned {a.verdict}, "
                                  f"plain {b.verdict}")
                if args.par and pruned.winnable:
                    shortest = solve(game, shortest=True)
                    if not replay_wins(game, shortest.moves) or len(shortest.moves) > len(
                            pruned.moves):
                        failures += 1
                        print(f"BAD PAR LINE deal {number} {goal} {passes}p")
                if number < args.start + args.reference_deals:
                    position = midgame(deal, goal, passes, seed=number, depth=20 + 12 * passes)
                    if not position.is_over():
                        reference = reference_solve(position)
                        if reference != solve(position).winnable:
                            failures += 1
                            print(f"DISAGREE deal {number} {goal} {passes}p mid-game: "
                                  f"reference {reference}")
                        reference_checked += 1
            elapsed = time.perf_counter() - began
            print(f"{goal} {passes}p: deals {args.start}..{args.start + args.deals - 1}, "
                  f"{wins} winnable, {failures - failures_before} disagreements; reference "
                  f"checked on {reference_checked} mid-game positions; {elapsed:.0f} s",
                  flush=True)
    print("FAILURES:", failures if failures else "none")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

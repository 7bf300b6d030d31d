"""Check that builds of the solver's C core search alike: the same verdicts, lines and nodes.

    .venv/bin/python bench/same_search.py BASE.so OTHER.so ... -- GOAL:PASSES:DEALS ...
        [--modes decide par options flags]

Builds and cases are written as for ``bench/paired_builds.py`` (a build from another commit:
``python setup.py build_ext --inplace`` in a ``git worktree`` of it, its ``_solver*.so`` copied
away). Every deal of every case is solved by each build in turn, in one process, and each
solve's verdict, winning line and node count must equal the first build's. The node count is
the sharp test: a change that asks a dead-end test at one position more or less, or tries the
moves in another order, changes it. Modes: ``decide`` the default ``solve(game)``; ``par``
``solve(game, shortest=True)``; ``options`` unlimited passes, overlap pairs and both; ``flags``
each pruning switched off in turn (``ALL_PRUNING & ~flag``), thirteen solves a deal. Prints per
case the solves compared and the differences, each difference named; exits 1 on any.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from paired_builds import builds_and_cases, cases, load

import app.engine.solver as solver
from app.engine import Deal, Game

FLAGS = ("KINGS", "FORCED_PAIRS", "DEAD_ENDS", "RELAXED", "COMMUTE", "STACKED", "NESTED",
         "WORD", "APEX", "SUITS", "STARTS", "DOMINANCE", "CONE")


def solves(mode: str) -> list[tuple[str, dict]]:
    """The solves a mode asks of each deal: (name, keyword arguments of ``solve``)."""
    if mode == "decide":
        return [("decide", {})]
    if mode == "par":
        return [("par", {"shortest": True})]
    if mode == "options":
        return [("unlimited", {"passes": None}), ("overlap", {"overlap": True}),
                ("unlimited+overlap", {"passes": None, "overlap": True})]
    flag_values = {name: getattr(solver, name) for name in FLAGS}
    return [(f"without {name}", {"pruning": solver.ALL_PRUNING & ~value})
            for name, value in flag_values.items()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("builds", nargs="+", help="BUILD.so ...")
    parser.add_argument("--modes", nargs="+", default=["decide"],
                        choices=["decide", "par", "options", "flags"])
    args, texts = builds_and_cases(parser)
    builds = [(path, load(path)) for path in args.builds]
    asked = [solve for mode in args.modes for solve in solves(mode)]
    differences = 0
    for goal, passes, deals in cases(texts):
        compared = found = 0
        for number in deals:
            game = Game(Deal.from_number(number), goal, passes)
            for name, kwargs in asked:
                answers = []
                for _, module in builds:
                    solver._solver = module
                    s = solver.solve(game, **kwargs)
                    answers.append((s.verdict, s.moves, s.nodes))
                compared += 1
                for (path, _), answer in zip(builds[1:], answers[1:], strict=True):
                    if answer != answers[0]:
                        found += 1
                        print(f"DIFF {goal} {passes} deal {number} {name}: {path} "
                              f"{answer[0]} {answer[2]} nodes, {builds[0][0]} "
                              f"{answers[0][0]} {answers[0][2]} nodes", flush=True)
        span = f"{deals[0]}..{deals[-1]}" if len(deals) > 1 else str(deals[0])
        print(f"{goal} {passes} {span}: {compared} solves a build, {found} differences",
              flush=True)
        differences += found
    print(f"differences: {differences}")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())

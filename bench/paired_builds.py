"""Time builds of the solver's C core against each other, paired in one process.

    .venv/bin/python bench/paired_builds.py BASE.so OTHER.so[@FLAGS] ... -- GOAL:PASSES:DEALS ...
        [--rounds 5] [--min]

Each build is a compiled ``_solver`` module (for instance ``app/engine/_solver*.so`` copied from
a ``git worktree`` of another commit, after ``python setup.py build_ext --inplace``); ``@FLAGS``
solves with that pruning (``solver.ALL_PRUNING`` by default). A case is ``wholedeck:2:62644`` or
a range ``standard:1:1-1000``. Every round solves each case's deals with every build in turn,
the order reversed every other round, so that the machine's drift falls on all alike. Per case it
prints each build's time a deal (the median over rounds, or the minimum with ``--min``), its
ratio to the first build's, and its nodes: the exact measure, as this machine's speed moves by 2x
(printed first: ``sum(range(10**6))``).
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import app.engine.solver as solver
from app.engine import Deal, Game


def load(path: str):
    loader = importlib.machinery.ExtensionFileLoader("_solver", path)
    spec = importlib.util.spec_from_file_location("_solver", path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def cases(texts: list[str]) -> list[tuple[str, int, list[int]]]:
    found = []
    for text in texts:
        goal, passes, deals = text.split(":")
        low, _, high = deals.partition("-")
        found.append((goal, int(passes), list(range(int(low), int(high or low) + 1))))
    return found


def builds_and_cases(parser: argparse.ArgumentParser) -> tuple[argparse.Namespace, list[str]]:
    """The command line BUILD ... [options] -- CASE ...: the parsed part before --, the cases."""
    argv = sys.argv[1:]
    if "--" not in argv:
        parser.error("put -- between the builds and the cases (GOAL:PASSES:DEALS ...)")
    split = argv.index("--")
    return parser.parse_args(argv[:split]), argv[split + 1:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("builds", nargs="+", help="BUILD.so[@FLAGS] ...")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--min", action="store_true", help="the minimum over rounds")
    args, texts = builds_and_cases(parser)
    builds = []
    for text in args.builds:
        path, _, flags = text.partition("@")
        builds.append((text, load(path), int(flags) if flags else solver.ALL_PRUNING))
    start = time.perf_counter()
    sum(range(10**6))
    print(f"speed {1000 * (time.perf_counter() - start):.1f} ms")
    pick = min if args.min else statistics.median
    for goal, passes, deals in cases(texts):
        games = [Game(Deal.from_number(n), goal, passes) for n in deals]
        times = {name: [] for name, _, _ in builds}
        nodes = {}
        for r in range(args.rounds):
            for name, module, flags in (builds if r % 2 == 0 else builds[::-1]):
                solver._solver = module
                start = time.perf_counter()
                nodes[name] = sum(solver.solve(game, pruning=flags).nodes for game in games)
                times[name].append(time.perf_counter() - start)
        base = pick(times[builds[0][0]])
        span = f"{deals[0]}..{deals[-1]}" if len(deals) > 1 else str(deals[0])
        line = f"{goal} {passes} {span}:"
        for name, _, _ in builds:
            t = pick(times[name])
            line += f"  {name} {1000 * t / len(deals):.2f} ms x{t / base:.3f} nodes {nodes[name]}"
        print(line, flush=True)


if __name__ == "__main__":
    main()

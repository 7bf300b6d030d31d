"""Count the instructions builds of the solver's C core execute on the same solves.

    .venv/bin/python bench/instructions.py BASE.so OTHER.so[@FLAGS] ... -- GOAL:PASSES:DEALS ...

Builds and cases are written as for ``bench/paired_builds.py``. Each solve is run under valgrind's
callgrind (Debian's ``valgrind`` package; not needed by the tests), once and then twice in a
fresh process, and the difference is one solve's instructions, the process's start-up cancelled
out. Unlike a time, the count is the same from run to run (to within a few hundred thousand
instructions, the Python around the solve) and from a slow moment of the machine to a fast one.
It does not see cache misses, so a change it favours is still timed (paired_builds.py) before it
is kept. Prints per case each build's millions of instructions, its ratio to the first build's,
and its nodes.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from paired_builds import builds_and_cases, cases, load

import app.engine.solver as solver
from app.engine import Deal, Game


def child(path: str, flags: int, goal: str, passes: int, deals: list[int], times: int) -> None:
    """Solve the deals `times` times with the build at `path`; print the nodes of one round."""
    solver._solver = load(path)
    games = [Game(Deal.from_number(n), goal, passes) for n in deals]
    for _ in range(times):
        nodes = sum(solver.solve(game, pruning=flags).nodes for game in games)
    print(nodes)


def counted(build: str, goal: str, passes: int, deals: list[int], times: int) -> tuple[int, int]:
    """(instructions, nodes) of a process that solves the deals `times` times."""
    path, _, flags = build.partition("@")
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
               __file__, "--child", path, flags or str(solver.ALL_PRUNING), goal, str(passes),
               ",".join(map(str, deals)), str(times)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if not found:
        raise SystemExit(f"no instruction count from valgrind:\n{done.stderr[-2000:]}")
    return int(found.group(1)), int(done.stdout.split()[-1])


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        path, flags, goal, passes, deals, times = sys.argv[2:8]
        child(path, int(flags), goal, int(passes), [int(n) for n in deals.split(",")],
              int(times))
        return
    if not shutil.which("valgrind"):
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("builds", nargs="+", help="BUILD.so[@FLAGS] ...")
    args, texts = builds_and_cases(parser)
    for goal, passes, deals in cases(texts):
        span = f"{deals[0]}..{deals[-1]}" if len(deals) > 1 else str(deals[0])
        line, base = f"{goal} {passes} {span}:", None
        for build in args.builds:
            once, nodes = counted(build, goal, passes, deals, 1)
            twice, _ = counted(build, goal, passes, deals, 2)
            millions = (twice - once) / 1e6
            base = base if base is not None else millions
            ratio = f"x{millions / base:.3f}" if base > 0 else "x-"
            line += f"  {build} {millions:.1f} M {ratio} nodes {nodes}"
        print(line, flush=True)


if __name__ == "__main__":
    main()

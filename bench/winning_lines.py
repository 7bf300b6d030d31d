"""Write each rule set's winnable deals with a winning line each, one line a deal, for /odds's
downloads: ``app/data/lines/<goal>-<passes>.txt.gz``, deals 1..N (default 10,000).

Each line is the deal number, then the moves in RULES.md's text form (``5H+8D draw KC ...``),
so anyone can replay any "winnable" verdict in any engine. The line is the solver's decision
line (not necessarily the shortest). The file's first line is a ``#`` comment saying what it
holds and the command that made it.

Usage: ``python bench/winning_lines.py [--deals 10000]`` (a few minutes; prints the machine's
speed and each file's time and size).
"""

from __future__ import annotations

import argparse
import gzip
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine import VARIANTS, Deal, Game
from app.engine.solver import solve
from app.odds.winnable import verdicts
from bench.machine import speed_line

OUT = Path(__file__).resolve().parents[1] / "app" / "data" / "lines"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10_000)
    args = parser.parse_args()
    print(speed_line(), flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    for variant in VARIANTS:
        began = time.perf_counter()
        found = verdicts(variant)
        path = OUT / f"{variant.key}.txt.gz"
        count = 0
        with gzip.open(path, "wt", encoding="ascii", compresslevel=9) as out:
            out.write(f"# {variant.title}: every winnable deal of 1..{args.deals:,} with a "
                      "winning line, one a deal: the deal number, then its moves. Made by "
                      f"python bench/winning_lines.py --deals {args.deals}\n")
            for number in range(1, args.deals + 1):
                if number not in found:
                    continue
                line = solve(Game(Deal.from_number(number), variant.goal, variant.passes))
                assert line.winnable and line.moves is not None, number
                out.write(f"{number} {' '.join(m.to_text() for m in line.moves)}\n")
                count += 1
        print(f"{variant.key}: {count:,} deals, {path.stat().st_size / 1024:.0f} KiB, "
              f"{time.perf_counter() - began:.1f} s", flush=True)


if __name__ == "__main__":
    main()

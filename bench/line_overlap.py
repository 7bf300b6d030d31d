"""How much of an honest game is a published winning line: the greedy player (a free King,
else the pair that uncovers most, else draw) on the winnable deals of a range, each of its
moves checked against the committed lines of that deal (every rule set's, keyed by the cards
alone as ``witness`` keys them). docs/players.md says why the downloads carry no line.

    .venv/bin/python bench/line_overlap.py [--last 400]
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_DIR))

from app.engine import VARIANTS, Deal, Game, Move  # noqa: E402
from app.engine.greedy import play_greedy  # noqa: E402
from app.web.services.witness import line_pairs  # noqa: E402

LINES = PROJECT_DIR / "app" / "data" / "lines"


def lines_of(key: str) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {}
    for line in gzip.decompress((LINES / f"{key}.txt.gz").read_bytes()).decode().splitlines():
        if line.strip() and not line.startswith("#"):
            number, *moves = line.split()
            found[int(number)] = moves
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--last", type=int, default=400)
    args = parser.parse_args()
    files = {v: lines_of(v.key) for v in VARIANTS}
    won, lost, whole = [], [], 0
    for number in range(1, args.last + 1):
        published = set()
        for variant, deals in files.items():
            if number in deals:
                start = Game(Deal.from_number(number), variant.goal, variant.passes)
                published |= set(line_pairs(start, [Move.from_text(t) for t in deals[number]]))
        if not published:
            continue
        game = play_greedy(Game(Deal.from_number(number), "standard", 3))
        pairs = line_pairs(Game(Deal.from_number(number), "standard", 3), game.moves)
        share = sum(pair in published for pair in pairs) / len(pairs)
        (won if game.status.value == "won" else lost).append(share)
        whole += game.status.value == "won" and share == 1.0
    print(f"greedy wins: {len(won)}; share of their moves on a published line: median "
          f"{statistics.median(won):.0%}, all of them in {whole}")
    print(f"greedy losses: {len(lost)}; median share {statistics.median(lost):.0%}")


if __name__ == "__main__":
    main()

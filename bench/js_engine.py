"""The rules on the device against the rules on the server: the JS engine in Node and the Python
engine on the same whole games.

    .venv/bin/python bench/js_engine.py [--games 300] [--seed 1]

``bench/js_engine.mjs`` plays seeded random games with the JS engine (``static/js/engine/``),
timing every ``legalMoves()`` and ``play()``; this script then replays each of those games with
``app/engine``, timing ``legal_moves`` and ``play`` at every step the same way, and prints both
(median, p90 and max per game and per move) with the machine's speed. A page judging a move
itself spends the JS figure per move instead of a round trip to the server.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_DIR))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine import speed_line  # noqa: E402

from app.engine import Deal, Game, Move  # noqa: E402


def python_ms(game: dict) -> float:
    """The Python engine's time for ``legal_moves`` and ``play`` over one recorded game."""
    moves = [Move.from_text(text) for text in game["moves"]]
    board = Game(Deal.from_number(game["deal"]), game["goal"], game["passes"])
    seen = []
    began = time.perf_counter()
    for move in moves:
        seen.append(board.legal_moves)
        board.play(move)
    took = time.perf_counter() - began
    # The same game as in JS: each recorded move was legal here too, and the game is over.
    assert all(move in legal for move, legal in zip(moves, seen, strict=True))
    assert board.is_over()
    return 1000 * took


def line(label: str, values: list[float], unit: str, scale: float) -> str:
    ordered = sorted(values)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return (f"{label:<18} median {scale * statistics.median(ordered):8.3f} {unit}   "
            f"p90 {scale * p90:8.3f} {unit}   max {scale * ordered[-1]:8.3f} {unit}   "
            f"(n={len(ordered)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    node = shutil.which("node")
    if node is None:
        raise SystemExit("no node: apt-get install nodejs")
    print(speed_line())
    done = subprocess.run([node, str(PROJECT_DIR / "bench" / "js_engine.mjs"), "--games",
                           str(args.games), "--seed", str(args.seed), "--json"],
                          capture_output=True, text=True, check=True)
    report = json.loads(done.stdout)
    games = report["games"]
    moves = [len(game["moves"]) for game in games]
    print(f"legal moves + play over a whole random game: {len(games)} games, the six rule sets, "
          f"{statistics.median(moves):.0f} moves a game on median")
    js = [game["ms"] for game in games]
    py = [python_ms(game) for game in games]
    print(line(f"JS (Node {report['node']})", js, "ms", 1) + "  a game")
    print(line("Python", py, "ms", 1) + "  a game")
    print(line("JS", [ms / n for ms, n in zip(js, moves, strict=True)], "µs", 1000)
          + "  a move")
    print(line("Python", [ms / n for ms, n in zip(py, moves, strict=True)], "µs", 1000)
          + "  a move")


if __name__ == "__main__":
    main()

"""The coach's speed as a player meets it: starting a "winnable deals only" game, and the
analysis of a lost game, through the app (SQLite in a temporary folder, in-process client).

    .venv/bin/python bench/coach.py [--games 300]

Prints median, p95, p99 and max per request. (The solver-only analysis figures over many deals
come from ``bench/solver.py --analysis``.)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_DIR))

from fastapi.testclient import TestClient  # noqa: E402

from app.engine import Deal, Game  # noqa: E402
from app.engine.greedy import play_greedy  # noqa: E402
from app.main import create_app  # noqa: E402
from app.prestart import migrate  # noqa: E402
from app.settings import Settings  # noqa: E402
from bench.machine import speed_line  # noqa: E402


def quantiles(values: list[float]) -> str:
    values = sorted(values)
    pick = lambda q: values[min(len(values) - 1, int(q * (len(values) - 1) + 0.5))]  # noqa: E731
    return (f"median {statistics.median(values):7.1f} ms   p95 {pick(0.95):7.1f} ms   "
            f"p99 {pick(0.99):7.1f} ms   max {values[-1]:7.1f} ms   (n={len(values)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    print(speed_line(), flush=True)
    folder = tempfile.mkdtemp(prefix="pyramid-bench-coach-")
    url = f"sqlite:///{folder}/coach.db"
    migrate(url)
    app = create_app(Settings(_env_file=None, database_url=url, environment="test",
                              secret_key="bench-coach-secret-0123456789abcdef"))
    with TestClient(app) as client:
        client.get("/")
        for goal, passes in (("standard", 3), ("wholedeck", 1)):
            times = []
            for _ in range(args.games):
                began = time.perf_counter()
                created = client.post("/api/games", json={"goal": goal, "passes": passes,
                                                          "winnable_only": True})
                times.append(1000 * (time.perf_counter() - began))
                assert created.status_code == 201
            print(f"POST /api/games winnable_only ({goal}, {passes}p)   {quantiles(times)}")
        times = []
        for number in range(1, args.games // 3 + 1):
            game = play_greedy(Game(Deal.from_number(number), "standard", 3))
            if game.outcome().won:
                continue
            game_id = client.post("/api/games", json={"deal": number}).json()["id"]
            for move in game.moves:
                client.post(f"/api/games/{game_id}/moves", json=move.to_dict())
            began = time.perf_counter()
            found = client.get(f"/api/games/{game_id}/analysis")
            times.append(1000 * (time.perf_counter() - began))
            assert found.status_code == 200
        print(f"GET /api/games/{{id}}/analysis (lost greedy games) {quantiles(times)}")


if __name__ == "__main__":
    main()

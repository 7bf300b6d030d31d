"""The CPU one request costs the app, in process, for a few kinds of page: the home page, the
rules, a game's board, an unknown address (the 404 page) and the API's 404.

    .venv/bin/python bench/page_cost.py [--rounds 5] [--requests 100]

The app runs in this process on a fresh SQLite file, asked through httpx's ASGI transport
(no server, no socket: the client's own share is included, and is the same for every kind).
Prints, for each, the median over the rounds of the process's CPU per request, and the
machine's speed.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine import speed_line


async def measure(rounds: int, requests: int) -> None:
    import httpx

    from app.main import create_app

    app = create_app()
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            game_id = (await client.post("/api/games", json={"deal": 5})).json()["id"]
            for path in ("/", "/rules", f"/games/{game_id}", "/no-such-page", "/api/no-such"):
                status = (await client.get(path)).status_code  # the first one, warm
                runs = []
                for _ in range(rounds):
                    began = time.process_time()
                    for _ in range(requests):
                        await client.get(path)
                    runs.append((time.process_time() - began) / requests * 1000)
                shown = path if not path.startswith("/games/") else "/games/{id}"
                print(f"  {shown:14} {status}  {statistics.median(runs):6.2f} ms CPU a request")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=100)
    args = parser.parse_args()
    folder = tempfile.mkdtemp()
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.db"
    logging.disable(logging.INFO)
    from app.prestart import migrate

    migrate(os.environ["DATABASE_URL"])
    print(speed_line())
    asyncio.run(measure(args.rounds, args.requests))
    print(speed_line())


if __name__ == "__main__":
    main()

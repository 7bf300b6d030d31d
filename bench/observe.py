"""What ``app.web.core.observe.Observe`` adds to each request, alone: the request id, the metrics
(the duration histogram, requests in flight) and the access line.

A bare ASGI app answering 200 is called directly in one event loop, with and without Observe
around it, without and with the access line (JSON, written to /dev/null: a write system call
a line, as to a pipe or a file), and the difference per request is printed, in microseconds,
the median of several rounds:

    .venv/bin/python bench/observe.py [--requests 50000] [--rounds 7]

bench/load.py gives the figure in context (server CPU per request, before and after):
docs/deploy.md.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from app.logs import JsonFormatter, StampRequest
from app.web.core.observe import Observe
from bench.machine import speed_line


class Route:
    path = "/api/games/{game_id}/moves"


async def bare(scope, receive, send) -> None:
    """A routed request's answer: what the router leaves in the scope, and a 200."""
    scope["route"] = Route
    scope["path_params"] = {"game_id": "a1b2c3d4e5f6"}
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": b"{}"})


SCOPE = {"type": "http", "method": "POST", "path": "/api/games/a1b2c3d4e5f6/moves",
         "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"),
                     (b"x-request-id", b"0123456789abcdef0123456789abcdef")],
         "client": ("127.0.0.1", 50000)}


async def receive():
    return {"type": "http.request", "body": b"", "more_body": False}


async def send(_message) -> None:
    return None


async def seconds_per_request(app, requests: int) -> float:
    began = time.perf_counter()
    for _ in range(requests):
        await app(dict(SCOPE), receive, send)
    return (time.perf_counter() - began) / requests


def access_log(on: bool) -> None:
    access = logging.getLogger("pyramid.access")
    access.handlers.clear()
    access.propagate = False
    if on:
        handler = logging.StreamHandler(open(os.devnull, "w"))  # noqa: SIM115 (kept open)
        handler.addFilter(StampRequest())
        handler.setFormatter(JsonFormatter())
        access.addHandler(handler)
    access.setLevel(logging.INFO if on else logging.WARNING)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=50_000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    print(speed_line())
    observed = Observe(bare, lambda: [])
    arms: dict[str, list[float]] = {"bare": [], "observe": [], "observe + JSON line": []}
    for _ in range(args.rounds):
        for arm in arms:
            access_log(arm == "observe + JSON line")
            app = bare if arm == "bare" else observed
            arms[arm].append(asyncio.run(seconds_per_request(app, args.requests)))
    base = statistics.median(arms["bare"])
    for arm, figures in arms.items():
        median = statistics.median(figures)
        extra = "" if arm == "bare" else f"  (+{(median - base) * 1e6:.1f} µs)"
        print(f"{arm:22} {median * 1e6:6.1f} µs a request{extra}")


if __name__ == "__main__":
    main()

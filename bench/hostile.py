"""Hostile clients against a bystander (issue 34): what one client's costly requests do to
everyone else's.

    .venv/bin/python bench/hostile.py [--scenario all] [--duration 15]
    .venv/bin/python bench/hostile.py --database-url postgresql+psycopg://u:pw@127.0.0.1/db

Starts the server as ``bench/load.py`` does (SQLite, one process; PostgreSQL, two). A
bystander reads a game (``GET /api/games/{id}``) twenty times a second and ``/healthz`` is
asked ten times a second, in this process; the hostile clients run in a process of their own
(their client work would otherwise delay the bystander's timings). Scenarios:

- ``quiet``: nobody else (the baseline);
- ``crafted-import``: two clients post an 8 MB file of 2.7 million empty games, in a loop;
- ``imports``: two clients import a valid, signed 8,000-game export into fresh players, in a
  loop;
- ``stalled-exports``: sixteen clients ask for an 8,000-game export and never read it, while
  one more downloads it in a loop.

Printed for each: the bystander's GET and /healthz p50 / p99 / max, the answers the hostile
clients got, the server's CPU, and the machine's speed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import socket
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import PROJECT, Server, cpu_times, cpu_used, empty_postgres, percentile, run_loop
from machine import machine_speed, speed_line

from app.engine import Deal, Game, play_greedy

try:
    from app.web.services.gamesfile import ExportSigner
    SIGNS_BYTES = True
except ImportError:  # a checkout from before issue 34, measured for comparison
    from app.web.routes.devices import ExportSigner
    SIGNS_BYTES = False

SCENARIOS = ("quiet", "crafted-import", "imports", "stalled-exports")
EXPORT_GAMES = 8_000


def signed_export(secret_key: str, count: int) -> bytes:
    """A valid export of ``count`` greedy games (200 deals, each played several times)."""
    lines = []
    played = {}
    signer = ExportSigner(secret_key)
    began = datetime(2026, 1, 1, tzinfo=UTC)
    for number in range(count):
        deal = 1000 + number % 200
        if deal not in played:
            game = play_greedy(Game(Deal.from_number(deal), "standard", 3))
            played[deal] = (" ".join(m.to_text() for m in game.moves), game)
        move_list, game = played[deal]
        finished = began + timedelta(minutes=number)
        record = {"id": f"bench{number:07d}", "deal": deal, "custom_deal": None,
                  "goal": "standard", "passes": 3, "result": game.status.value,
                  "cards_cleared": game.cards_cleared, "cards_to_clear": 28,
                  "moves": len(move_list.split()), "par": None, "hints": 0, "seconds": 90,
                  "score": None, "started_at": (finished - timedelta(seconds=90)).isoformat(),
                  "finished_at": finished.isoformat(), "move_list": move_list, "replay": ""}
        line = json.dumps(record, sort_keys=True, separators=(",", ":")).encode()
        signer.update(line if SIGNS_BYTES else record)
        lines.append(line)
    return (b'{"display_name": null, "games": [\n' + b",\n".join(lines) + b'\n], "signature": '
            + json.dumps(signer.hexdigest()).encode() + b"}\n")


def crafted_import() -> bytes:
    return b'{"games": [' + b",".join([b"{}"] * 2_700_000) + b'], "signature": "x"}'


def csrf_client(base: str) -> httpx.Client:
    """A client that has loaded the home page: its own player, and the CSRF token."""
    import re

    client = httpx.Client(base_url=base, timeout=120, headers={"Origin": base})
    token = re.search(r'name="csrf-token" content="([0-9a-f]+)"', client.get("/").text)
    client.headers["X-CSRF-Token"] = token.group(1)
    return client


def import_loop(base: str, payload: bytes, until: float, counts) -> None:
    while time.monotonic() < until:
        client = csrf_client(base)  # a fresh player each time
        began = time.monotonic()
        answer = client.post("/stats/import", files={"file": ("g.json", payload)},
                             follow_redirects=False)
        counts.append((answer.status_code, time.monotonic() - began))
        client.close()
        if answer.status_code == 429:
            time.sleep(float(answer.headers.get("Retry-After", 1)))


def stalled_reader(base: str, cookie: str, until: float) -> None:
    """Asks for the export and reads only its first bytes, then holds the connection."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port))) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.sendall(f"GET /stats/export.json HTTP/1.1\r\nHost: {host}\r\n"
                     f"Cookie: {cookie}\r\n\r\n".encode())
        sock.recv(1024)
        while time.monotonic() < until:
            time.sleep(0.5)


def hostile(scenario: str, base: str, secret_key: str, duration: float, results) -> None:
    """The hostile clients of ``scenario``, for ``duration`` seconds (a process of its own)."""
    until = time.monotonic() + duration
    threads = []
    import threading

    if scenario == "crafted-import":
        payload = crafted_import()
        for _ in range(2):
            threads.append(threading.Thread(target=import_loop,
                                            args=(base, payload, until, results)))
    elif scenario == "imports":
        payload = signed_export(secret_key, EXPORT_GAMES)
        for _ in range(2):
            threads.append(threading.Thread(target=import_loop,
                                            args=(base, payload, until, results)))
    elif scenario == "stalled-exports":
        owner = csrf_client(base)
        done = owner.post("/stats/import", files={
            "file": ("g.json", signed_export(secret_key, EXPORT_GAMES))},
            follow_redirects=False)
        results.append((done.status_code, 0.0))
        cookie = "; ".join(f"{k}={v}" for k, v in owner.cookies.items())
        for _ in range(16):
            threads.append(threading.Thread(target=stalled_reader, args=(base, cookie, until)))

        def downloads() -> None:
            while time.monotonic() < until:
                began = time.monotonic()
                answer = owner.get("/stats/export.json")
                results.append((answer.status_code, time.monotonic() - began))
                if answer.status_code == 429:
                    time.sleep(float(answer.headers.get("Retry-After", 1)))

        threads.append(threading.Thread(target=downloads))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


async def bystander(base: str, game_id: str, duration: float) -> tuple[list, list]:
    """GET /api/games/{id} 20 times a second and /healthz 10 times a second: (seconds,
    status) of each."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        reads: list[tuple[float, int]] = []
        health: list[tuple[float, int]] = []

        async def every(period: float, path: str, into: list) -> None:
            until = time.monotonic() + duration
            while time.monotonic() < until:
                began = time.monotonic()
                status = (await client.get(path)).status_code
                into.append((time.monotonic() - began, status))
                await asyncio.sleep(max(0.0, period - (time.monotonic() - began)))

        await asyncio.gather(every(0.05, f"/api/games/{game_id}", reads),
                             every(0.1, "/healthz", health))
        return reads, health


def figures(timed: list[tuple[float, int]]) -> str:
    values = [seconds for seconds, _ in timed]
    failed = sum(status != 200 for _, status in timed)
    return (f"p50 {percentile(values, 0.5):6.1f}  p99 {percentile(values, 0.99):6.1f}  "
            f"max {max(values) * 1000:7.1f} ms  ({len(values)}, {failed} not 200)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", choices=(*SCENARIOS, "all"), default="all")
    parser.add_argument("--duration", type=float, default=15.0)
    parser.add_argument("--database-url")
    args = parser.parse_args()
    unit = machine_speed()
    print(speed_line(unit))
    with tempfile.TemporaryDirectory() as folder:
        for scenario in SCENARIOS if args.scenario == "all" else (args.scenario,):
            url = args.database_url or f"sqlite:///{folder}/{scenario}.db"
            workers = 2 if args.database_url else 1
            with Server(url, workers, PROJECT, Path(folder) / f"{scenario}.log") as server:
                if args.database_url:
                    empty_postgres(url)
                game_id = httpx.post(server.url + "/api/games", json={"deal": 5}).json()["id"]
                manager = multiprocessing.Manager()
                results = manager.list()
                process = multiprocessing.Process(target=hostile, args=(
                    scenario, server.url, server.env["SECRET_KEY"], args.duration + 5,
                    results))
                process.start()
                time.sleep(5)  # the hostile clients under way (and their files made)
                before = cpu_times(server.pids())
                reads, health = run_loop(bystander(server.url, game_id, args.duration))
                cpu = cpu_used(before, cpu_times(server.pids()))
                process.join()
                answers = Counter(status for status, _ in results)
                slowest = max((seconds for _, seconds in results), default=0.0)
                where = "PostgreSQL, 2 processes" if args.database_url else "SQLite, 1 process"
                print(f"\n{scenario} ({where}, {args.duration:g} s)")
                print(f"  bystander GET  {figures(reads)}")
                print(f"  /healthz       {figures(health)}")
                print(f"  hostile answers {dict(answers)}; slowest {slowest:.1f} s; "
                      f"server CPU {cpu:.1f} s")
    print(speed_line())


if __name__ == "__main__":
    main()

"""Crowd benchmark (issue 15): hints on slow deals must not starve the site.

    .venv/bin/python bench/crowd.py [--hinters 40] [--duration 30]
    .venv/bin/python bench/crowd.py --database-url postgresql+psycopg://u:pw@127.0.0.1/db
    .venv/bin/python bench/crowd.py --burst 60 [--links 60]
    .venv/bin/python bench/crowd.py --database-url ... --synchronous-commit off

Starts the server as ``bench/load.py`` does (SQLite, one process; PostgreSQL, two). Then:

- **hinters**: each plays a whole-deck, three-pass game of a deal whose search is slow (the
  slowest of deals 1..``--scan`` for the solver of this checkout), asking a hint before every
  move and playing it: each hint is a search of a new position. A 429 waits its Retry-After.
- **a bystander** plays an ordinary game meanwhile: a GET of the game and a move, four times
  a second.
- **/healthz** is asked ten times a second.

The hinters run in a process of their own, so that their client work (40 event-loop tasks
parsing game states) does not delay the bystander's and /healthz's timings, which the main
process takes.

Printed: the p50 / p99 / max of /healthz and of the bystander's GETs and moves, the hints
answered by status (only 200 and 429 are allowed), the server's CPU time, and the machine's
speed; and the disk's flush latency over the same window (``bench/disk.py``'s probe, in
``--flush-folder``), with how many of the bystander's slow moves overlap a stalled flush: a
move commits, and on PostgreSQL a commit waits for the write-ahead log's flush.

``--burst N`` instead lets N cookie-less players each create a game and ask a hint at once
(with ``--links M``, while M cookie-less deal links are opened), and prints their answers and
the slowest request. ``--verdicts N`` instead asks
``GET /api/deals/{n}/verdict`` for N random deal numbers (20 at a time) and counts the rows
of the verdict table before and after, and after one deal is played and asked again (only a
played deal's searched verdicts are kept).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from disk import FlushProbe, overlapping, summary
from load import (
    PROJECT,
    Server,
    cpu_times,
    cpu_used,
    empty_postgres,
    percentile,
    run_loop,
)
from machine import in_loops, machine_speed, speed_line

from app.engine import Deal, Game
from app.engine.solver import solve

RETRY_AFTER_MOST = 2.0


def slow_deals(count: int, scan: int) -> list[tuple[int, float]]:
    """The ``count`` whole-deck, three-pass deals among 1..``scan`` that take longest to
    decide, with their times: the hinters' deals."""
    timed = []
    for number in range(1, scan + 1):
        began = time.perf_counter()
        solve(Game(Deal.from_number(number), "wholedeck", 3))
        timed.append((time.perf_counter() - began, number))
    timed.sort(reverse=True)
    return [(number, seconds) for seconds, number in timed[:count]]


@dataclass
class Seen:
    health: list[float] = field(default_factory=list)
    gets: list[float] = field(default_factory=list)
    moves: list[float] = field(default_factory=list)
    move_starts: list[float] = field(default_factory=list)
    hints: Counter = field(default_factory=Counter)
    hint_times: list[float] = field(default_factory=list)
    other: Counter = field(default_factory=Counter)


async def timed(client: httpx.AsyncClient, method: str, path: str,
                **kw) -> tuple[httpx.Response, float]:
    began = time.perf_counter()
    response = await client.request(method, path, **kw)
    return response, time.perf_counter() - began


def legal(state: dict) -> dict:
    moves = state["legal_moves"]
    removals = [m for m in moves if m["op"] == "remove"]
    return removals[0] if removals else moves[-1]


async def hinter(base: str, deal: int, seen: Seen, until: float, measuring) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        game = (await client.post("/api/games", json={"deal": deal, "goal": "wholedeck",
                                                      "passes": 3})).json()
        while time.monotonic() < until:
            answer, took = await timed(client, "POST", f"/api/games/{game['id']}/hint")
            if measuring():
                seen.hints[answer.status_code] += 1
                if answer.status_code == 200:
                    seen.hint_times.append(took)
            if answer.status_code == 429:
                await asyncio.sleep(min(float(answer.headers.get("Retry-After", 1)),
                                        RETRY_AFTER_MOST))
                continue
            if answer.status_code != 200 or answer.json()["move"] is None:
                game = (await client.post("/api/games", json={
                    "deal": deal, "goal": "wholedeck", "passes": 3})).json()
                continue
            moved = await client.post(f"/api/games/{game['id']}/moves",
                                      json=answer.json()["move"])
            if moved.status_code == 200:
                game = moved.json()
                if game["status"] != "playing":
                    game = (await client.post("/api/games", json={
                        "deal": deal, "goal": "wholedeck", "passes": 3})).json()


async def bystander(base: str, seen: Seen, until: float, measuring) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        state = (await client.post("/api/games", json={"deal": 617})).json()
        while time.monotonic() < until:
            read, took = await timed(client, "GET", f"/api/games/{state['id']}")
            if measuring():
                seen.gets.append(took)
                seen.other[read.status_code] += 1
            state = read.json()
            if state["status"] != "playing":
                state = (await client.post("/api/games", json={"deal": 617})).json()
                continue
            began = time.monotonic()
            moved, took = await timed(client, "POST", f"/api/games/{state['id']}/moves",
                                      json=legal(state))
            if measuring():
                seen.moves.append(took)
                seen.move_starts.append(began)
                seen.other[moved.status_code] += 1
            await asyncio.sleep(0.25)


async def health(base: str, seen: Seen, until: float, measuring) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        while time.monotonic() < until:
            answer, took = await timed(client, "GET", "/healthz")
            if measuring():
                seen.health.append(took)
                seen.other[answer.status_code] += 1
            await asyncio.sleep(0.1)


def spread(values: list[float]) -> str:
    if not values:
        return "-"
    return (f"{percentile(values, .5):7.1f} /{percentile(values, .99):7.1f} /"
            f"{1000 * max(values):7.1f} ms (n={len(values)})")


def hinters(url: str, deals: list[int], start: float, until: float, out) -> None:
    """The hinters, in a process of their own (``crowd``): their JSON and their event loop
    never delay the bystander's and /healthz's timings."""
    seen = Seen()

    async def run() -> None:
        await asyncio.gather(*(hinter(url, deal, seen, until, lambda: time.monotonic() >= start)
                               for deal in deals))

    gc.disable()
    run_loop(run())
    out.put((dict(seen.hints), seen.hint_times, time.process_time()))


def crowd(server: Server, deals: list[int], duration: float, warmup: float,
          unit: float, flush_folder: str) -> None:
    import multiprocessing

    seen = Seen()
    began = time.monotonic()
    start, until = began + warmup, began + warmup + duration
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    crowd_process = context.Process(target=hinters, args=(server.url, deals, start, until, out))
    crowd_process.start()

    def measuring() -> bool:
        return time.monotonic() >= start

    async def run() -> float:
        tasks = [asyncio.ensure_future(bystander(server.url, seen, until, measuring)),
                 asyncio.ensure_future(health(server.url, seen, until, measuring))]
        await asyncio.sleep(warmup)
        before = cpu_times(server.pids())
        await asyncio.sleep(duration)
        cpu = cpu_used(before, cpu_times(server.pids()))
        await asyncio.gather(*tasks)
        return cpu

    flush_probe = FlushProbe(flush_folder, warmup + duration)
    gc.collect()
    gc.disable()
    try:
        cpu = run_loop(run())
    finally:
        gc.enable()
    flushes = [(at, took) for at, took in flush_probe.flushes() if start <= at < until]
    hints, hint_times, crowd_cpu = out.get()
    crowd_process.join()
    seen.hints.update(hints)
    seen.hint_times.extend(hint_times)
    print(f"/healthz           p50 / p99 / max  {spread(seen.health)}")
    print(f"bystander GET      p50 / p99 / max  {spread(seen.gets)}")
    print(f"bystander move     p50 / p99 / max  {spread(seen.moves)}")
    slow, in_stall = overlapping(list(zip(seen.move_starts, seen.moves, strict=True)), flushes)
    print(f"the disk meanwhile {summary(flushes)}; of the {slow} moves over 50 ms, "
          f"{in_stall} overlap a flush over 50 ms")
    print(f"hints answered     {dict(sorted(seen.hints.items()))}; answered in "
          f"{spread(seen.hint_times)}")
    print(f"other answers      {dict(sorted(seen.other.items()))}")
    print(f"server CPU         {cpu:.1f} s in {duration:g} s ({in_loops(cpu / duration, unit)}"
          f" a second); the hinters' own process {crowd_cpu:.1f} s")


def burst(server: Server, players: int, links: int) -> None:
    async def link(number: int) -> tuple[int, float]:
        began = time.perf_counter()
        async with httpx.AsyncClient(base_url=server.url, timeout=120) as client:
            page = await client.get(f"/deal/{number}?goal=wholedeck&passes=2")
            return page.status_code, time.perf_counter() - began

    async def player() -> tuple[int, int, float]:
        began = time.perf_counter()
        async with httpx.AsyncClient(base_url=server.url, timeout=120) as client:
            made = await client.post("/api/games", json={"deal": 1728, "goal": "wholedeck"})
            if made.status_code != 201:
                return made.status_code, 0, time.perf_counter() - began
            hinted = await client.post(f"/api/games/{made.json()['id']}/hint")
            return made.status_code, hinted.status_code, time.perf_counter() - began

    async def run():
        return await asyncio.gather(asyncio.gather(*(player() for _ in range(players))),
                                    asyncio.gather(*(link(3000 + n) for n in range(links))))

    results, opened = run_loop(run())
    print(f"{players} cookie-less players, each a new game and a hint at once"
          + (f", and {links} cookie-less deal links opened with them:" if links else ":"))
    print(f"  games: {dict(Counter(made for made, _, _ in results))}; "
          f"hints: {dict(Counter(hint for _, hint, _ in results))}; "
          f"slowest player {max(took for _, _, took in results):.2f} s")
    if opened:
        print(f"  links: {dict(Counter(status for status, _ in opened))}; "
              f"slowest {max(took for _, took in opened):.2f} s")


def verdicts(server: Server, database_url: str, count: int) -> None:
    import random

    from sqlalchemy import create_engine, text

    engine = create_engine(database_url)

    def rows() -> int:
        with engine.connect() as connection:
            return connection.execute(text("SELECT count(*) FROM deal_verdicts")).scalar_one()

    rng = random.Random(15)
    numbers = [rng.randrange(1, 10**20) for _ in range(count)]
    times: list[float] = []
    statuses: Counter = Counter()

    async def ask(client: httpx.AsyncClient, queue: list[int]) -> None:
        while queue:
            number = queue.pop()
            began = time.perf_counter()
            answer = await client.get(f"/api/deals/{number}/verdict")
            if answer.status_code == 200:
                times.append(time.perf_counter() - began)
            statuses[answer.status_code] += 1
            if answer.status_code == 429:
                await asyncio.sleep(float(answer.headers.get("Retry-After", 1)))
                queue.append(number)

    async def run() -> None:
        queue = list(numbers)
        async with httpx.AsyncClient(base_url=server.url, timeout=120) as client:
            await asyncio.gather(*(ask(client, queue) for _ in range(20)))

    before = rows()
    began = time.perf_counter()
    run_loop(run())
    took = time.perf_counter() - began
    after = rows()
    played = numbers[0]
    with httpx.Client(base_url=server.url, timeout=120) as client:
        made = client.post("/api/games", json={"deal": str(played)}).json()
        client.post(f"/api/games/{made['id']}/moves", json={"op": "draw"})
        client.get(f"/api/deals/{played}/verdict")
    kept = rows()
    print(f"{count:,} verdict requests for random deal numbers, 20 at a time, in {took:.1f} s: "
          f"answers {dict(statuses)} (a 429 waits its Retry-After and asks again); the 200s "
          f"took p50 {percentile(times, .5):.0f} ms, p99 {percentile(times, .99):.0f} ms")
    print(f"  verdict table rows: {before} before, {after} after (nobody played those deals); "
          f"{kept} once one of them was played and asked again")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hinters", type=int, default=40)
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    # 100,000: with the solver of the third round the slowest of 1..2,000 decide in 2-41 ms,
    # so they no longer load the solver; those of 1..100,000 take 0.1-0.9 s (docs/crowds.md).
    parser.add_argument("--scan", type=int, default=100_000,
                        help="pick the hinters' deals among deals 1..this (default 100000)")
    parser.add_argument("--burst", type=int, help="N cookie-less players at once instead")
    parser.add_argument("--links", type=int, default=0,
                        help="with --burst: M cookie-less deal links opened at the same time")
    parser.add_argument("--verdicts", type=int, help="N verdict requests instead")
    parser.add_argument("--database-url")
    parser.add_argument("--workers", type=int)
    parser.add_argument("--flush-folder", default=tempfile.gettempdir(),
                        help="where bench/disk.py's probe flushes: put it on the database's "
                        "disk (default: the temporary folder)")
    parser.add_argument("--synchronous-commit", choices=["on", "off"],
                        help="PostgreSQL: set the bench database's synchronous_commit for the "
                        "run (and reset it after), to tell the disk's share from the code's")
    args = parser.parse_args()

    unit = machine_speed()
    print(speed_line(unit))
    postgres = bool(args.database_url) and not args.database_url.startswith("sqlite")
    workers = args.workers or (2 if postgres else 1)
    if args.synchronous_commit:
        if not postgres:
            parser.error("--synchronous-commit is a PostgreSQL setting")
        database_setting(args.database_url, f"SET synchronous_commit = {args.synchronous_commit}")
    try:
        run(args, postgres, workers, unit)
    finally:
        if args.synchronous_commit:
            database_setting(args.database_url, "RESET synchronous_commit")


def database_setting(database_url: str, setting: str) -> None:
    """``ALTER DATABASE <the bench's> <setting>``: new connections (the server's) take it."""
    from sqlalchemy import create_engine, text

    engine = create_engine(database_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        name = connection.execute(text("SELECT current_database()")).scalar_one()
        connection.execute(text(f'ALTER DATABASE "{name}" {setting}'))
    engine.dispose()
    print(f"ALTER DATABASE {name} {setting}")


def run(args: argparse.Namespace, postgres: bool, workers: int, unit: float) -> None:
    with tempfile.TemporaryDirectory(prefix="pyramid-crowd-") as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'crowd.db'}"
        with Server(url, workers, PROJECT, Path(folder) / "server.log") as server:
            if postgres:
                empty_postgres(url)
            kind = "PostgreSQL" if postgres else "SQLite"
            print(f"{kind}, {workers} server process{'es' if workers > 1 else ''}")
            if args.burst:
                burst(server, args.burst, args.links)
                return
            if args.verdicts:
                verdicts(server, url, args.verdicts)
                return
            chosen = slow_deals(args.hinters, args.scan)
            print(f"{len(chosen)} hinters on the slowest whole-deck 3-pass deals of 1.."
                  f"{args.scan}: {chosen[0][0]} ({1000 * chosen[0][1]:.0f} ms) .. "
                  f"{chosen[-1][0]} ({1000 * chosen[-1][1]:.0f} ms) to decide from the deal")
            crowd(server, [n for n, _ in chosen], args.duration, args.warmup, unit,
                  args.flush_folder)


if __name__ == "__main__":
    main()

"""Load benchmark: simulated players playing real games through the JSON API.

Starts the server itself (``python -m app.prestart``, then ``uvicorn app.main:app`` on a free
port of 127.0.0.1), lets N players play for a fixed time and prints, per run: moves per
second, move latency (p50 / p95 / p99 / max), the same for ``GET /api/games/{id}``, failed
requests, and the server's CPU time per move and per request, read from /proc for uvicorn and
its worker processes:

    .venv/bin/python bench/load.py [--players 50 100] [--duration 30] [--think 0.5]
    .venv/bin/python bench/load.py --database-url postgresql+psycopg://u:pw@127.0.0.1/db

SQLite (the default: a temporary file) runs one server process, PostgreSQL two
(``--workers`` overrides). The PostgreSQL database must be one you can throw away: the bench
empties its ``games`` and ``players`` tables before it starts.

A player is an ``httpx.AsyncClient`` of its own (so it keeps its own player cookie). It starts
a game of a random deal, then plays: it picks a legal move from the last state it was sent (a
removal when there is one, like a player; else draw or recycle), waits its think time, and
posts it with ``If-Match``; every ``--get-every`` moves it reads the game with GET instead of
trusting the move's answer. When the game ends it starts another. ``--think 0`` makes every
player post as fast as the server answers: that run gives the most moves per second.

Server CPU is the user plus system time of uvicorn and its workers over the measured window,
divided by the moves (and by all requests) answered in it; "PostgreSQL CPU" is that of every
``postgres`` process on the machine, other users' included.

The players share one event loop, uvloop's when it is installed (uvicorn[standard] brings it):
a busy client loop shows up as latency in its own figures, and uvloop's costs it least. For
the same reason the client's garbage collector is off during a run (and collects between
runs): httpx leaves cyclic garbage behind each request, and the client's full collections
paused every request in flight for 45-190 ms every few seconds, which this bench used to
report as the server's p99.

Traffic goes only to 127.0.0.1, for ``--warmup`` plus ``--duration`` seconds per run, and
never more than ``--max-requests`` requests in all. Nothing here is a test: the figures go
into the README.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx

PROJECT = Path(__file__).resolve().parents[1]
T = TypeVar("T")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
START_TIMEOUT = 60.0
REQUEST_TIMEOUT = 30.0

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.machine import speed_line  # noqa: E402


# --- the server --------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def process_tree(root: int) -> list[int]:
    """``root`` and every process below it (uvicorn's workers, multiprocessing helpers)."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        parents.setdefault(ppid, []).append(int(entry))
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(parents.get(pid, []))
    return tree


def cpu_times(pids: list[int]) -> dict[int, float]:
    """User plus system CPU seconds of each of ``pids`` still running."""
    times = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        times[pid] = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime
    return times


def cpu_used(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds used between two ``cpu_times``, by the processes alive at both."""
    return sum(after[pid] - before[pid] for pid in before.keys() & after.keys())


def postgres_pids() -> list[int]:
    """Every process of the local PostgreSQL cluster (its CPU is the database's share)."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if Path(f"/proc/{entry}/comm").read_text().strip() == "postgres":
                    pids.append(int(entry))
            except OSError:
                continue
    return pids


class Server:
    """uvicorn serving ``app.main:app`` from ``app_dir`` on a free port, after prestart."""

    def __init__(self, database_url: str, workers: int, app_dir: Path, log: Path,
                 log_format: str = "off") -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "DATABASE_URL": database_url, "ENVIRONMENT": "test",
                    "SECRET_KEY": secrets.token_urlsafe(32), "ALLOWED_HOSTS": "127.0.0.1"}
        self.workers = workers
        self.app_dir = app_dir
        self.log = log
        self.log_format = log_format
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Server:
        migrated = subprocess.run([sys.executable, "-m", "app.prestart"], cwd=self.app_dir,
                                  env=self.env, capture_output=True, text=True)
        if migrated.returncode:
            raise SystemExit(f"prestart failed:\n{migrated.stdout}{migrated.stderr}")
        # By default no access log: the figures are the app's cost, not the cost of printing
        # a line per request. --log-format text or json writes the app's own access line
        # (app.logs) to the server's log file, as app.serve does in production.
        logging = ["--log-level", "warning"]
        if self.log_format != "off":
            config = self.log.with_suffix(".logging.json")
            written = subprocess.run(
                [sys.executable, "-c", "import json, sys; from app.logs import logging_config; "
                 "json.dump(logging_config(sys.argv[1]), open(sys.argv[2], 'w'))",
                 self.log_format, str(config)], cwd=self.app_dir, env=self.env)
            if written.returncode:
                raise SystemExit("--log-format needs a checkout with app/logs.py")
            logging = ["--log-config", str(config)]
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "app.main:app", "--app-dir", str(self.app_dir),
                 "--host", "127.0.0.1", "--port", str(self.port),
                 "--workers", str(self.workers), "--no-access-log", *logging],
                cwd=self.app_dir, env=self.env, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"the server stopped: see {self.log}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        else:
            self.__exit__()
            raise SystemExit(f"the server did not start within {START_TIMEOUT:g} s")
        # Every worker answers /healthz before the run starts (each imports the app lazily).
        if self.workers > 1:
            time.sleep(2)
        return self

    def pids(self) -> list[int]:
        assert self.process is not None
        return process_tree(self.process.pid)

    def __exit__(self, *_exc: object) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()  # uvicorn stops its workers on SIGTERM
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def empty_postgres(database_url: str) -> None:
    """Empty the bench's PostgreSQL tables (after prestart has made them)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(database_url)
    with engine.begin() as connection:
        connection.execute(text("TRUNCATE games, players"))
    engine.dispose()


# --- the players -------------------------------------------------------------------------------
@dataclass
class Tally:
    """What the players saw in the measured window (requests started inside it)."""

    moves: list[float] = field(default_factory=list)
    gets: list[float] = field(default_factory=list)
    creates: list[float] = field(default_factory=list)
    failures: dict[str, int] = field(default_factory=dict)
    games_ended: int = 0
    requests: int = 0

    def fail(self, what: str) -> None:
        self.failures[what] = self.failures.get(what, 0) + 1


@dataclass
class Run:
    url: str
    players: int
    warmup: float
    duration: float
    think: float
    get_every: int
    goal: str
    passes: int
    max_requests: int
    tally: Tally = field(default_factory=Tally)
    sent: int = 0
    start: float = 0.0
    end: float = 0.0

    def measured(self, began: float) -> bool:
        return self.start <= began < self.end

    def over(self) -> bool:
        return time.perf_counter() >= self.end or self.sent >= self.max_requests


def choose(state: dict, rng: random.Random) -> dict:
    """A legal move from ``state``: a removal when there is one (a King or a pair), like a
    player; otherwise draw or recycle."""
    legal = state["legal_moves"]
    removals = [move for move in legal if move["op"] == "remove"]
    return rng.choice(removals or legal)


async def request(run: Run, client: httpx.AsyncClient, kind: str, method: str, path: str,
                  **kwargs) -> httpx.Response | None:
    """One request, timed; a non-2xx answer or a network error counts as a failure."""
    run.sent += 1
    began = time.perf_counter()
    try:
        response = await client.request(method, path, **kwargs)
    except httpx.HTTPError as exc:
        if run.measured(began):
            run.tally.fail(f"{kind}: {type(exc).__name__}")
        return None
    took = time.perf_counter() - began
    if run.measured(began):
        run.tally.requests += 1
        if response.is_success:
            getattr(run.tally, kind).append(took)
        else:
            run.tally.fail(f"{kind}: HTTP {response.status_code}")
    return response if response.is_success else None


async def think(run: Run, rng: random.Random) -> None:
    if run.think > 0:
        await asyncio.sleep(rng.uniform(0.5, 1.5) * run.think)


async def player(run: Run, number: int) -> None:
    rng = random.Random(number)
    # Spread the first requests over the first think time, as players arriving.
    await asyncio.sleep(rng.uniform(0, run.think or 0.05))
    async with httpx.AsyncClient(base_url=run.url, timeout=REQUEST_TIMEOUT) as client:
        state: dict | None = None
        moves = 0
        while not run.over():
            if state is None or state["status"] != "playing":
                if state is not None and run.measured(time.perf_counter()):
                    run.tally.games_ended += 1
                answer = await request(run, client, "creates", "POST", "/api/games", json={
                    "deal": rng.randint(1, 1_000_000_000), "goal": run.goal,
                    "passes": run.passes})
                state = answer.json() if answer is not None else None
                if state is None:
                    await asyncio.sleep(0.5)  # a failed start: don't spin
                continue
            await think(run, rng)
            if run.over():
                break
            chosen = choose(state, rng)
            answer = await request(run, client, "moves", "POST",
                                   f"/api/games/{state['id']}/moves", json=chosen,
                                   headers={"If-Match": f'"{state["version"]}"'})
            if answer is None:
                state = None  # start afresh rather than retry blindly
                continue
            state = answer.json()
            moves += 1
            if run.get_every and moves % run.get_every == 0 and state["status"] == "playing":
                answer = await request(run, client, "gets", "GET", f"/api/games/{state['id']}")
                if answer is not None:
                    if answer.headers.get("etag") != f'"{answer.json()["version"]}"':
                        run.tally.fail("gets: ETag is not the version")
                    state = answer.json()


async def play(run: Run) -> None:
    now = time.perf_counter()
    run.start = now + run.warmup
    run.end = run.start + run.duration
    await asyncio.gather(*(player(run, number) for number in range(run.players)))


# --- figures -----------------------------------------------------------------------------------
def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (``share`` of 1), in milliseconds."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))] * 1000


def spread(values: list[float]) -> str:
    return " ".join(f"{percentile(values, q):7.1f}" for q in (0.5, 0.95, 0.99, 1.0))


HEADER = ("players  moves/s   move ms p50     p95     p99     max    GET/s   GET ms p50     p95"
          "     p99     max  failed  server CPU ms/move  /request  server cores")


def report(run: Run, server_cpu: float, extra_cpu: dict[str, float]) -> str:
    t = run.tally
    requests = t.requests
    line = (f"{run.players:7d} {len(t.moves) / run.duration:8.1f}  {spread(t.moves)} "
            f"{len(t.gets) / run.duration:8.1f}  {spread(t.gets)}"
            f"  {sum(t.failures.values()):6d}  {server_cpu * 1000 / max(1, len(t.moves)):18.2f}"
            f"  {server_cpu * 1000 / max(1, requests):8.2f}  {server_cpu / run.duration:12.2f}")
    notes = [f"  {len(t.moves)} moves, {len(t.gets)} GETs, {len(t.creates)} games started "
             f"(p50 {percentile(t.creates, .5):.1f} ms), {t.games_ended} ended; "
             f"{requests} requests answered"]
    notes += [f"  {name} CPU: {seconds * 1000 / max(1, len(t.moves)):.2f} ms/move, "
              f"{seconds / run.duration:.2f} cores" for name, seconds in extra_cpu.items()]
    if t.failures:
        notes.append("  failures: " + ", ".join(f"{k} x{v}" for k, v in sorted(t.failures.items())))
    if run.sent >= run.max_requests:
        notes.append(f"  stopped early at --max-requests {run.max_requests}: the rates are low")
    return "\n".join([line, *notes])


def run_loop(main: Coroutine[Any, Any, T]) -> T:
    """``main`` on uvloop's event loop when there is one, else asyncio's."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def measure(server: Server, run: Run, postgres: bool) -> str:
    own = os.getpid()

    async def timed() -> tuple[float, float, float]:
        task = asyncio.ensure_future(play(run))
        await asyncio.sleep(run.warmup)
        # After the warm-up: the database's backends exist once the pools have connected.
        pids = server.pids()
        db_pids = postgres_pids() if postgres else []
        before = cpu_times(pids), cpu_times(db_pids), cpu_times([own])
        await asyncio.sleep(max(0.0, run.end - time.perf_counter()))
        after = cpu_times(pids), cpu_times(db_pids), cpu_times([own])
        await task
        return tuple(cpu_used(b, a) for b, a in zip(before, after, strict=True))

    gc.collect()
    gc.disable()  # see the module's docstring: the client's pauses are not the server's
    try:
        server_cpu, db_cpu, client_cpu = run_loop(timed())
    finally:
        gc.enable()
        gc.collect()
    extra = {"bench client": client_cpu}
    if postgres:
        extra["PostgreSQL"] = db_cpu
    return report(run, server_cpu, extra)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[50],
                        help="players per run; several numbers make several runs (default 50)")
    parser.add_argument("--duration", type=float, default=30.0,
                        help="measured seconds per run (default 30)")
    parser.add_argument("--warmup", type=float, default=5.0,
                        help="seconds played before measuring, per run (default 5)")
    parser.add_argument("--think", type=float, default=0.5,
                        help="a player's mean pause before each move, seconds (uniform from "
                             "half to one and a half times it; 0: none; default 0.5)")
    parser.add_argument("--get-every", type=int, default=4,
                        help="read the game with GET after every this many moves (0: never; "
                             "default 4)")
    parser.add_argument("--goal", choices=("standard", "wholedeck"), default="standard")
    parser.add_argument("--passes", type=int, choices=(1, 2, 3), default=3)
    parser.add_argument("--database-url", help="a PostgreSQL database to throw away (default: "
                                               "a temporary SQLite file)")
    parser.add_argument("--workers", type=int,
                        help="server processes (default: 1 for SQLite, 2 for PostgreSQL)")
    parser.add_argument("--max-requests", type=int, default=500_000,
                        help="stop a run after this many requests whatever the time")
    parser.add_argument("--app-dir", type=Path, default=PROJECT,
                        help="the checkout to serve (default: this one)")
    parser.add_argument("--log-format", choices=("off", "text", "json"), default="off",
                        help="the app's access line, one per request, as LOG_FORMAT writes it "
                             "(default off: no line, the app's cost alone)")
    args = parser.parse_args()
    print(speed_line(), flush=True)

    postgres = bool(args.database_url) and not args.database_url.startswith("sqlite")
    workers = args.workers or (2 if postgres else 1)
    with tempfile.TemporaryDirectory(prefix="pyramid-load-") as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'load.db'}"
        server = Server(url, workers, args.app_dir.resolve(), Path(folder) / "server.log",
                        args.log_format)
        with server:
            if postgres:
                empty_postgres(url)
            kind = "PostgreSQL" if postgres else "SQLite"
            print(f"{kind}, {workers} server process{'es' if workers > 1 else ''}, "
                  f"{args.goal} {args.passes} passes, think {args.think:g} s, GET every "
                  f"{args.get_every} moves, {args.duration:g} s measured after "
                  f"{args.warmup:g} s warm-up", flush=True)
            print(HEADER, flush=True)
            for players in args.players:
                run = Run(server.url, players, args.warmup, args.duration, args.think,
                          args.get_every, args.goal, args.passes, args.max_requests)
                print(measure(server, run, postgres), flush=True)
            if server.process is not None and server.process.poll() is not None:
                print(Path(server.log).read_text(), file=sys.stderr)


if __name__ == "__main__":
    main()

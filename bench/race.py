"""Race benchmark (issue 44): how long a racer's move takes to reach every watcher's strip.

    .venv/bin/python bench/race.py [--racers 8] [--watchers 200] [--moves 40]
    .venv/bin/python bench/race.py --database-url postgresql+psycopg://u:pw@127.0.0.1/db
    .venv/bin/python bench/race.py --idle-streams 2000
    .venv/bin/python bench/race.py --proxy --database-url postgresql+psycopg://u:pw@127.0.0.1/db

Starts the server as ``bench/load.py`` does (SQLite: one process; PostgreSQL: two, so that a
move saved by one process reaches the streams held by the other through NOTIFY). A race of
``--racers`` players is made and started; ``--watchers`` streams (``/races/{key}/events``)
follow it. Each racer then plays ``--moves`` moves through the game API, one every
``--pause`` seconds or so. For each move, the time from sending it to each stream's first event
showing that racer with that many moves is one sample (so 8 racers x 40 moves x 208 streams
is some 66,000 samples). Printed: p50 / p95 / p99 / max in ms, the samples missing (a stream
that never showed a move), and the client's and server's CPU.

``--proxy`` (PostgreSQL only) runs the production set-up instead, as
``bench/race_failover.py`` does (``tests/deploy/proxysite.py``, imported): Debian's nginx with
``deploy/pyramid.conf.template``, over TLS, in front of two ``app.serve`` processes. Every
racer and every watcher is then a client of its own (its own cookie), so that nginx spreads
them over the two apps as it spreads browsers; the moves and the streams all go through nginx.
Printed too: how many streams each app served (nginx's access log).

The watchers run in this process with the racers: their JSON parsing is client CPU, which the
figures include; ``--watchers 0`` measures the racers' own streams alone.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import random
import ssl
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))
spec = importlib.util.spec_from_file_location("load", HERE / "load.py")
load = importlib.util.module_from_spec(spec)
sys.modules["load"] = load  # its dataclasses look their module up
spec.loader.exec_module(load)


class Seen:
    def __init__(self) -> None:
        self.sent: dict[tuple[int, int], float] = {}
        self.arrived: dict[tuple[int, int], list[float]] = {}
        self.streams = 0
        self.answered: list[float] = []


async def fields(stream: httpx.Response) -> AsyncIterator[tuple[str, str]]:
    """A Server-Sent Events stream's fields as EventSource reads them: ``(name, value)`` for
    each ``id:``, ``data:`` and ``retry:`` line (comments and blank lines skipped)."""
    async for line in stream.aiter_lines():
        name, colon, value = line.partition(":")
        if colon and name in ("id", "data", "retry"):
            yield name, value[1:] if value.startswith(" ") else value


async def next_move(client: httpx.AsyncClient, game: str,
                    rng: random.Random) -> tuple[httpx.Response, dict] | None:
    """The game as it is now and a racer's next move in it (one of its legal moves, at
    random), or None once the game is over."""
    state = await client.get(f"/api/games/{game}")
    if state.json()["status"] != "playing":
        return None
    return state, rng.choice(state.json()["legal_moves"])


async def watch(client: httpx.AsyncClient, key: str, seen: Seen, ready: asyncio.Event,
                stop: asyncio.Event, opened: list[int]) -> None:
    shown: dict[int, int] = {}
    async with client.stream("GET", f"/races/{key}/events") as stream:
        opened[0] += 1
        if opened[0] >= seen.streams:
            ready.set()
        async for field, value in fields(stream):
            if stop.is_set():
                return
            if field != "data":
                continue
            now = time.monotonic()
            for racer in json.loads(value)["racers"]:
                moves = racer["moves"]
                if moves > shown.get(racer["id"], 0):
                    for step in range(shown.get(racer["id"], 0) + 1, moves + 1):
                        seen.arrived.setdefault((racer["id"], step), []).append(now)
                    shown[racer["id"]] = moves


async def race(base: str, racers: int, watchers: int, moves: int, pause: float,
               proxied: bool = False) -> Seen:
    """With ``proxied``: TLS (a throwaway certificate) and a client, so a cookie, for each
    watcher, as browsers behind nginx."""
    seen = Seen()
    limits = httpx.Limits(max_connections=watchers + racers + 20)
    tls = ssl.create_default_context()
    if proxied:  # the throwaway certificate; one context for every client
        tls.check_hostname, tls.verify_mode = False, ssl.CERT_NONE
    clients = [httpx.AsyncClient(base_url=base, timeout=30, verify=tls) for _ in range(racers)]
    watching = httpx.AsyncClient(base_url=base, timeout=None, limits=limits)
    own = [httpx.AsyncClient(base_url=base, timeout=None, verify=tls)
           for _ in range(watchers if proxied else 0)]
    try:
        made = (await clients[0].post("/api/races", json={"difficulty": "easy"})).json()
        key = made["key"]
        games = [made["you"]["game"]]
        for client in clients[1:]:
            games.append((await client.post(f"/api/races/{key}/join")).json()["game"])
        seen.streams = watchers + racers
        ready, stop, opened = asyncio.Event(), asyncio.Event(), [0]
        tasks = [asyncio.create_task(watch((own[n] if own else watching) if n < watchers
                                           else clients[n - watchers],
                                           key, seen, ready, stop, opened))
                 for n in range(watchers + racers)]
        await asyncio.wait_for(ready.wait(), 60)
        await clients[0].post(f"/api/races/{key}/start")
        while (await clients[0].get(f"/api/races/{key}")).json()["status"] != "running":
            await asyncio.sleep(0.05)

        async def play(number: int, client: httpx.AsyncClient, game: str) -> None:
            rng = random.Random(number)
            for step in range(1, moves + 1):
                chosen = await next_move(client, game, rng)
                if chosen is None:
                    return
                move = chosen[1]
                seen.sent[(number, step)] = time.monotonic()
                answer = await client.post(f"/api/games/{game}/moves", json=move)
                seen.answered.append(time.monotonic() - seen.sent[(number, step)])
                if answer.status_code != 200:
                    del seen.sent[(number, step)]
                    return
                await asyncio.sleep(pause * rng.uniform(0.5, 1.5))

        await asyncio.gather(*(play(n + 1, clients[n], games[n]) for n in range(racers)))
        await asyncio.sleep(2)  # the last events arrive
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        await watching.aclose()
        for client in clients + own:
            await client.aclose()
    return seen


def rss_kib(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


async def idle(base: str, streams: int, pids: list[int]) -> None:
    """``streams`` open streams of one race: the server's memory per stream, and a
    bystander's GET meanwhile."""
    maker = httpx.AsyncClient(base_url=base, timeout=30)
    watching = httpx.AsyncClient(base_url=base, timeout=None,
                                 limits=httpx.Limits(max_connections=streams + 10))
    key = (await maker.post("/api/races", json={})).json()["key"]
    before = rss_kib(pids)
    ready, stop, opened = asyncio.Event(), asyncio.Event(), [0]
    seen = Seen()
    seen.streams = streams
    tasks = [asyncio.create_task(watch(watching, key, seen, ready, stop, opened))
             for _ in range(streams)]
    await asyncio.wait_for(ready.wait(), 300)
    await asyncio.sleep(2)
    after = rss_kib(pids)
    timings = []
    for _ in range(300):
        start = time.monotonic()
        assert (await maker.get(f"/api/races/{key}")).status_code == 200
        timings.append(time.monotonic() - start)
        await asyncio.sleep(0.02)
    print(f"{streams} streams open: server RSS {before / 1024:.1f} -> {after / 1024:.1f} MiB, "
          f"{(after - before) / streams:.1f} KiB a stream")
    print(f"a bystander's GET /api/races/{{key}} ms p50 / p95 / p99 / max: "
          f"{load.spread(timings)}")
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await watching.aclose()
    await maker.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--racers", type=int, default=8)
    parser.add_argument("--watchers", type=int, default=200)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--pause", type=float, default=0.5)
    parser.add_argument("--database-url")
    parser.add_argument("--proxy", action="store_true",
                        help="nginx (TLS) in front of two app processes (PostgreSQL)")
    parser.add_argument("--idle-streams", type=int, default=0,
                        help="instead: open this many streams; memory and a bystander's GET")
    args = parser.parse_args()
    if args.proxy:
        proxied(args)
        return
    folder = Path(tempfile.mkdtemp(prefix="race-bench-"))
    url = args.database_url or f"sqlite:///{folder / 'race.db'}"
    postgres = url.startswith("postgresql")
    if postgres:
        load.empty_postgres(url)
    server = load.Server(url, 2 if postgres else 1, HERE.parent, folder / "server.log")
    server.env.update({"RACE_STREAMS_PER_ADDRESS": "100000", "RACE_COUNTDOWN_SECONDS": "1",
                       "GAME_BURST": "100000", "ADDRESS_GAME_BURST": "100000"})
    with server:
        pids = server.pids()
        if args.idle_streams:
            asyncio.run(idle(server.url, args.idle_streams, pids))
            return
        before = load.cpu_times(pids)
        client_before = time.process_time()
        seen = asyncio.run(race(server.url, args.racers, args.watchers, args.moves, args.pause))
        server_cpu = load.cpu_used(before, load.cpu_times(pids))
        client_cpu = time.process_time() - client_before
    figures(seen, args, "PostgreSQL, 2 processes" if postgres else "SQLite, 1 process",
            server_cpu, client_cpu)


def proxied(args: argparse.Namespace) -> None:
    """The race through nginx in front of two app processes, as race_failover.py sets it up."""
    from app.prestart import migrate
    from bench.machine import speed_line
    from tests.deploy import proxysite

    if not (args.database_url or "").startswith("postgresql"):
        raise SystemExit("--proxy runs two app processes: --database-url postgresql+...")
    print(speed_line())
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    migrate(args.database_url)
    load.empty_postgres(args.database_url)
    site = proxysite.Site(Path(tempfile.mkdtemp(prefix="race-bench-proxy-")),
                          args.database_url)
    site.env.update({"RACE_STREAMS_PER_ADDRESS": "100000", "RACE_COUNTDOWN_SECONDS": "1",
                     "GAME_BURST": "100000", "ADDRESS_GAME_BURST": "100000"})
    try:
        site.both_apps()
        site.proxy.start()
        apps = [pid for process in site.apps.values() for pid in load.process_tree(process.pid)]
        nginx = load.process_tree(site.proxy.process.pid)
        before, nginx_before = load.cpu_times(apps), load.cpu_times(nginx)
        client_before = time.process_time()
        seen = asyncio.run(race(site.proxy.base, args.racers, args.watchers, args.moves,
                                args.pause, proxied=True))
        server_cpu = load.cpu_used(before, load.cpu_times(apps))
        nginx_cpu = load.cpu_used(nginx_before, load.cpu_times(nginx))
        client_cpu = time.process_time() - client_before
    finally:
        site.close()
    served: dict[str, int] = {}
    moved: dict[str, int] = {}
    for line in site.proxy.access_lines():
        if line["uri"].endswith("/events"):
            served[line["upstream"]] = served.get(line["upstream"], 0) + 1
        elif line["method"] == "POST" and line["uri"].endswith("/moves"):
            moved[line["upstream"]] = moved.get(line["upstream"], 0) + 1
    figures(seen, args, "PostgreSQL, nginx (TLS) + 2 app processes", server_cpu, client_cpu)
    print(f"each app's streams {dict(sorted(served.items()))} and moves "
          f"{dict(sorted(moved.items()))} (nginx's log); "
          f"nginx CPU s {nginx_cpu:.1f}; load average after: {os.getloadavg()[0]:.2f}")
    sys.stdout.flush()


def figures(seen: Seen, args: argparse.Namespace, what: str, server_cpu: float,
            client_cpu: float) -> None:
    samples = [arrived - seen.sent[move] for move, times in seen.arrived.items()
               if move in seen.sent for arrived in times]
    expected = len(seen.sent) * seen.streams
    print(f"{what}: {args.racers} racers, {args.watchers} watchers, {len(seen.sent)} moves")
    print(f"move -> strip ms  p50 / p95 / p99 / max: {load.spread(samples)}")
    print(f"the move's own answer ms p50 / p95 / p99 / max: {load.spread(seen.answered)}")
    print(f"samples {len(samples)} of {expected} (missing {expected - len(samples)}); "
          f"CPU s: server {server_cpu:.1f}, client {client_cpu:.1f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()

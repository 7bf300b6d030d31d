"""Race failover benchmark (issue 44): one app process killed (kill -9) mid-race behind nginx.

    .venv/bin/python bench/race_failover.py [--watchers 50] [--racers 8] [--seconds 24]
        [--kill-at 10] [--pause 0.5] [--kill 1|2]
        [--database-url postgresql+psycopg://pyramid_test:pyramid_test@127.0.0.1:5432/db]

The production set-up minus containers, as ``tests/deploy/test_proxy.py`` runs it (its
``tests/deploy/proxysite.py``, imported): Debian's nginx with ``deploy/pyramid.conf.template``
in front of two ``app.serve`` processes on one PostgreSQL database (migrated here; races are
kept apart by their keys, so the database need not be empty). A race of ``--racers`` is made
and started through nginx; every racer and ``--watchers`` watchers follow its stream
(``/races/{key}/events``) through nginx, each on a client of its own (its own cookie, so nginx
spreads them over the two apps as it spreads browsers). The racers move through nginx, each
about every ``--pause`` seconds, as the board does: the game's state, then a move with
``If-Match`` (so that a move caught by the kill is sent to the other app, where a move already
played is a 412, never a second move). ``--kill-at`` seconds into the moves the app process
``--kill`` is killed with SIGKILL, at a moment when a racer's move is in flight (on either
app); the racers go on until ``--seconds``.

Each stream is read as EventSource reads it: ``retry:`` sets the wait before a reconnect (3 s
until the stream says), and a dropped stream reconnects after that wait with ``Last-Event-ID``
(the last id it received). A reconnect answered with anything but a 200 event stream would end
a browser's EventSource for good: it is counted as a failure (the bench tries again).

Printed: the streams the kill cut; for them, the time from the kill to the reconnect's answer
and to the first event received after reconnecting (p50 / p95 / max, ms); events missed (ids
skipped, up to the race's last event) and repeated, over every stream; the moves answered 2xx,
412 and 5xx; acknowledged moves missing from the final state (``GET /api/races/{key}`` and
each game's ``GET /api/games/{id}``). Exit status 1 if an event was missed or repeated, a
reconnect refused, or an acknowledged move lost.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.prestart import migrate
from bench import race as racebench
from bench.machine import speed_line
from tests.deploy import proxysite

load = racebench.load
DEFAULT_URL = "postgresql+psycopg://pyramid_test:pyramid_test@127.0.0.1:5432/pyramid_test"
EVENTSOURCE_DEFAULT_RETRY = 3.0
"""What a browser waits before reconnecting until the stream sends ``retry:``."""


@dataclass
class Stream:
    """One EventSource's life: every event's id and arrival, its drops and reconnects."""

    name: str
    events: list[tuple[int, float]] = field(default_factory=list)
    drops: list[float] = field(default_factory=list)
    opened: list[float] = field(default_factory=list)
    refused: list[int] = field(default_factory=list)  # a reconnect's non-200 answers
    retry_ms: int | None = None


@dataclass
class Racer:
    number: int
    client: httpx.AsyncClient
    game: str
    acknowledged: list[tuple[int, dict]] = field(default_factory=list)  # (moves count, move)
    outcomes: dict[str, int] = field(default_factory=dict)

    def note(self, outcome: str) -> None:
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1


class Clock:
    def __init__(self) -> None:
        self.kill: float | None = None
        self.moving = True
        self.posting = 0  # moves sent and not yet answered
        self.caught = 0  # of them, at the kill


async def follow(client: httpx.AsyncClient, key: str, stream: Stream) -> None:
    """Read the race's stream as EventSource does, for ever (the caller cancels it)."""
    last: int | None = None
    retry = EVENTSOURCE_DEFAULT_RETRY
    while True:
        headers = {"Last-Event-ID": str(last)} if last is not None else {}
        try:
            async with client.stream("GET", f"/races/{key}/events", headers=headers) as answer:
                kind = answer.headers.get("content-type", "")
                if answer.status_code != 200 or not kind.startswith("text/event-stream"):
                    stream.refused.append(answer.status_code)
                else:
                    stream.opened.append(time.monotonic())
                    pending: int | None = None
                    async for name, value in racebench.fields(answer):
                        if name == "retry" and value.isdigit():
                            stream.retry_ms = int(value)
                            retry = int(value) / 1000
                        elif name == "id" and value.isdigit():
                            pending = int(value)
                        elif name == "data" and pending is not None:
                            stream.events.append((pending, time.monotonic()))
                            last, pending = pending, None
        except httpx.HTTPError:
            pass
        stream.drops.append(time.monotonic())
        await asyncio.sleep(retry)


async def play(racer: Racer, clock: Clock, pause: float) -> None:
    """Move every ``pause`` seconds or so as the board does, until told to stop or the game
    ends; every outcome counted, every acknowledged move kept."""
    rng = random.Random(racer.number)
    while clock.moving:
        try:
            chosen = await racebench.next_move(racer.client, racer.game, rng)
        except (httpx.HTTPError, ValueError, KeyError):
            racer.note("read failed")
            await asyncio.sleep(pause)
            continue
        if chosen is None:
            return
        state, move = chosen
        clock.posting += 1
        try:
            answer = await racer.client.post(f"/api/games/{racer.game}/moves", json=move,
                                             headers={"If-Match": state.headers["etag"]})
        except httpx.HTTPError:
            racer.note("no answer")
            continue
        finally:
            clock.posting -= 1
        racer.note(str(answer.status_code))
        if answer.is_success:
            racer.acknowledged.append((len(answer.json()["moves"]), move))
        await asyncio.sleep(pause * rng.uniform(0.5, 1.5))


def kill(process) -> None:
    """kill -9 the app process and whatever runs under it (a container's end)."""
    for pid in reversed(load.process_tree(process.pid)):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    process.wait(timeout=10)


async def last_event(base: str, key: str) -> int:
    """The race's last event id: a new stream's first event is the last one."""
    async with httpx.AsyncClient(base_url=base, verify=False, timeout=10) as client, \
            client.stream("GET", f"/races/{key}/events") as answer:
        async for name, value in racebench.fields(answer):
            if name == "id":
                return int(value)
    raise RuntimeError("the stream ended without an event")


async def race(site: proxysite.Site, args: argparse.Namespace) -> dict:
    base = site.proxy.base
    streaming = httpx.Timeout(10, read=120)
    clients = [httpx.AsyncClient(base_url=base, verify=False, timeout=30)
               for _ in range(args.racers)]
    watchers = [httpx.AsyncClient(base_url=base, verify=False, timeout=streaming)
                for _ in range(args.watchers)]
    clock = Clock()
    try:
        made = await clients[0].post("/api/races", json={"difficulty": "easy"})
        key = made.json()["key"]
        games = [made.json()["you"]["game"]]
        for client in clients[1:]:
            games.append((await client.post(f"/api/races/{key}/join")).json()["game"])
        racers = [Racer(n + 1, clients[n], games[n]) for n in range(args.racers)]
        streams = ([Stream(f"racer {n + 1}") for n in range(args.racers)]
                   + [Stream(f"watcher {n + 1}") for n in range(args.watchers)])
        tasks = [asyncio.create_task(follow(client, key, stream))
                 for client, stream in zip(clients + watchers, streams, strict=True)]
        deadline = time.monotonic() + 60
        while not all(stream.events for stream in streams):
            if time.monotonic() > deadline:
                raise RuntimeError("the streams did not all open within 60 s")
            await asyncio.sleep(0.1)
        await clients[0].post(f"/api/races/{key}/start")
        while (await clients[0].get(f"/api/races/{key}")).json()["status"] != "running":
            await asyncio.sleep(0.05)

        async def killer() -> None:
            await asyncio.sleep(args.kill_at)
            while not clock.posting:  # with moves in flight, one of them maybe on that app
                await asyncio.sleep(0.001)
            clock.caught = clock.posting
            address = proxysite.APP_ADDRESSES[args.kill - 1]
            process = site.apps.pop(address)
            clock.kill = time.monotonic()
            await asyncio.to_thread(kill, process)

        async def whistle() -> None:
            await asyncio.sleep(args.seconds)
            clock.moving = False

        await asyncio.gather(killer(), whistle(),
                             *(play(racer, clock, args.pause) for racer in racers))
        last = await last_event(base, key)
        deadline = time.monotonic() + 15
        while any(not s.events or s.events[-1][0] < last for s in streams):
            if time.monotonic() > deadline:
                break
            await asyncio.sleep(0.1)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        lost = []
        final_moves = {}
        for racer in racers:
            game = (await racer.client.get(f"/api/games/{racer.game}")).json()
            shown = (await racer.client.get(f"/api/races/{key}")).json()
            (mine,) = [r for r in shown["racers"] if r["you"]]
            final_moves[racer.number] = (len(game["moves"]), mine["moves"])
            for count, move in racer.acknowledged:
                if len(game["moves"]) < count or game["moves"][count - 1] != move:
                    lost.append((racer.number, count, move))
            if mine["moves"] != len(game["moves"]):
                lost.append((racer.number, "race shows", mine["moves"], len(game["moves"])))
        passed_on = [(line["upstream_status"], line["status"])
                     for line in site.proxy.access_lines()
                     if line["method"] == "POST"
                     and ("," in line["upstream"] or " : " in line["upstream"])]
        return {"passed_on": passed_on, "key": key, "streams": streams, "racers": racers,
                "last": last, "lost": lost,
                "kill": clock.kill, "caught": clock.caught, "final": final_moves}
    finally:
        for client in clients + watchers:
            await client.aclose()


def ms(values: list[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)

    def at(share: float) -> float:
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]

    return f"{1000 * at(0.5):.0f} / {1000 * at(0.95):.0f} / {1000 * ordered[-1]:.0f}"


def report(result: dict) -> bool:
    """Print the figures; True when nothing was missed, repeated, refused or lost."""
    killed = result["kill"]
    streams: list[Stream] = result["streams"]
    missed = repeated = 0
    for stream in streams:
        ids = [event_id for event_id, _ in stream.events]
        seen: set[int] = set()
        for event_id in ids:
            if event_id in seen:
                repeated += 1
            seen.add(event_id)
        if ids:
            missed += len(set(range(ids[0], result["last"] + 1)) - seen)
        else:
            missed += 1
    cut = [s for s in streams if any(drop >= killed for drop in s.drops)]
    reopened, first_event, stayed = [], [], []
    for stream in cut:
        back = [t for t in stream.opened if t > killed]
        if back:
            reopened.append(back[0] - killed)
            after = [t for _, t in stream.events if t >= back[0]]
            if after:
                first_event.append(after[0] - killed)
    for stream in streams:
        if stream not in cut:
            after = [t for _, t in stream.events if t > killed]
            if after:
                stayed.append(after[0] - killed)
    refused = [code for s in streams for code in s.refused]
    outcomes: dict[str, int] = {}
    for racer in result["racers"]:
        for outcome, count in racer.outcomes.items():
            outcomes[outcome] = outcomes.get(outcome, 0) + count
    acknowledged = sum(len(r.acknowledged) for r in result["racers"])
    retries = sorted({s.retry_ms for s in streams if s.retry_ms is not None})
    print(f"events 1..{result['last']}; the stream's retry: {retries} ms")
    print(f"streams {len(streams)}: cut by the kill {len(cut)}, reconnected {len(reopened)}, "
          f"with an event since {len(first_event)}; on the other app {len(streams) - len(cut)}")
    print(f"kill -> reconnect answered  ms p50 / p95 / max: {ms(reopened)}")
    print(f"kill -> first event after reconnecting ms p50 / p95 / max: {ms(first_event)}")
    print(f"(streams not cut: kill -> their next event ms p50 / p95 / max: {ms(stayed)})")
    print(f"events missed {missed}, repeated {repeated}; reconnects refused {len(refused)} "
          f"{sorted(set(refused))}")
    print(f"moves in flight at the kill {result['caught']} (on either app); nginx passed "
          f"{len(result['passed_on'])} on to the other app (upstream statuses, status: "
          f"{result['passed_on']}); answers: {dict(sorted(outcomes.items()))}; "
          f"acknowledged {acknowledged}, lost "
          f"{len(result['lost'])} {result['lost'][:5]}")
    over = [t for t in first_event if t > 3]
    print(f"first event after reconnecting later than 3 s: {len(over)} of {len(first_event)}")
    return not (missed or repeated or refused or result["lost"]
                or len(first_event) != len(cut))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--racers", type=int, default=8)
    parser.add_argument("--watchers", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=24)
    parser.add_argument("--kill-at", type=float, default=10)
    parser.add_argument("--kill", type=int, choices=(1, 2), default=1)
    parser.add_argument("--pause", type=float, default=0.5)
    parser.add_argument("--database-url",
                        default=os.environ.get("TEST_DATABASE_URL", DEFAULT_URL))
    args = parser.parse_args()
    if not args.database_url.startswith("postgresql"):
        raise SystemExit("two app processes need PostgreSQL: --database-url postgresql+...")
    print(speed_line())
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    migrate(args.database_url)
    folder = Path(tempfile.mkdtemp(prefix="race-failover-"))
    site = proxysite.Site(folder, args.database_url)
    site.env.update({"RACE_STREAMS_PER_ADDRESS": "100000", "RACE_COUNTDOWN_SECONDS": "1",
                     "GAME_BURST": "100000", "ADDRESS_GAME_BURST": "100000"})
    try:
        site.both_apps()
        site.proxy.start()
        result = asyncio.run(race(site, args))
    finally:
        site.close()
    print(f"{args.racers} racers, {args.watchers} watchers, nginx and 2 app processes on "
          f"PostgreSQL; app {args.kill} killed (SIGKILL) {args.kill_at:g} s into "
          f"{args.seconds:g} s of moves; load average after: {os.getloadavg()[0]:.2f}")
    sound = report(result)
    print(json.dumps({"race": result["key"], "final moves (game, race)": result["final"]}))
    sys.exit(0 if sound else 1)


if __name__ == "__main__":
    main()

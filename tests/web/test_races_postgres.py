"""Races across two app processes on PostgreSQL: a move played through one process reaches a
stream held by the other (LISTEN/NOTIFY); that process killed (kill -9), the stream
reconnecting to the first one with Last-Event-ID misses nothing and repeats nothing. Runs
when TEST_DATABASE_URL names a PostgreSQL database."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import AbstractContextManager, ExitStack

import httpx
import pytest

from tests.conftest import POSTGRES_URL, _reset_postgres
from tests.serving import serving as app_serving

pytestmark = pytest.mark.skipif(not POSTGRES_URL, reason="TEST_DATABASE_URL is not set")


def serving(url: str, processes: list) -> AbstractContextManager[str]:
    return app_serving(url, processes, RACE_COUNTDOWN_SECONDS="0.2",
                       RACE_HEARTBEAT_SECONDS="0.5")


@pytest.fixture(scope="module")
def two() -> Iterator[tuple[str, str, list]]:
    assert POSTGRES_URL is not None
    _reset_postgres(POSTGRES_URL)
    processes: list = []
    with ExitStack() as stack:
        yield (stack.enter_context(serving(POSTGRES_URL, processes)),
               stack.enter_context(serving(POSTGRES_URL, processes)), processes)


def events(response: httpx.Response) -> Iterator[tuple[int, dict]]:
    event_id = None
    for line in response.iter_lines():
        if line.startswith("id: "):
            event_id = int(line[4:])
        elif line.startswith("data: "):
            yield event_id, json.loads(line[6:])


def test_a_move_on_one_process_reaches_a_stream_on_the_other(two):
    one, other, processes = two
    with httpx.Client(base_url=one) as creator, httpx.Client(base_url=one) as racer, \
            httpx.Client(base_url=other, timeout=10) as watcher:
        key = creator.post("/api/races", json={"deal": 4321}).json()["key"]
        game = racer.post(f"/api/races/{key}/join").json()["game"]
        seen = []
        with watcher.stream("GET", f"/races/{key}/events") as stream:
            live = events(stream)
            seen.append(next(live))
            creator.post(f"/api/races/{key}/start")
            while seen[-1][1]["status"] != "running":
                seen.append(next(live))
            assert racer.post(f"/api/games/{game}/moves", json={"op": "draw"}).status_code == 200
            seen.append(next(live))
            moved = next(r for r in seen[-1][1]["racers"] if r["id"] == 2)
            assert moved["moves"] == 1
            # That process is killed (kill -9) under the stream, which ends.
            processes[1].kill()
            processes[1].wait(timeout=10)
            with pytest.raises((httpx.HTTPError, StopIteration)):
                next(live)
        # Two more moves; the stream comes back through the first process, from its last id.
        for _ in range(2):
            racer.post(f"/api/games/{game}/moves", json={"op": "draw"})
        with httpx.Client(base_url=one, timeout=10) as back, back.stream(
                "GET", f"/races/{key}/events",
                headers={"Last-Event-ID": str(seen[-1][0])}) as stream:
            live = events(stream)
            missed = [next(live), next(live)]
        ids = [event_id for event_id, _ in seen + missed]
        assert ids == list(range(ids[0], ids[0] + len(ids)))
        assert next(r for r in missed[-1][1]["racers"] if r["id"] == 2)["moves"] == 3

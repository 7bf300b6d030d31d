"""A race's live stream: events with ids, each holding the race's status and racers; a
reconnect with Last-Event-ID that misses nothing and repeats nothing; the open streams bounded
per address (429 with Retry-After); a stream that stops reading is cut."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.engine import Move
from app.main import create_app
from app.web.services import racestream
from tests.conftest import make_settings, run_async
from tests.web.conftest import browsers


@pytest.fixture
def race_app(sqlite_url: str):
    return create_app(make_settings(sqlite_url, race_countdown_seconds=0.2,
                                    race_heartbeat_seconds=0.3, race_streams_per_address=3))


@pytest.fixture
def clients(race_app) -> Iterator[list[TestClient]]:
    with browsers(race_app, 3) as opened:
        yield opened


def next_event(lines: Iterator[str]) -> tuple[int, dict]:
    """The next event of a stream (heartbeats and the retry line skipped)."""
    event_id = None
    for line in lines:
        if line.startswith("id: "):
            event_id = int(line[4:])
        elif line.startswith("data: "):
            assert event_id is not None, "every event has an id"
            return event_id, json.loads(line[6:])
    raise AssertionError("the stream ended")


def test_events_carry_ids_and_the_race_and_a_reconnect_misses_and_repeats_nothing(clients):
    first, second, watcher = clients
    race = first.post("/api/races", json={"deal": 1234}).json()
    key = race["key"]
    seen: list[int] = []
    with watcher.stream("GET", f"/races/{key}/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        lines = stream.iter_lines()
        event_id, data = next_event(lines)  # a new stream: the last event, the whole state
        assert data["status"] == "waiting" and len(data["racers"]) == 1
        assert "you" not in data["racers"][0]
        seen.append(event_id)
        game = second.post(f"/api/races/{key}/join").json()["game"]
        event_id, data = next_event(lines)
        assert event_id == seen[-1] + 1 and len(data["racers"]) == 2
        seen.append(event_id)
        first.post(f"/api/races/{key}/start")
        event_id, data = next_event(lines)
        assert data["status"] == "countdown" and "deal" not in data
        seen.append(event_id)
        event_id, data = next_event(lines)  # the countdown's end, by the server's clock
        assert data["status"] == "running" and data["deal"] == 1234
        seen.append(event_id)
    # Away: two moves happen meanwhile.
    for _ in range(2):
        assert second.post(f"/api/games/{game}/moves",
                           json=Move.from_dict({"op": "draw"}).to_dict()).status_code == 200
    with watcher.stream("GET", f"/races/{key}/events",
                        headers={"Last-Event-ID": str(seen[-1])}) as stream:
        lines = stream.iter_lines()
        missed = [next_event(lines), next_event(lines)]
        assert [event_id for event_id, _ in missed] == [seen[-1] + 1, seen[-1] + 2]
        assert [next(r for r in data["racers"] if r["id"] == 2)["moves"]
                for _, data in missed] == [1, 2]
        seen += [event_id for event_id, _ in missed]
        assert second.post(f"/api/games/{game}/moves",
                           json=Move.from_dict({"op": "draw"}).to_dict()).status_code == 200
        event_id, data = next_event(lines)  # then the live ones
        assert event_id == seen[-1] + 1
        assert next(r for r in data["racers"] if r["id"] == 2)["moves"] == 3
        seen.append(event_id)
    assert seen == list(range(seen[0], seen[0] + len(seen)))


def test_streams_are_bounded_per_address(clients, race_app):
    key = clients[0].post("/api/races", json={}).json()["key"]
    assert clients[0].get("/races/nope/events").status_code == 404
    hub = race_app.state.hub
    held = [hub.subscribe(key, "testclient") for _ in range(3)]
    refused = clients[1].get(f"/races/{key}/events")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    for subscription in held:
        hub.unsubscribe(subscription)
    assert hub.count == 0


def test_a_stream_that_stops_reading_is_cut(race_app, clients):
    key = clients[0].post("/api/races", json={}).json()["key"]
    hub = race_app.state.hub

    async def never_reads() -> list[bytes]:
        subscription = hub.subscribe(key, "slow")
        stream = racestream.events(hub, subscription, None, heartbeat=30)
        sent = [await anext(stream), await anext(stream)]  # retry:, then the last event
        for number in range(2, 2 + race_app.state.settings.race_stream_queue + 5):
            subscription.put((number, "{}"))  # the hub hands it more than it can hold
        assert subscription.cut
        sent += [chunk async for chunk in stream]  # what is left, then the end
        return sent

    sent = run_async(never_reads())
    assert sent[-1] != b": ping\n\n" and len(sent) < race_app.state.settings.race_stream_queue
    assert hub.count == 0  # its place is given back

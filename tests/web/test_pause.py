"""Pause: the clock stops and the board is hidden; Resume or any move starts it
again; the time a game took leaves its pauses out; only its player may pause it."""

from __future__ import annotations

import re
from datetime import timedelta

from app.store import Database
from app.store.clock import PAUSE_RULES
from app.store.models import GameRecord

from .helpers import HX


def shift_clock(app, game_id: str, **moved) -> None:
    """Move a game's stored times back, as if they had happened ``moved`` ago."""
    database = Database(app.state.settings.database_url)
    try:
        with database.session() as session:
            record = session.get(GameRecord, game_id)
            for name, delta in moved.items():
                value = getattr(record, name)
                setattr(record, name, value - delta)
    finally:
        database.dispose()


def started_game(client) -> str:
    game_id = client.post("/api/games", json={"deal": 7}).json()["id"]
    assert client.post(f"/api/games/{game_id}/moves", json={"op": "draw"}).status_code == 200
    return game_id


def test_a_paused_game_hides_the_board_and_its_clock_stands_still(client, app):
    game_id = started_game(client)
    shift_clock(app, game_id, started_at=timedelta(seconds=100))
    assert client.post(f"/games/{game_id}/pause", follow_redirects=False).status_code == 303
    page = client.get(f"/games/{game_id}").text
    assert " data-paused>" in page
    assert 'aria-labelledby="paused-title">' in page  # the cover, shown (not hidden)
    assert 'data-running="false"' in page
    # Five minutes pass while paused: the clock says 1:40 and the pause's first seconds
    # (they count as played, so a shared result's time is earned: docs/players.md).
    grace = PAUSE_RULES.grace_seconds
    shift_clock(app, game_id, started_at=timedelta(minutes=5), paused_at=timedelta(minutes=5))
    assert client.get(f"/api/games/{game_id}").json()["elapsed_seconds"] in (100 + grace,
                                                                            101 + grace)
    assert client.post(f"/games/{game_id}/resume", follow_redirects=False).status_code == 303
    resumed = client.get(f"/games/{game_id}").text
    assert "data-paused-cover" in resumed and 'data-running="true"' in resumed
    assert client.get(f"/api/games/{game_id}").json()["elapsed_seconds"] in (100 + grace,
                                                                            101 + grace)


def test_a_move_ends_a_pause_and_the_result_leaves_the_pause_out(client, app):
    game_id = started_game(client)
    shift_clock(app, game_id, started_at=timedelta(seconds=50))
    client.post(f"/games/{game_id}/pause", headers=HX)
    shift_clock(app, game_id, started_at=timedelta(minutes=5), paused_at=timedelta(minutes=5))
    client.post(f"/api/games/{game_id}/moves", json={"op": "draw"})
    page = client.get(f"/games/{game_id}").text
    assert 'data-running="true"' in page and "data-paused-cover role" in page
    assert 'id="board"' in page and " data-paused>" not in page
    took = (50 + PAUSE_RULES.grace_seconds, 51 + PAUSE_RULES.grace_seconds)
    assert client.get(f"/api/games/{game_id}").json()["elapsed_seconds"] in took
    # Leaving it (a new game) ends it with the pause left out.
    client.post("/api/games", json={"deal": 8})
    assert client.get(f"/api/games/{game_id}").json()["elapsed_seconds"] in took


def test_a_game_not_started_or_over_has_no_pause(client):
    game_id = client.post("/api/games", json={"deal": 7}).json()["id"]
    # Before the first move the Pause control is there for the page's script, but hidden.
    html = client.get(f"/games/{game_id}").text
    assert re.search(r'data-action="pause"[^>]*\shidden', html)
    client.post(f"/games/{game_id}/pause")
    assert re.search(r'data-paused-cover[^>]*\shidden', client.get(f"/games/{game_id}").text)
    assert client.get(f"/api/games/{game_id}").json()["elapsed_seconds"] == 0


def test_only_its_player_may_pause_a_game_and_never_from_another_site(client, other_client):
    game_id = started_game(client)
    assert other_client.post(f"/games/{game_id}/pause").status_code == 403
    del client.headers["X-CSRF-Token"]
    refused = client.post(f"/games/{game_id}/pause", headers={"Origin": "https://evil.example"})
    assert refused.status_code == 403
    assert " data-paused>" not in client.get(f"/games/{game_id}").text


def test_pausing_twice_and_a_pause_then_a_version_check_from_another_tab(client):
    game_id = started_game(client)
    version = client.get(f"/api/games/{game_id}").json()["version"]
    client.post(f"/games/{game_id}/pause", headers=HX)
    client.post(f"/games/{game_id}/pause", headers=HX)
    # A pause is not a move: a move made on the version the tab saw still applies.
    moved = client.post(f"/api/games/{game_id}/moves", json={"op": "draw"},
                        headers={"If-Match": f'"{version}"'})
    assert moved.status_code == 200

"""Shared results are earned (issue 34, item 6): a pause stops the clock only within bounds
(the first seconds of each pause count as played, and a game's pauses leave out at most a
limit), and the result says what was left out."""

from __future__ import annotations

from datetime import timedelta


# --- pauses ----------------------------------------------------------------------------------
def paused_a_while(client, app, game_id: str, seconds: int) -> None:
    """Pause, let ``seconds`` pass (the stored times moved back), and play a move."""
    from .test_pause import shift_clock
    assert client.post(f"/games/{game_id}/pause", follow_redirects=False).status_code == 303
    shift_clock(app, game_id, started_at=timedelta(seconds=seconds),
                paused_at=timedelta(seconds=seconds))
    assert client.post(f"/api/games/{game_id}/moves", json={"op": "draw"}).status_code == 200


def test_pausing_to_think_before_each_move_saves_nothing(client, app):
    from app.store.clock import PAUSE_RULES

    from .test_pause import started_game
    game_id = started_game(client)
    short = PAUSE_RULES.grace_seconds - 1
    for _ in range(3):
        paused_a_while(client, app, game_id, short)
    state = client.get(f"/api/games/{game_id}").json()
    assert state["elapsed_seconds"] >= 3 * short  # every short pause counted as played
    assert state["paused_seconds"] == 0


def test_a_long_pause_counts_as_played_beyond_the_limit_and_the_result_says_so(client, app):
    from app.store.clock import PAUSE_RULES

    from .test_pause import started_game
    game_id = started_game(client)
    paused_a_while(client, app, game_id, 3600)
    state = client.get(f"/api/games/{game_id}").json()
    limit = PAUSE_RULES.limit_seconds
    assert state["paused_seconds"] == limit < 3600
    assert 3600 - limit <= state["elapsed_seconds"] <= 3600 - limit + 2
    # The game over, the result shows the pause it left out.
    client.post("/api/games", json={"deal": 8})
    ended = client.get(f"/api/games/{game_id}").json()
    assert ended["status"] == "abandoned" and ended["paused_seconds"] == limit
    assert "data-paused-time" in client.get(f"/games/{game_id}").text


def test_the_pause_rules_are_settings():
    from tests.conftest import make_settings
    settings = make_settings("sqlite://", pause_limit_minutes=5, pause_grace_seconds=10)
    assert (settings.pause_limit_minutes, settings.pause_grace_seconds) == (5, 10)

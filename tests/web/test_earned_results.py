"""Shared results are earned: a pause stops the clock only within bounds
(the first seconds of each pause count as played, and a game's pauses leave out at most a
limit), and the result says what was left out; the solver's line for a deal that can still be
played for a day's result is nobody's to see, not even its player's, until the day is over."""

from __future__ import annotations

from datetime import timedelta

import pytest

from app import odds
from app.engine import VARIANTS, Variant
from app.web.core import utcday
from app.web.services import starting


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


# --- the solver's line while a deal is in play ---------------------------------------------
STANDARD = Variant("standard", 3)


def todays_deal(variant: Variant = STANDARD) -> int:
    return odds.daily_deal(starting.today().date(), variant)


def abandoned_game(client, number: int, goal: str = "standard", passes: int = 3) -> str:
    """A game of deal ``number`` with one move, abandoned by starting another game."""
    game_id = client.post("/api/games", json={"deal": number, "goal": goal,
                                              "passes": passes}).json()["id"]
    assert client.post(f"/api/games/{game_id}/moves", json={"op": "draw"}).status_code == 200
    assert client.post("/api/games", json={"deal": 5}).status_code == 201
    assert client.get(f"/api/games/{game_id}").json()["status"] == "abandoned"
    return game_id


def test_todays_deal_has_no_analysis_for_anyone_until_the_day_is_over(client, other_client,
                                                                      monkeypatch):
    game_id = abandoned_game(other_client, todays_deal())
    for asker in (client, other_client):  # a stranger, and the game's own player
        refused = asker.get(f"/api/games/{game_id}/analysis")
        assert refused.status_code == 403, refused.text
        assert "deal of the day" in refused.json()["detail"]
        assert "solution" not in refused.text
        page = asker.get(f"/games/{game_id}/analysis")
        assert page.status_code == 403 and "deal of the day" in page.text
        line = asker.get(f"/games/{game_id}/replay?win_from=0")
        assert line.status_code == 403 and "deal of the day" in line.text
    # The player still watches their own moves.
    assert other_client.get(f"/games/{game_id}/replay").status_code == 200
    # Two days on, the deal is no day's to play any more: the analysis is anyone's.
    later = starting.today() + timedelta(days=2)
    monkeypatch.setattr(utcday, "today", lambda: later)
    found = client.get(f"/api/games/{game_id}/analysis")
    assert found.status_code == 200 and found.json()["winnable_at_start"] is True
    assert client.get(f"/games/{game_id}/replay?win_from=0").status_code == 200


def test_yesterdays_deal_stays_private_while_an_offline_game_can_still_count(client,
                                                                            monkeypatch):
    game_id = abandoned_game(client, todays_deal())
    tomorrow = starting.today() + timedelta(days=1)
    monkeypatch.setattr(utcday, "today", lambda: tomorrow)
    assert client.get(f"/api/games/{game_id}/analysis").status_code == 403


@pytest.mark.parametrize("variant", [VARIANTS[0], VARIANTS[-1]], ids=str)
def test_the_deal_of_any_rule_set_is_private_under_any_rules(client, variant):
    # The line found under one rule set helps under another: the deal is what is private.
    other_goal = "wholedeck" if variant.goal.value == "standard" else "standard"
    game_id = abandoned_game(client, todays_deal(variant), goal=other_goal, passes=3)
    assert client.get(f"/api/games/{game_id}/analysis").status_code == 403


def test_the_same_deal_with_its_suits_swapped_is_the_same_deal(client):
    # Pairs go by rank alone: a custom deal of the day's ranks, suits swapped, has its line.
    from app.engine import Card, Deal
    day = starting.today().date()
    deal = Deal.from_number(todays_deal())
    swap = {"S": "H", "H": "S", "D": "C", "C": "D"}
    swapped = Deal(tuple(Card(c.rank, swap[c.suit]) for c in deal.pyramid),
                   tuple(Card(c.rank, swap[c.suit]) for c in deal.stock))
    assert swapped != deal and odds.in_play(swapped, day) and odds.in_play(deal, day)
    assert not odds.in_play(deal, day + timedelta(days=2))
    # The offline pack tells a week's deals ahead: they are private from then on.
    assert odds.in_play(deal, day - timedelta(days=odds.DAYS_TOLD_AHEAD))


def test_other_games_keep_their_analysis(client):
    number = next(n for n in range(2, 40) if n not in odds.daily_deals_in_play(
        starting.today().date()))
    game_id = abandoned_game(client, number)
    assert client.get(f"/api/games/{game_id}/analysis").status_code == 200


def test_the_deals_tests_analyse_are_in_play_on_no_day_for_years():
    # Tests that analyse a fixed deal pass whatever the date (tests/dailies.py): the deals are
    # no deal of the day from yesterday to ten years on, and the choosers skip those that are.
    from tests.dailies import ANALYSED_DEALS, YEARS_AHEAD, never_in_play, spare_deals
    assert all(never_in_play(n) for n in ANALYSED_DEALS)
    day = starting.today().date()
    in_play = sorted(odds.daily_deals_in_play(day))
    assert not any(never_in_play(n) for n in in_play)  # the window does see today's
    assert spare_deals(in_play) == []
    assert YEARS_AHEAD >= 5

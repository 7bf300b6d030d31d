"""Winnable deals only and the deal of the day, through the pages and the API."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient

from app import odds
from app.engine import Deal, Game, Variant
from app.engine.solver import solve
from app.main import create_app
from app.web.core import utcday
from app.web.services import starting
from tests.conftest import make_settings

from .conftest import browser_like


def test_every_winnable_only_deal_is_proven_winnable(client):
    for goal, passes in (("standard", 1), ("wholedeck", 1), ("wholedeck", 2)):
        for _ in range(4):
            state = client.post("/api/games", json={"goal": goal, "passes": passes,
                                                    "winnable_only": True}).json()
            assert state["winnable_only"] is True
            assert odds.is_proven_winnable(state["deal"], Variant(goal, passes))
            game = Game(Deal.from_number(state["deal"]), goal, passes)
            assert solve(game).winnable is True


def test_the_home_form_remembers_winnable_only_and_the_board_says_so(client):
    started = client.post("/games", data={"goal": "wholedeck", "passes": "1",
                                          "winnable_only": "1"}, follow_redirects=False)
    assert started.status_code == 303
    board = client.get(started.headers["location"]).text
    assert "data-winnable-deal" in board
    assert 'data-winnable-only checked' in client.get("/").text
    # A deal number given by hand is that deal, whatever the check box says.
    client.post("/games", data={"deal": "617", "winnable_only": "1", "confirm": "1"})
    assert 'data-winnable-only checked' in client.get("/").text


def test_the_deal_of_the_day_is_the_same_on_two_servers(tmp_path, sqlite_url):
    from app.prestart import migrate

    other_url = f"sqlite:///{tmp_path / 'other.db'}"
    migrate(other_url)
    deals = []
    for url in (sqlite_url, other_url):
        with TestClient(create_app(make_settings(url))) as server:
            browser_like(server)
            opened = server.get("/daily?goal=wholedeck&passes=2", follow_redirects=False)
            assert opened.status_code == 200  # the deal, shown; stored with the first input
            play = re.search(r'data-play="([^"]+)"', opened.text).group(1).replace("&amp;", "&")
            started = server.post(play, data={"action": "draw"}, follow_redirects=False)
            game_id = started.headers["location"].rsplit("/", 1)[1]
            state = server.get(f"/api/games/{game_id}").json()
            assert state["daily"] == starting.today().date().isoformat()
            deals.append(state["deal"])
    today = starting.today().date()
    assert deals[0] == deals[1] == odds.daily_deal(today, Variant("wholedeck", 2))


def test_the_daily_deal_asks_before_abandoning_and_counts_as_daily(client, monkeypatch):
    game_id = client.post("/api/games", json={"deal": 42}).json()["id"]
    client.post(f"/api/games/{game_id}/moves", json={"op": "draw"})
    asked = client.get("/daily", follow_redirects=False)
    assert asked.status_code == 200 and "data-confirm-abandon" in asked.text
    assert client.get(f"/api/games/{game_id}").json()["status"] == "playing"
    started = client.post("/daily", data={"goal": "standard", "passes": "3"},
                          follow_redirects=False)
    daily_id = started.headers["location"].rsplit("/", 1)[1]
    assert client.get(f"/api/games/{game_id}").json()["status"] == "abandoned"
    state = client.get(f"/api/games/{daily_id}").json()
    assert state["daily"] and state["deal"] == odds.daily_deal(
        starting.today().date(), Variant("standard", 3))
    # Tomorrow's deal of the day is another deal.
    tomorrow = datetime(2030, 1, 2, tzinfo=UTC)
    monkeypatch.setattr(utcday, "today", lambda: tomorrow)
    later = client.get("/daily", follow_redirects=False)
    assert later.status_code == 200 and "data-confirm-abandon" not in later.text
    assert f'data-deal="{odds.daily_deal(tomorrow.date(), Variant("standard", 3))}"' in later.text


def daily_state(client, query: str) -> dict:
    started = client.post(f"/daily/play?{query}", data={"action": "draw"},
                          follow_redirects=False)
    assert started.status_code == 303, started.text
    return client.get(f"/api/games/{started.headers['location'].rsplit('/', 1)[1]}").json()


def test_a_deal_of_the_day_counts_for_its_day_only_when_played_that_day(client, other_client):
    today = starting.today().date()
    yesterday = today - timedelta(days=1)
    state = daily_state(client, f"goal=standard&passes=3&day={yesterday.isoformat()}")
    # Yesterday's page, played today: yesterday's deal, as an ordinary game.
    assert state["deal"] == odds.daily_deal(yesterday, Variant("standard", 3))
    assert state["daily"] is None
    # Today's page: today's deal, counted as today's.
    other = daily_state(other_client, f"goal=wholedeck&passes=1&day={today.isoformat()}")
    assert other["daily"] == today.isoformat()
    future = client.post(f"/daily/play?day={(today + timedelta(days=1)).isoformat()}",
                         data={"action": "draw"})
    assert future.status_code == 404


def test_play_again_on_an_old_deal_of_the_day_is_an_ordinary_game(client, monkeypatch):
    today = starting.today()
    state = daily_state(client, "goal=standard&passes=3")
    assert state["daily"] == today.date().isoformat()
    same_day = client.post(f"/games/{state['id']}/restart", data={"confirm": "1"},
                           follow_redirects=False).headers["location"].rsplit("/", 1)[1]
    assert client.get(f"/api/games/{same_day}").json()["daily"] == today.date().isoformat()
    client.post(f"/api/games/{same_day}/moves", json={"op": "draw"})
    monkeypatch.setattr(utcday, "today", lambda: today + timedelta(days=1))
    next_day = client.post(f"/games/{same_day}/restart", data={"confirm": "1"},
                           follow_redirects=False).headers["location"].rsplit("/", 1)[1]
    again = client.get(f"/api/games/{next_day}").json()
    assert again["deal"] == state["deal"] and again["daily"] is None

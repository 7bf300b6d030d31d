"""``offline=1`` was the client's word. A solver's line posted to yesterday's
deal of the day with ``offline=1`` earned yesterday's crown and kept the daily streak. Now a
game begun without network counts for its day only as far as the server can check it: the page
(or the offline pack) it was begun from was drawn on or before that day, and its first batch
arrives within hours of the day's end (``starting.OFFLINE_SYNC_HOURS``); else it is a late one
(the calendar's ✓, no crown, no streak)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from urllib.parse import parse_qs, urlsplit

import pytest

from app import odds
from app.engine import Deal, Game, Variant
from app.engine.solver import solve
from app.web.core import utcday
from app.web.services.starting import OFFLINE_SYNC_HOURS

RULES = Variant("standard", 3)


@pytest.fixture
def clock(monkeypatch):
    """Pins the daily calendar's moment; returns a setter."""
    moment = [utcday.today()]
    monkeypatch.setattr(utcday, "today", lambda: moment[0])

    def at(when: datetime) -> None:
        moment[0] = when

    return at


def stamp_of(client) -> str:
    page = client.get("/daily?goal=standard&passes=3").text
    play = re.search(r'data-play="([^"]+)"', page).group(1).replace("&amp;", "&")
    return parse_qs(urlsplit(play).query)["drawn"][0]


def offline_line(client, day: date, drawn: str | None) -> dict:
    line = solve(Game(Deal.from_number(odds.daily_deal(day, RULES)), "standard", 3)).moves
    query = f"goal=standard&passes=3&day={day.isoformat()}" + (f"&drawn={drawn}" if drawn
                                                                 else "")
    answer = client.post(f"/daily/play?{query}", headers={"Accept": "application/json"},
                         data={"moves": " ".join(m.to_text() for m in line), "version": "0",
                               "input": "tabOffline01:1", "offline": "1", "elapsed": "300"})
    assert answer.status_code == 200, answer.text
    return client.get(f"/api/games/{answer.json()['id']}").json()


def test_yesterdays_daily_posted_offline_with_no_page_drawn_is_late(client, clock):
    today = utcday.today().date()
    clock(datetime.combine(today, time(1), UTC))
    state = offline_line(client, today - timedelta(days=1), None)
    assert state["status"] == "won" and state["daily"] is None  # no crown, no streak


def test_a_page_drawn_today_does_not_make_yesterday_s_crown(client, clock):
    today = utcday.today().date()
    clock(datetime.combine(today, time(1), UTC))
    drawn_now = stamp_of(client)  # drawn after yesterday ended
    assert offline_line(client, today - timedelta(days=1), drawn_now)["daily"] is None


def test_a_game_begun_offline_yesterday_and_synced_within_hours_counts_for_its_day(client,
                                                                                  clock):
    today = utcday.today().date()
    yesterday = today - timedelta(days=1)
    clock(datetime.combine(yesterday, time(22), UTC))
    drawn = stamp_of(client)  # the page drawn yesterday evening, the network then lost
    clock(datetime.combine(today, time(OFFLINE_SYNC_HOURS - 1), UTC))
    assert offline_line(client, yesterday, drawn)["daily"] == yesterday.isoformat()


def test_a_sync_more_than_hours_after_the_day_is_late(client, clock):
    today = utcday.today().date()
    yesterday = today - timedelta(days=1)
    clock(datetime.combine(yesterday, time(22), UTC))
    drawn = stamp_of(client)
    clock(datetime.combine(today, time(OFFLINE_SYNC_HOURS, 1), UTC))
    assert offline_line(client, yesterday, drawn)["daily"] is None


def test_a_stamp_not_signed_here_counts_for_nothing(client, clock):
    today = utcday.today().date()
    clock(datetime.combine(today, time(1), UTC))
    forged = "ImZvcmdlZCI.bm90LWEtc2lnbmF0dXJl"
    assert offline_line(client, today - timedelta(days=1), forged)["daily"] is None


def test_the_offline_pack_carries_the_day_it_was_drawn(client):
    pack = client.get("/api/offline-pack").json()
    assert pack["drawn"] and pack["days"][0]["date"] == utcday.today().date().isoformat()

"""The deal of the day's calendar: a month of results, any past day playable and
shown there once played (but never making a streak), the awards, and bad months refused."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

from app import odds
from app.engine import Deal, Game, Variant
from app.engine.solver import solve
from app.web.core import utcday
from tests.web.helpers import HX

STANDARD_3 = Variant("standard", 3)


def win_daily(client, day: date | None = None) -> dict:
    """Win a deal of the day through its page's play route (``day``: a past day's)."""
    drawn = day or utcday.today().date()
    number = odds.daily_deal(drawn, STANDARD_3)
    line = solve(Game(Deal.from_number(number), "standard", 3)).moves
    query = "goal=standard&passes=3" + (f"&day={day.isoformat()}" if day else "")
    first = line[0]
    data = ({"action": first.op.value} if first.op.value != "remove"
            else {"card": first.cards[-1].name,
                  **({"selected": first.cards[0].name} if len(first.cards) == 2 else {})})
    started = client.post(f"/daily/play?{query}", data=data, follow_redirects=False)
    assert started.status_code == 303, started.text
    game_id = started.headers["location"].rsplit("/", 1)[1]
    # The rest in one batch, as the board's script sends quick moves: a month of wins is
    # 28 games, and a request a move was most of this module's time.
    version = client.get(f"/api/games/{game_id}").json()["version"]
    rest = client.post(f"/games/{game_id}/play", headers=HX,
                       data={"moves": " ".join(move.to_text() for move in line[1:]),
                             "version": str(version)})
    assert rest.status_code == 200, rest.text
    state = client.get(f"/api/games/{game_id}").json()
    assert state["status"] == "won", state
    return state


def day_cell(html: str, day: date) -> str:
    found = re.search(rf'data-calendar-day="{day.isoformat()}" data-result="([\w-]+)"', html)
    assert found, day
    return found.group(1)


def test_the_daily_page_links_to_its_calendar_and_the_month_shows_today(client):
    page = client.get("/daily?goal=standard&passes=3").text
    link = re.search(r'<a data-calendar href="([^"]+)"', page).group(1).replace("&amp;", "&")
    calendar = client.get(link)
    assert calendar.status_code == 200
    today = utcday.today().date()
    assert day_cell(calendar.text, today) == "none"
    assert 'data-award="crown" data-earned="false"' in calendar.text


def test_a_day_won_on_its_day_gets_a_crown_and_a_past_day_played_late_shows_too(client):
    today = utcday.today().date()
    state = win_daily(client)
    assert state["daily"] == today.isoformat()
    earlier = today - timedelta(days=3)
    late = win_daily(client, earlier)
    assert late["daily"] is None and late["status"] == "won"
    html = client.get(f"/daily/calendar?goal=standard&passes=3&month={today:%Y-%m}").text
    assert day_cell(html, today) == "crown"
    if earlier.month == today.month:
        assert day_cell(html, earlier) == "won-late"
    html = client.get(f"/daily/calendar?goal=standard&passes=3&month={earlier:%Y-%m}").text
    assert day_cell(html, earlier) == "won-late"
    assert 'data-award="crown" data-earned="true"' in html
    # The late win makes no streak: one crown, the streak is today's alone.
    stats = client.get("/stats").text
    assert re.search(r'data-figure="daily-days-won">\s*1\s*<', stats)
    assert re.search(r'data-figure="daily-streak">\s*1 day\s*<', stats)


def test_past_days_are_playable_from_the_calendar_and_future_ones_are_not(client):
    today = utcday.today().date()
    html = client.get("/daily/calendar?goal=wholedeck&passes=1").text
    past = today - timedelta(days=1)
    if past.month == today.month:
        assert f"/daily?goal=wholedeck&amp;passes=1&amp;day={past.isoformat()}" in html
    page = client.get(f"/daily?goal=wholedeck&passes=1&day={past.isoformat()}")
    assert page.status_code == 200 and "data-late-daily" in page.text
    expected = odds.daily_deal(past, Variant("wholedeck", 1))
    assert f'data-deal="{expected}"' in page.text
    future = client.get(f"/daily?goal=wholedeck&passes=1&day={(today + timedelta(days=2))}")
    assert future.status_code == 404
    assert client.get(f"/daily/calendar?month={today.year + 1}-01").status_code == 404


def test_bad_months_get_a_clear_error(client):
    for bad in ("2026-13", "2026-1", "x", "2026-00"):
        answer = client.get(f"/daily/calendar?month={bad}")
        assert answer.status_code in (400, 422), bad
        assert "month" in answer.text.lower()


def test_a_month_completed_is_an_award(client, monkeypatch):
    # Win every day of a short past month, late: the month is complete (no streak needed).
    month = date(2026, 2, 1)
    monkeypatch.setattr(utcday, "today", lambda: datetime(2026, 3, 5, tzinfo=UTC))
    for offset in range(28):
        win_daily(client, month + timedelta(days=offset))
    html = client.get("/daily/calendar?goal=standard&passes=3&month=2026-02").text
    assert all(day_cell(html, month + timedelta(days=d)) == "won-late" for d in range(28))
    assert 'data-award="month" data-earned="true"' in html
    assert 'data-award="streak-7" data-earned="false"' in html

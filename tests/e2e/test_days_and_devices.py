"""Days and devices in Chromium: a past deal of the day played from the calendar (marked on
its day, no streak award for it), a private link that takes a player's statistics to a
second browser once, until its owner signs that browser out, and axe on these pages and the
challenge screens in every theme."""

from __future__ import annotations

import re
from datetime import date

import pytest

from app import odds
from app.engine import Deal, Game, Variant
from app.engine.solver import solve

from .test_accessibility import serious, violations, won_game
from .test_preferences import choose, new_page

pytestmark = pytest.mark.browser


def settled(page) -> None:
    page.wait_for_selector('html[data-inputs="0"]', state="attached")
    page.wait_for_selector("#board:not([aria-busy])", state="attached")


def win_by_api(page, game_id: str, deal: int) -> None:
    for move in solve(Game(Deal.from_number(deal), "standard", 3)).moves:
        assert page.request.post(f"/api/games/{game_id}/moves", data=move.to_dict()).ok


def test_a_past_day_is_played_from_the_calendar_and_marked_won_later(page):
    page.goto("/daily")
    page.click("a[data-calendar]")
    page.wait_for_selector("[data-calendar-page]")
    page.click("[data-month-prev]")  # last month: every day of it is past
    page.wait_for_selector("[data-calendar-page]")
    day_cell = page.locator("[data-calendar-day]").first
    day = date.fromisoformat(day_cell.get_attribute("data-calendar-day"))
    assert day_cell.get_attribute("data-result") == "none"
    calendar_url = page.url
    day_cell.locator("a").click()
    page.wait_for_selector("#board[data-deal]")
    deal = int(page.get_attribute("#board", "data-deal"))
    assert deal == odds.daily_deal(day, Variant("standard", 3))  # that day's deal, not today's
    page.keyboard.press("d")  # the first input starts the game
    page.wait_for_selector('#board[data-game][data-moves="1"]')
    settled(page)
    game_id = page.get_attribute("#board", "data-game")
    page.keyboard.press("u")
    page.wait_for_selector('#board[data-moves="0"]')
    settled(page)
    state = page.request.get(f"/api/games/{game_id}").json()
    assert state["daily"] is None  # played late: the streak does not count it
    win_by_api(page, game_id, deal)
    page.goto(calendar_url)
    marked = page.locator(f'[data-calendar-day="{day.isoformat()}"]')
    assert marked.get_attribute("data-result") == "won-late"
    assert page.get_attribute('[data-award="streak-7"]', "data-earned") == "false"


def test_a_private_link_takes_the_statistics_to_another_browser_until_signed_out(browser, server):
    context_a, alice = new_page(browser, server)
    context_b, phone = new_page(browser, server, width=390, height=844)
    context_c, stranger = new_page(browser, server)
    try:
        alice.goto("/")
        game_id = won_game(alice)
        alice.goto("/stats")
        alice.click('[data-action="make-device-link"]')
        alice.wait_for_selector("[data-device-link-made]")
        link = alice.locator("a[data-device-link]").get_attribute("href")
        assert re.search(r"/link/[\w-]{20,}$", link)

        phone.goto(link)  # a GET shows what the link would do and changes nothing
        phone.wait_for_selector("[data-device-take]")
        phone.click('[data-action="use-link"]')
        phone.wait_for_url(re.compile(r"/stats\?linked=1"))
        assert phone.locator('[data-figures="total"] [data-figure="won"]').inner_text() == "1"
        assert f"/games/{game_id}/replay" in phone.content()

        # The link worked once: a second browser is refused.
        answer = stranger.goto(link)
        assert answer.status == 410
        assert stranger.locator("h1").inner_text() == "This link was already used"

        # The owner sees the phone and signs it out: at once, it is a stranger.
        alice.goto("/stats")
        alice.click('[data-action="end-device-session"]')
        alice.wait_for_url(re.compile(r"signed_out=1"))
        assert alice.locator("[data-device-session-key]").count() == 0
        assert alice.locator('[data-figures="total"] [data-figure="won"]').inner_text() == "1"
        phone.goto("/stats")
        assert f"/games/{game_id}/replay" not in phone.content()
    finally:
        for context in (context_a, context_b, context_c):
            context.close()


@pytest.mark.parametrize("theme", ["light", "dark", "contrast"])
def test_the_new_pages_have_no_serious_accessibility_violation(browser, server, theme):
    context, page = new_page(browser, server)
    try:
        choose(page, theme=theme)
        checked = {}
        page.goto("/daily/calendar")
        checked["calendar"] = violations(page)
        game_id = won_game(page)
        page.goto(f"/games/{game_id}")
        page.click("[data-banner-more] > summary")  # the details of the end, folded at first
        page.wait_for_selector("[data-results]")  # par, difficulty, how others did
        checked["won game with results"] = violations(page)
        link = page.locator("a[data-challenge]").get_attribute("href")
        page.goto(f"/games/{game_id}/results")
        checked["results page"] = violations(page)
        page.goto(link)
        page.wait_for_selector("[data-challenge-from]")
        checked["challenge link"] = violations(page)
        page.goto("/stats")
        page.click('[data-action="make-device-link"]')
        page.wait_for_selector("[data-device-link-made]")
        checked["device link made"] = violations(page)
        page.goto(page.locator("a[data-device-link]").get_attribute("href"))
        checked["device link"] = violations(page)
        bad = serious(checked, f"{theme} ")
        assert not bad, "\n".join(bad)
    finally:
        context.close()

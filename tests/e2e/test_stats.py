"""Statistics and replays in a real browser: win a game and lose one by clicking, read /stats
(the counts and the chart), then watch the won game's replay and step to its end.
"""

from __future__ import annotations

import re

import pytest

from app.engine import Deal, Game, Move

from .test_board import DEAL, click_move, open_deal, wait_for_moves, winning_line

pytestmark = pytest.mark.browser

LOSING_DEAL = 1  # standard goal, 1 pass: drawing first loses it (checked below)


def losing_line(number: int = LOSING_DEAL) -> list[Move]:
    """Draw whenever possible, else the first legal move: on this deal that loses."""
    game = Game(Deal.from_number(number), "standard", 1)
    while not game.is_over():
        legal = game.legal_moves
        game.play(Move.draw() if Move.draw() in legal else legal[0])
    assert not game.outcome().won, "the test needs a line that loses"
    return list(game.moves)


def play_line(page, moves) -> None:
    for number, move in enumerate(moves, start=1):
        click_move(page, move)
        wait_for_moves(page, number)


def figure(page, scope: str, key: str) -> str:
    return page.locator(f'[data-figures="{scope}"] [data-figure="{key}"]').inner_text().strip()


def test_win_lose_then_read_the_statistics_and_watch_the_replay(browser, server, artifacts):
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  reduced_motion="reduce", base_url=server.url)
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        won_line = winning_line()
        open_deal(page)
        play_line(page, won_line)
        assert page.get_attribute("#board", "data-status") == "won"
        # A script plays faster than a person as a rule: the win counts, its time is not
        # ranked, and the board, drawn again by the server, says why (app/store/pace.py;
        # docs/players.md). On a machine busy enough to slow the script to a person's pace the
        # win is ranked instead: either way the board says what the server holds. Other tests
        # at this address may have been shown this deal's moves: then that is the reason given.
        game_id = page.get_attribute("#board", "data-game")
        held = page.request.get(f"/api/games/{game_id}").json()
        page.goto(f"/games/{game_id}")
        page.wait_for_selector("#board[data-game]")
        why = page.locator("[data-unranked-why]")
        if held["ranked"]:
            assert why.count() == 0
        else:
            sentences = {"fast": "faster than a person plays", "known": "moves known beforehand"}
            reason = why.get_attribute("data-unranked-why")
            assert reason == held["unranked_why"] and sentences[reason] in why.inner_text()
        # The result is final: no undo after the end.
        assert page.locator('#board [data-action="undo"]').is_disabled()

        lost_line = losing_line()
        open_deal(page, LOSING_DEAL, "?goal=standard&passes=1")
        play_line(page, lost_line)
        assert page.get_attribute("#board", "data-status") == "lost"

        page.goto("/stats")
        assert figure(page, "total", "played") == "2"
        assert figure(page, "total", "won") == "1"
        assert figure(page, "total", "win-rate") == "50%"
        assert figure(page, "total", "current-streak") == "1 loss"
        assert figure(page, "standard-3", "played") == "1"
        if not held["ranked"]:
            assert figure(page, "standard-3", "best-time") == "–"  # no ranked win: no best time
        assert figure(page, "standard-3", "fewest-moves") == str(len(won_line))
        assert figure(page, "standard-1", "won") == "0"
        assert figure(page, "standard-1", "win-rate") == "0%"
        # A rule set not played yet is a line in the folded list, not a card of its own.
        assert page.locator('[data-unplayed] [data-variant="wholedeck-2"][data-empty]').count() == 1
        # The charts: one gold bar for the win, one red bar for the loss, drawn server-side.
        assert page.locator('[data-chart="standard-3"] rect[data-result="won"]').count() == 1
        assert page.locator('[data-chart="standard-1"] rect[data-result="lost"]').count() == 1
        assert page.locator('[data-chart="standard-3"] svg').bounding_box()["height"] > 40
        rows = page.locator("#history tbody tr")
        assert rows.count() == 2
        assert "Lost" in rows.nth(0).inner_text() and "Won" in rows.nth(1).inner_text()
        page.screenshot(path=str(artifacts / "stats-desktop.png"), full_page=True)

        # The replay of the won game: start at the deal, step with the keys, go to the end.
        rows.nth(1).locator("[data-replay-link]").click()
        page.wait_for_selector("#replay-stage")
        assert re.search(r"/games/[\w-]+/replay$", page.url)
        stage = page.locator("#replay-stage")
        assert stage.get_attribute("data-step") == "0"
        assert stage.get_attribute("data-last") == str(len(won_line))
        page.keyboard.press("ArrowRight")
        page.wait_for_selector('#replay-stage[data-step="1"]')
        page.keyboard.press("ArrowRight")
        page.wait_for_selector('#replay-stage[data-step="2"]')
        page.wait_for_url(lambda url: "step=2" in url)  # each step has its own address
        assert page.locator(".move-list a.current").get_attribute("data-step-link") == "2"
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector('#replay-stage[data-step="1"]')
        page.screenshot(path=str(artifacts / "replay-desktop.png"), full_page=True)
        page.click('[data-replay-nav="last"]')
        page.wait_for_selector(f'#replay-stage[data-step="{len(won_line)}"]')
        assert page.get_attribute("#board", "data-status") == "won"
        assert page.locator('#board .in-pyramid').count() == 0
        # Play runs the game from the deal to the end on its own.
        page.click("[data-replay-play]")
        page.wait_for_selector('#replay-stage[data-step="3"]')
        page.click("[data-replay-play]")  # pause
        # Paused: the stage no longer carries the element that loads the next step.
        page.wait_for_selector("#replay-stage:not([data-playing])")
        assert page.locator("[data-replay-next]").count() == 0
        assert page.get_attribute("[data-replay-play]", "aria-pressed") == "false"
    finally:
        context.close()


def test_stats_and_replay_fit_a_phone(browser, server, artifacts):
    context = browser.new_context(viewport={"width": 375, "height": 740}, base_url=server.url,
                                  device_scale_factor=2, reduced_motion="reduce")
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        open_deal(page, DEAL)
        play_line(page, winning_line())
        open_deal(page, LOSING_DEAL, "?goal=standard&passes=1")
        play_line(page, losing_line()[:5])
        page.goto("/deal/11")  # leaving a game with moves abandons it, once confirmed
        page.click("[data-action=abandon]")
        page.wait_for_selector("#board[data-game]")
        page.goto("/stats")
        assert figure(page, "total", "played") == "2"
        assert page.locator('[data-chart="standard-1"] rect[data-result="abandoned"]').count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        page.screenshot(path=str(artifacts / "stats-phone.png"), full_page=True)
        page.locator('[data-variant="standard-1"]').scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "stats-phone-screen.png"))
        page.locator("#history [data-replay-link]").last.click()
        page.wait_for_selector("#replay-stage")
        last = len(winning_line())
        page.keyboard.press("End")
        page.wait_for_selector(f'#replay-stage[data-step="{last}"]')
        for back in (1, 2):
            page.keyboard.press("ArrowLeft")
            page.wait_for_selector(f'#replay-stage[data-step="{last - back}"]')
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        page.screenshot(path=str(artifacts / "replay-phone.png"), full_page=True)
    finally:
        context.close()

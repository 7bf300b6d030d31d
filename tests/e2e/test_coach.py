"""The solver as a coach, in the browser: lose a winnable deal and be told which move lost it
(with both replay links working), and play a winnable-only game to its end with the hints.
Also the board at the sizes people play on: a phone held sideways and a big screen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from app.engine import Deal, Game, Move
from app.engine.solver import solve
from tests.dailies import spare_deals

from .test_board import click_move, settled, wait_for_moves

pytestmark = pytest.mark.browser


def losing_game() -> tuple[int, list[Move], int]:
    """A winnable deal (standard, 3 passes) played along a winning line, then off it with a
    move after which no win is left, then on (first legal move) to the end."""
    for number in spare_deals(range(1, 100)):  # analysed whatever the date
        game = Game(Deal.from_number(number), "standard", 3)
        line = solve(game).moves
        if not line:
            continue
        for move in line[:3]:
            game.play(move)
        for move in game.legal_moves:
            game.play(move)
            if solve(game).winnable is False:
                losing = len(game.moves)
                while not game.is_over():
                    game.play(game.legal_moves[0])
                if not game.outcome().won:
                    return number, list(game.moves), losing
                break
            game.undo()
    pytest.fail("no losing game found")


def test_lose_a_winnable_deal_and_see_the_move_that_lost_it(page):
    number, moves, losing = losing_game()
    page.goto(f"/deal/{number}")
    page.wait_for_selector("#board[data-game]")
    for count, move in enumerate(moves, start=1):
        click_move(page, move)
        wait_for_moves(page, count)
    page.wait_for_selector('[data-banner="lost"]')
    verdict = page.locator('[data-verdict="lost-at"]')
    expect(verdict).to_contain_text(f"Your move {losing},")
    expect(verdict).to_contain_text("would have kept the win")
    # Replay up to that point (the replays are folded: the end card stays short)...
    page.click("[data-analysis-more] > summary")
    page.click("[data-replay-to-loss]")
    page.wait_for_selector(f'#replay-stage[data-step="{losing - 1}"]')
    assert page.locator(f'.move-list a[data-step-link="{losing}"] [data-losing-move]').count() == 1
    page.go_back()
    page.wait_for_selector('[data-verdict="lost-at"]')
    # ...and watch a winning line from there, to a won board.
    if not page.locator("[data-watch-win]").is_visible():
        page.click("[data-analysis-more] > summary")
    page.click("[data-watch-win]")
    page.wait_for_selector("[data-winning-line]")
    page.click('[data-replay-nav="last"]')
    page.wait_for_selector('#board[data-status="won"]')


def test_a_winnable_only_game_is_won_by_following_the_hints(page):
    page.goto("/")
    page.check("[data-winnable-only]")
    page.check('input[name="passes"][value="1"]')
    page.click("[data-action=start]")
    page.wait_for_selector("#board[data-game]")
    assert page.locator("[data-winnable-deal]").is_visible()
    game_id = re.search(r"/games/([\w-]+)", page.url).group(1)
    for count in range(1, 200):
        page.keyboard.press("h")
        expect(page.locator("#message")).to_contain_text("This deal can still be won.")
        settled(page)
        hinted = page.locator("#board .card.hinted")
        if hinted.count():
            for name in hinted.evaluate_all("cards => cards.map(c => c.dataset.card)"):
                page.click(f'#board button[data-card="{name}"]')
        else:
            page.click("#board .hinted[data-action]")
        wait_for_moves(page, count)
        if page.get_attribute("#board", "data-status") != "playing":
            break
    assert page.get_attribute("#board", "data-status") == "won"
    settled(page)  # the hints the device gave are steps of the batches: all sent
    state = page.request.get(f"/api/games/{game_id}").json()
    assert state["winnable_only"] is True and state["hints_used"] == len(state["moves"])
    # The choice is remembered for the next new game.
    page.goto("/")
    assert page.locator("[data-winnable-only]").is_checked()


def test_pressing_d_with_no_passes_left_says_so(page):
    for number in range(1, 300):  # a deal still going once its one pass is drawn through
        game = Game(Deal.from_number(number), "standard", 1)
        for _ in range(24):
            game.play(Move.draw())
        if not game.is_over():
            break
    page.goto(f"/deal/{number}?passes=1")
    page.wait_for_selector("#board[data-game]")
    for _ in range(24):
        page.keyboard.press("d")
    settled(page)
    assert page.get_attribute("#board", "data-moves") == "24"
    page.keyboard.press("d")
    settled(page)
    expect(page.locator("#message [data-refused]")).to_contain_text("no passes are left")


@pytest.mark.parametrize(("width", "height", "phone"),
                         [(844, 390, True), (360, 640, True), (390, 844, True),
                          (844, 390, False), (1920, 1080, False)])
def test_the_board_fits_the_screen(browser, server, width, height, phone):
    context = browser.new_context(viewport={"width": width, "height": height},
                                  base_url=server.url, has_touch=phone, is_mobile=phone)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto("/deal/617")
        page.wait_for_selector("#board[data-game]")
        size = page.evaluate("[document.documentElement.scrollWidth,"
                             " document.documentElement.scrollHeight]")
        assert size == [width, height], size  # no scrolling either way
        for selector in ("#board .pyramid", "#board .piles", "[data-action=undo]"):
            box = page.locator(selector).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, selector
            assert box["y"] >= 0 and box["y"] + box["height"] <= height, selector
        card = page.locator("#board .card.in-pyramid").first.bounding_box()
        if width >= 1920:
            assert card["width"] > 100  # the cards grow to use a big screen
        if phone:
            # A finger's target: the face-down stock draws, at least 24 px either way; no key
            # badges or keyboard help on a touch screen.
            back = page.locator("#board [data-stock-back]").bounding_box()
            assert back["width"] >= 24 and back["height"] >= 24
            assert page.locator(".key-badge").first.is_hidden()
            assert page.locator("[data-keyboard-help]").is_hidden()
    finally:
        context.close()

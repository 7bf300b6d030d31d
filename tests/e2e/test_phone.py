"""A card game you'd keep on your phone, in Chromium at 390x844, 360x640 and 844x390
(touch) and on a desktop: the end's banner and its fold on the screen with no sideways scroll,
after a win and after a loss, and once every animation has ended; cards that fly (a removed
card's copy seen between its place and the removed pile, frame after frame; none with reduced
motion); Finish playing out a forced ending; what a screen reader hears after a draw and a
pair; and a reload right after quick presses, fifty times.

Every wait is for what is checked: an element, an attribute, the animations' end."""

from __future__ import annotations

import os

import pytest

from app.engine import Deal, Game, Move
from app.engine.solver import solve

from .helpers import start_game
from .test_play_feel import board_matches_server, game_id, settled

pytestmark = pytest.mark.browser

SIZES = {"390x844": (390, 844, True), "360x640": (360, 640, True), "844x390": (844, 390, True),
         "1280x860": (1280, 860, False)}
FORCED_DEAL, FORCED_FROM = 313, 52
"""Whole deck, three passes: after the solver's first 52 moves, the last three are forced."""


def new_page(browser, server, size: str, motion: str = "reduce"):
    width, height, phone = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height},
                                  base_url=server.url, has_touch=phone, is_mobile=phone,
                                  reduced_motion=motion)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def play_through_the_api(page, moves) -> None:
    for move in moves:
        assert page.request.post(f"/api/games/{game_id(page)}/moves", data=move.to_dict()).ok


def all_animations_ended(page) -> None:
    page.evaluate("Promise.all(document.getAnimations().map(a => a.finished.catch(() => null)))")


def banner_fits(page, size: str) -> None:
    width, height, _ = SIZES[size]
    banner = page.locator("[data-banner]").bounding_box()
    toggle = page.locator("[data-banner-toggle]").bounding_box()
    assert banner["y"] >= 0, banner  # its top, "You won!" or "Game over", on the screen
    assert toggle["y"] >= 0 and toggle["y"] + toggle["height"] <= height, toggle
    assert toggle["x"] >= 0 and toggle["x"] + toggle["width"] <= width, toggle
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # never sideways


@pytest.mark.parametrize("size", SIZES)
def test_the_end_fits_the_screen_after_a_win_and_a_loss(browser, server, size):
    context, page = new_page(browser, server, size, motion="no-preference")
    try:
        start_game(page, 3)
        settled(page)
        line = solve(Game(Deal.from_number(3), "standard", 3)).moves
        play_through_the_api(page, line[:-1])
        page.reload()
        page.wait_for_selector(f'#board[data-moves="{len(line) - 1}"]')
        settled(page)
        last = line[-1]
        for card in last.cards:  # the winning move played on the page: the cascade too
            page.click(f'#board button[data-card="{card.name}"]')
        page.wait_for_selector('[data-banner="won"]')
        settled(page)
        page.wait_for_selector('[data-banner="won"]:not([data-local])')  # the server's own
        banner_fits(page, size)
        assert "You won!" in page.locator("[data-banner] h2").inner_text()
        all_animations_ended(page)
        banner_fits(page, size)

        start_game(page, 8, "?passes=1")  # lost by drawing the stock through
        settled(page)
        play_through_the_api(page, [Move.draw()] * 23)
        page.reload()
        page.wait_for_selector('#board[data-moves="23"]')
        page.keyboard.press("d")
        page.wait_for_selector('[data-banner="lost"]')
        settled(page)
        page.wait_for_selector('[data-banner="lost"]:not([data-local])')
        banner_fits(page, size)
        all_animations_ended(page)
        banner_fits(page, size)
        page.click("[data-banner-toggle]")  # folded: the board to study
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size][0]
    finally:
        context.close()


WATCH = """card => {
  const seen = window.flightFrames = [];
  const tick = () => {
    const copy = document.querySelector('.card.flying[data-card="' + card + '"]');
    seen.push(copy ? [copy.getBoundingClientRect().left, copy.getBoundingClientRect().top,
                      copy.tagName, copy.getAttribute('aria-hidden')] : null);
    if (seen.length < 40) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


def frames_seen(page) -> list:
    """The flying copy's place at each of the 40 frames after ``WATCH`` began."""
    page.wait_for_function("() => window.flightFrames.length >= 40")
    return page.evaluate("window.flightFrames")


def king_on_deal_617(page) -> tuple[dict, dict]:
    """Where K♦ is on deal 617's board and where the removed pile is."""
    return (page.locator('#board button[data-card="KD"]').bounding_box(),
            page.locator('[data-top="discard"]').bounding_box())


def test_a_removed_card_flies_to_the_removed_pile(browser, server):
    context, page = new_page(browser, server, "390x844", motion="no-preference")
    try:
        start_game(page, 617)
        settled(page)
        page.wait_for_function("() => !document.querySelector('.card.flying')")  # the deal in
        source, pile = king_on_deal_617(page)
        page.evaluate(WATCH, "KD")
        page.tap('#board button[data-card="KD"]')
        # The board's truth is there at once: no button for K♦, the move counted.
        assert page.locator('#board button[data-card="KD"]').count() == 0
        assert page.get_attribute("#board", "data-moves") == "1"
        seen = [frame for frame in frames_seen(page) if frame]
        assert len(seen) >= 3, seen  # several frames of flight
        assert all(tag == "SPAN" and hidden == "true" for _, _, tag, hidden in seen)
        tops = [top for _, top, _, _ in seen]
        assert tops == sorted(tops) and len(set(tops)) >= 3  # moving, frame after frame
        assert source["y"] - 1 <= tops[0] and tops[-1] <= pile["y"] + 1  # place to pile
        page.wait_for_function("() => !document.querySelector('.card.flying')")
        assert page.locator('[data-top="discard"] [data-card="KD"]').count() == 1
    finally:
        context.close()


def test_with_reduced_motion_nothing_travels(browser, server):
    context, page = new_page(browser, server, "390x844", motion="reduce")
    try:
        start_game(page, 617)
        settled(page)
        page.evaluate(WATCH, "KD")
        page.tap('#board button[data-card="KD"]')
        assert not any(frames_seen(page))
        assert page.locator(".card.flying").count() == 0
    finally:
        context.close()


def test_finish_plays_out_an_ending_that_needs_no_choice(page):
    start_game(page, FORCED_DEAL, "?goal=wholedeck")
    settled(page)
    line = solve(Game(Deal.from_number(FORCED_DEAL), "wholedeck", 3)).moves
    play_through_the_api(page, line[:FORCED_FROM - 1])
    page.reload()
    page.wait_for_selector(f'#board[data-moves="{FORCED_FROM - 1}"]')
    finish = page.locator('[data-action="finish"]')
    assert finish.is_hidden()  # one more choice to make
    move = line[FORCED_FROM - 1]
    if move.cards:
        for card in move.cards:
            page.click(f'#board button[data-card="{card.name}"]')
    else:
        page.keyboard.press("d")
    finish.wait_for()
    page.keyboard.press("f")
    page.wait_for_selector('#board[data-status="won"]')
    settled(page)
    state = board_matches_server(page)
    assert state["status"] == "won" and len(state["moves"]) == len(line)


def test_a_screen_reader_hears_the_cards_by_the_names_their_buttons_have(page):
    start_game(page, 617)
    settled(page)
    game = Game(Deal.from_number(617), "standard", 3)
    drawn, next_card = game.stock[0], game.stock[1]
    page.keyboard.press("d")
    message = page.locator("#message")
    assert message.inner_text() == (f"Drew {drawn.long_name}; {next_card.long_name} is the "
                                    "stock's card now.")
    assert page.locator('[aria-live="polite"]#message').count() == 1
    label = page.get_attribute('#board button[data-card="5H"]', "aria-label")
    assert label == "5 of hearts, free"
    page.click('#board button[data-card="5H"]')
    page.click('#board button[data-card="8D"]')
    assert message.inner_text() == "Removed 5 of hearts and 8 of diamonds."
    covered = page.get_attribute('#board [data-card="7D"]', "aria-label")
    assert covered == "7 of diamonds, covered by Ace of diamonds and 5 of clubs"
    rows = page.locator('#board .pyramid [role="group"]')
    assert rows.count() == 7 and rows.first.get_attribute("aria-label") == "Row 1 of 7"


RELOADS = int(os.environ.get("E2E_RELOADS", "20"))
"""Reloads right after quick presses: 20 a suite run (each costs a page load); `make
e2e-repeat` asks for 50 a run, ten runs."""


def test_a_reload_right_after_quick_presses_shows_them_every_time(page):
    pressed = 66
    for turn in range(RELOADS):
        if pressed >= 66:  # three passes of 24 draws: another deal
            start_game(page, 42 + turn)
            settled(page)
            pressed = 0
        page.keyboard.press("d")
        page.keyboard.press("d")
        pressed += 2
        page.reload()
        # The moves are on the device: the page shows them at once, whatever has landed.
        page.wait_for_selector(f'#board[data-moves="{pressed}"]', state="attached")
        settled(page)
        assert board_matches_server(page)["moves"].__len__() == pressed

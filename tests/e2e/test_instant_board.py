"""The instant board, as an impatient player on a slow network finds it: a listed
move shows before its answer, a burst costs two round trips, and the page never gives up: a
stopped server, a reload during an input, a second tab. Every test ends with the board equal to
``GET /api/games/{id}``."""

from __future__ import annotations

import sqlite3

import pytest
from playwright.sync_api import expect

from app.engine import Deal, Game
from app.engine.solver import solve

from .test_play_feel import board_matches_server, game_id, open_deal, settled

pytestmark = pytest.mark.browser


def slow_network(page, latency_ms: int) -> None:
    """Chromium's own network emulation: every request takes ``latency_ms`` longer."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": latency_ms, "downloadThroughput": -1,
        "uploadThroughput": -1})


def posts_to_play(page) -> list[str]:
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.post_data or "")
            if request.method == "POST" and request.url.endswith("/play") else None)
    return sent


def gone_and_pending(page, card: str) -> tuple[bool, str]:
    """Right after an input: is the card already gone from the board's buttons, and how many
    inputs has the server not answered yet?"""
    return page.evaluate(
        """card => [!document.querySelector('#board button[data-card="' + card + '"]'),
                    document.documentElement.dataset.inputs]""", card)


def test_a_listed_move_shows_before_its_answer(page):
    open_deal(page, 2)  # its King of spades is free from the start
    slow_network(page, 400)
    page.click('#board button[data-card="KS"]')
    gone, pending = gone_and_pending(page, "KS")
    assert gone and pending == "1"  # drawn at once, the answer still on its way
    assert page.locator('#board[data-moves="1"]').count() == 1
    assert page.locator('[data-counter="moves"]').inner_text() == "1"
    settled(page)
    board_matches_server(page)


def test_a_pair_and_a_draw_show_at_once_with_the_next_card_known(page):
    """The page has the rules and the deal: a draw shows the stock's next card at once (no
    card "not yet known"), and a pair leaves before its answer."""
    open_deal(page, 617)
    slow_network(page, 400)
    game = Game(Deal.from_number(617), "standard", 3)
    stock_top, next_card = game.stock[0].name, game.stock[1].name
    page.keyboard.press("d")
    assert page.locator(f'[data-top="waste"] button[data-card="{stock_top}"]').count() == 1
    assert page.locator(f'[data-top="stock"] button[data-card="{next_card}"]').count() == 1
    assert page.locator('[data-count="stock"]').inner_text() == "23"
    page.click('#board button[data-card="5H"]')
    page.click('#board button[data-card="8D"]')
    assert gone_and_pending(page, "5H")[0] and gone_and_pending(page, "8D")[0]
    settled(page)
    board_matches_server(page)


def test_five_quick_undos_show_at_once_on_a_slow_network(page):
    open_deal(page, 42)
    for _ in range(5):
        page.keyboard.press("d")
    settled(page)
    slow_network(page, 300)
    for remaining in range(4, -1, -1):
        page.keyboard.press("u")
        # Each undo is drawn before any answer: the move count steps back at once.
        assert page.locator("#board").get_attribute("data-moves") == str(remaining)
    settled(page)
    state = board_matches_server(page)
    assert state["moves"] == [] and state["waste"]["count"] == 0


def test_ten_quick_draws_on_a_slow_network_are_ten_draws_in_two_round_trips(page):
    open_deal(page, 42)
    sent = posts_to_play(page)
    slow_network(page, 300)
    for _ in range(10):
        page.keyboard.press("d")
    assert page.locator('[data-count="waste"]').inner_text() == "10"  # all drawn at once
    settled(page)
    state = board_matches_server(page)
    assert state["waste"]["count"] == 10 and len(state["moves"]) == 10
    # The first draw, then the rest together: a batch a round trip, not a request a press (a
    # loaded machine may spread ten presses over more than one round trip: three at most).
    assert len(sent) <= 3, sent


def test_a_move_made_elsewhere_first_wins_and_the_page_says_what_was_not_kept(page):
    """Another device (here the JSON API, with the same player) moves first: the page's batch
    is refused on its old version, the board shows the server's game, and the player is told
    how many inputs made here were not kept."""
    open_deal(page, 617)
    game = game_id(page)
    made = page.request.post(f"/api/games/{game}/moves", data={"op": "remove", "cards": ["KD"]})
    assert made.ok
    page.keyboard.press("d")  # drawn at once here, then refused: made on an older version
    expect(page.locator("#message [data-refused]")).to_contain_text("1 move made here was not kept")
    settled(page)
    state = board_matches_server(page)
    assert [m["cards"] for m in state["moves"]] == [["KD"]]


def test_two_tabs_of_one_game_stay_in_step(page):
    open_deal(page, 617)
    other = page.context.new_page()
    other.goto(page.url)
    other.wait_for_selector("#board[data-game]")
    settled(other)
    other.click('#board button[data-card="KD"]')
    settled(other)
    page.wait_for_selector('#board[data-moves="1"]')  # the idle tab follows at once
    page.keyboard.press("d")  # played on top, not refused
    settled(page)
    other.wait_for_selector('#board[data-moves="2"]')
    state = board_matches_server(page)
    assert [m["op"] for m in state["moves"]] == ["remove", "draw"]
    assert "not kept" not in page.locator("#message").inner_text()
    other.close()


def test_the_server_stopped_and_started_again_mid_game(page, server):
    open_deal(page, 42)
    page.keyboard.press("d")
    settled(page)
    server.stop()
    try:
        page.keyboard.press("d")
        expect(page.locator("[data-offline]")).to_be_visible()
        assert page.locator(".card.pressed").count() == 0
        assert page.locator("[data-elapsed]").get_attribute("data-running") in ("true", "false")
        page.keyboard.press("d")  # made while away: it waits, drawn
        assert page.locator('[data-count="waste"]').inner_text() == "3"
    finally:
        server.start()
    expect(page.locator("[data-offline]")).to_be_hidden(timeout=20_000)
    settled(page)
    state = board_matches_server(page)
    assert state["waste"]["count"] == 3 and len(state["moves"]) == 3  # each once


def test_a_reload_during_an_input_keeps_it_and_it_lands_once(page, server):
    """The input reaches the server, which is held up (another writer has the database); the
    page is reloaded meanwhile: the move is still shown (kept on the device), lands once, and
    the next input is played, not refused."""
    open_deal(page, 42)
    path = server.database_url.removeprefix("sqlite:///")
    blocker = sqlite3.connect(path, timeout=5, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/play")):
            page.keyboard.press("d")
        page.reload()
        page.wait_for_selector('#board[data-moves="1"]')
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    settled(page)
    assert len(board_matches_server(page)["moves"]) == 1
    page.keyboard.press("d")
    settled(page)
    assert "not kept" not in page.locator("#message").inner_text()
    assert board_matches_server(page)["waste"]["count"] == 2


def test_a_tab_coming_back_into_view_shows_what_another_device_played(page):
    open_deal(page, 42)
    made = page.request.post(f"/api/games/{game_id(page)}/moves", data={"op": "draw"})
    assert made.ok
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_selector('#board[data-moves="1"]')
    expect(page.locator("#message")).to_contain_text("another tab")
    board_matches_server(page)


def test_a_reload_after_moves_made_elsewhere_plays_the_next_input_on_the_page_s_game(page):
    """The page took in a move made on another device, and kept that game on this device;
    another move there, then a reload: the page's game, newer than the copy kept, is the one
    kept now, and the next input is played on it, not sent on the older version and refused
    (a loaded machine's test had its page look again while the moves were being made)."""
    open_deal(page, 42)
    game = game_id(page)
    assert page.request.post(f"/api/games/{game}/moves", data={"op": "draw"}).ok
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_selector('#board[data-moves="1"]')
    assert page.request.post(f"/api/games/{game}/moves", data={"op": "draw"}).ok
    page.reload()
    page.wait_for_selector('#board[data-moves="2"]')
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-moves="3"]')
    settled(page)
    assert "not kept" not in page.locator("#message").inner_text()
    assert board_matches_server(page)["waste"]["count"] == 3


def test_a_won_game_played_fast_ends_equal_to_the_server(page):
    """The solver's whole winning line, each move pressed without waiting for an answer."""
    open_deal(page, 617, "?goal=wholedeck")
    slow_network(page, 150)
    line = solve(Game(Deal.from_number(617), "wholedeck", 3)).moves
    for move in line:
        if move.op.value == "draw" or move.op.value == "recycle":
            page.keyboard.press("d")
        else:
            for card in move.cards:
                page.wait_for_selector(f'#board button[data-card="{card.name}"]:not([disabled])')
                page.click(f'#board button[data-card="{card.name}"]')
    settled(page)
    page.wait_for_selector('#board[data-status="won"]')
    state = board_matches_server(page)
    assert state["status"] == "won" and len(state["moves"]) == len(line)
    assert game_id(page)

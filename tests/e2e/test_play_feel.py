"""Play feel, as an impatient player finds it in Chromium: every input counts, in order, and the
board never shows a position the server does not hold.

Each test waits for what it checks: ``settled`` waits until the board's input queue is empty
and no request is in flight (``<html data-inputs="0">``), then the board must equal the game
the JSON API returns.
"""

from __future__ import annotations

import re
from itertools import combinations

import pytest

from app.engine import Card, Deal, Game, Move

from .helpers import start_game

pytestmark = pytest.mark.browser


def settled(page) -> None:
    page.wait_for_selector('html[data-inputs="0"]', state="attached")
    page.wait_for_selector("#board:not([aria-busy])", state="attached")


def game_id(page) -> str:
    match = re.search(r"/games/([\w-]+)", page.url)
    assert match, page.url
    return match.group(1)


def server_state(page) -> dict:
    response = page.request.get(f"/api/games/{game_id(page)}")
    assert response.ok
    return response.json()


def board_matches_server(page) -> dict:
    """The board as drawn equals the stored game: moves, version, stock, waste, pyramid."""
    state = server_state(page)
    board = page.locator("#board")
    assert board.get_attribute("data-moves") == str(len(state["moves"]))
    assert board.get_attribute("data-version") == str(state["version"])
    assert page.locator('[data-count="stock"]').inner_text() == str(state["stock"]["count"])
    assert page.locator('[data-count="waste"]').inner_text() == str(state["waste"]["count"])
    shown = set(page.eval_on_selector_all("#board .pyramid .card[data-card]",
                                          "els => els.map(e => e.dataset.card)"))
    assert shown == {card for card in state["pyramid"] if card}
    waste_top = state["waste"]["top"]
    if waste_top:
        assert page.locator(f'.waste button[data-card="{waste_top}"]').count() == 1
    assert page.locator('[data-counter="moves"]').inner_text() == str(len(state["moves"]))
    return state


def open_deal(page, number: int, query: str = "") -> None:
    start_game(page, number, query)
    settled(page)


def replayed(state: dict) -> Game:
    return Game.replay(Deal.from_number(state["deal"]), state["goal"], state["passes"],
                       [Move.from_dict(m) for m in state["moves"]])


def test_six_quick_draws_make_six_draws(page):
    """And the solver's worker, asked for a verdict after each, is started once: ending it
    at every quick press started a worker a press."""
    workers = []
    page.on("worker", lambda worker: workers.append(worker))
    open_deal(page, 42)
    page.locator("#board").focus()
    for _ in range(6):
        page.keyboard.press("d")
    settled(page)
    state = board_matches_server(page)
    assert [m["op"] for m in state["moves"]] == ["draw"] * 6
    page.wait_for_selector('[data-verdict-note][data-device-verdict="winnable"]', state="attached")
    assert len(workers) == 1, [worker.url for worker in workers]


def test_six_quick_draws_with_motion_make_six_draws(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 860},
                                  reduced_motion="no-preference", base_url=server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        open_deal(page, 42)
        for _ in range(6):
            page.keyboard.press("D")
        settled(page)
        state = board_matches_server(page)
        assert len(state["moves"]) == 6
    finally:
        context.close()


def two_disjoint_pairs(game: Game) -> tuple[tuple[Card, Card], tuple[Card, Card]] | None:
    free = [card for card in game.free_cards() if not card.is_king]
    pairs = [(a, b) for a, b in combinations(free, 2) if a.rank + b.rank == 13]
    for first, second in combinations(pairs, 2):
        if not set(first) & set(second):
            return first, second
    return None


def test_two_pairs_clicked_quickly_remove_both(page):
    for number in range(1, 400):
        game = Game(Deal.from_number(number), "standard", 3)
        found = two_disjoint_pairs(game)
        if found and all(card in game.pyramid for pair in found for card in pair):
            break
    else:
        pytest.fail("no deal with two free pairs in the pyramid")
    open_deal(page, number)
    for pair in found:
        for card in pair:
            page.click(f'#board button[data-card="{card.name}"]', no_wait_after=True)
    settled(page)
    state = board_matches_server(page)
    removed = [set(m["cards"]) for m in state["moves"]]
    assert removed == [{c.name for c in pair} for pair in found]


def test_a_double_click_on_a_king_removes_it_once_and_says_nothing_wrong(page):
    for number in range(1, 400):
        game = Game(Deal.from_number(number), "standard", 3)
        kings = [card for card in game.free_cards() if card.is_king and card in game.pyramid]
        if kings:
            break
    open_deal(page, number)
    page.dblclick(f'#board button[data-card="{kings[0].name}"]')
    settled(page)
    state = board_matches_server(page)
    assert state["moves"] == [{"op": "remove", "cards": [kings[0].name]}]
    assert page.locator("#message [data-refused]").count() == 0
    assert "Removed" in page.locator("#message").inner_text()


def test_a_refused_pair_shakes_and_says_why(page):
    open_deal(page, 3)
    game = replayed(server_state(page))
    free = [card for card in game.free_cards() if not card.is_king and card in game.pyramid]
    a, b = next((a, b) for a, b in combinations(free, 2) if a.rank + b.rank != 13)
    page.click(f'#board button[data-card="{a.name}"]')
    page.click(f'#board button[data-card="{b.name}"]')
    settled(page)
    assert "not 13" in page.locator("#message [data-refused]").inner_text()
    assert page.locator("#board .card.refused").count() == 2
    assert board_matches_server(page)["moves"] == []


def test_clicking_the_face_down_stock_draws(page):
    open_deal(page, 42)
    edge = page.locator("#board [data-stock-back]")
    box = edge.bounding_box()
    # Only the edge shows from under the face-up top card: click that strip.
    page.mouse.click(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)
    settled(page)
    state = board_matches_server(page)
    assert [m["op"] for m in state["moves"]] == ["draw"]


def test_dragging_a_card_onto_its_partner_removes_the_pair(page):
    for number in range(1, 400):
        game = Game(Deal.from_number(number), "standard", 3)
        free = [c for c in game.free_cards() if not c.is_king and c in game.pyramid]
        pairs = [(a, b) for a, b in combinations(free, 2) if a.rank + b.rank == 13]
        if pairs:
            break
    a, b = pairs[0]
    open_deal(page, number)
    source = page.locator(f'#board button[data-card="{a.name}"]').bounding_box()
    target = page.locator(f'#board button[data-card="{b.name}"]').bounding_box()
    page.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    page.mouse.down()
    page.mouse.move(target["x"] + 5, target["y"] + 10, steps=8)
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2,
                    steps=4)
    page.mouse.up()
    settled(page)
    state = board_matches_server(page)
    assert [set(m["cards"]) for m in state["moves"]] == [{a.name, b.name}]


def test_back_forward_and_reload_show_the_servers_position(page):
    open_deal(page, 42)
    page.keyboard.press("d")
    page.keyboard.press("d")
    settled(page)
    board_matches_server(page)
    page.click("header.site a[href='/rules']")
    page.wait_for_selector("h1")
    page.go_back()
    page.wait_for_selector('#board[data-moves="2"]')
    settled(page)
    board_matches_server(page)
    page.keyboard.press("d")
    settled(page)
    page.goto("/")
    page.wait_for_selector("[data-continue]")
    page.go_back()
    page.wait_for_selector('#board[data-moves="3"]')
    settled(page)
    board_matches_server(page)
    page.go_forward()
    page.wait_for_selector("[data-continue]")
    assert "3 moves" in page.locator("[data-continue]").inner_text()
    page.reload()
    page.wait_for_selector("[data-continue]")


def test_the_clock_starts_at_the_first_move(page):
    open_deal(page, 42)
    clock = page.locator("[data-elapsed]")
    assert clock.get_attribute("data-running") == "false"
    page.keyboard.press("d")
    settled(page)
    assert page.locator("[data-elapsed]").get_attribute("data-running") == "true"


def test_starting_another_deal_asks_before_abandoning(page):
    open_deal(page, 42)
    page.keyboard.press("d")
    settled(page)
    first = game_id(page)
    page.goto("/deal/43")
    page.wait_for_selector("[data-confirm-abandon]")
    assert "counts as a loss" in page.locator("h1").inner_text()
    page.click("[data-action=continue]")
    page.wait_for_selector("#board[data-game]")
    assert game_id(page) == first
    # Restart asks on the board itself, and the same deal is there at once; the game left is
    # abandoned when the new one's first move reaches the server.
    page.click("[data-action=restart]")
    page.wait_for_selector("[data-ask-leave]:not([hidden])")
    page.click('[data-ask-leave] [data-answer="yes"]')
    page.wait_for_selector('#board[data-moves="0"]')
    assert "/deal/42" in page.url
    page.keyboard.press("d")
    settled(page)
    assert game_id(page) != first
    response = page.request.get(f"/api/games/{first}")
    assert response.json()["status"] == "abandoned"


def test_without_javascript_the_abandon_question_is_asked_too(browser, server):
    context = browser.new_context(java_script_enabled=False, base_url=server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto("/deal/42")
        page.click("[data-action=draw]")
        page.wait_for_selector('#board[data-moves="1"]')
        first = game_id(page)
        page.click("[data-action=new]")
        page.wait_for_selector("[data-confirm-abandon]")
        page.click("[data-action=abandon]")
        page.wait_for_selector('#board[data-moves="0"]')
        assert game_id(page) != first
    finally:
        context.close()


def test_replay_steps_replace_the_history_entry(page):
    open_deal(page, 42)
    for _ in range(3):
        page.keyboard.press("d")
    settled(page)
    gid = game_id(page)
    page.goto("/")  # leave the game: it is abandoned once another starts
    page.goto("/deal/44")
    page.wait_for_selector("[data-confirm-abandon]")
    page.click("[data-action=abandon]")
    page.wait_for_selector("#board[data-game]")
    page.goto(f"/games/{gid}/replay")
    page.wait_for_selector("#replay-stage")
    entries = page.evaluate("history.length")
    for step in (1, 2, 3):  # as fast as the stage is redrawn: each key right after a swap
        page.keyboard.press("ArrowRight")
        page.wait_for_selector(f'#replay-stage[data-step="{step}"]')
    page.wait_for_url(lambda url: url.endswith("step=3"))  # htmx replaces it after the swap
    assert page.evaluate("history.length") == entries  # replaced, never added
    page.go_back()
    page.wait_for_url(lambda url: "/replay" not in url)
    assert "/replay" not in page.url

"""The solver on the device (issue 45), in Chromium with the network cut: a hint on a mid-game
position, the verdict after a losing move and a lost game's coach come from the WebAssembly
solver in the page's worker, each equal to what the server answers for the same position once
the network is back; a hint taken on the device is counted in the synced game's hints_used.

Every wait is for what is checked (``wait_until`` polls the page)."""

from __future__ import annotations

import json

import pytest

from app.engine import Deal, Game, Move
from app.engine.analysis import analyse
from app.engine.solver import solve

from .helpers import start_game
from .test_offline import controlled, wait_until
from .test_play_feel import game_id, settled

pytestmark = pytest.mark.browser


def play(page, move: Move, count: int) -> None:
    """Play ``move`` on the board as a player does, and wait until it is drawn (move ``count``)."""
    if move.cards:
        for card in move.cards:
            page.click(f'#board button[data-card="{card.name}"]')
    else:
        page.keyboard.press("d")
    page.wait_for_selector(f'#board[data-moves="{count}"]', state="attached")


def api(page, path: str, method: str = "GET") -> dict:
    answer = page.request.post(path) if method == "POST" else page.request.get(path)
    assert answer.ok, (path, answer.status)
    return answer.json()


def hint_shown(page) -> dict:
    """Ask a hint (the H key) and return the move #board names, once it names one."""
    page.evaluate("() => { delete document.querySelector('#board').dataset.hintFrom; }")
    page.keyboard.press("h")
    wait_until(page, "() => document.querySelector('#board').dataset.hintFrom", "a hint")
    return json.loads(page.get_attribute("#board", "data-hint"))


def test_a_hint_offline_is_the_servers_and_counted_once_synced(page):
    start_game(page, 617)
    settled(page)
    controlled(page)
    game = Game(Deal.from_number(617), "standard", 3)
    line = solve(game).moves
    first = hint_shown(page)  # online too, the device answers first
    assert page.get_attribute("#board", "data-hint-from") == "device"
    assert Move.from_dict(first) == line[0]
    for number, move in enumerate(line[:9], start=1):
        play(page, move, number)
        game.play(move)
    settled(page)
    assert api(page, f"/api/games/{game_id(page)}")["hints_used"] == 1
    page.context.set_offline(True)
    hinted = hint_shown(page)
    assert page.get_attribute("#board", "data-hint-from") == "device"
    assert page.locator("#board .hinted").count() >= 1
    page.context.set_offline(False)
    settled(page)
    state = api(page, f"/api/games/{game_id(page)}")
    assert state["hints_used"] == 2 and len(state["moves"]) == 9
    served = api(page, f"/api/games/{game_id(page)}/hint", "POST")
    assert served["move"] == hinted
    assert Move.from_dict(hinted) == solve(game).moves[0]


def losing_line(number: int) -> tuple[list[Move], int]:
    """From deal ``number``'s start (standard, 3 passes): the solver's line up to a point, then
    a move that loses; the moves, and how many of them were played while it was winnable."""
    game = Game(Deal.from_number(number), "standard", 3)
    line = list(solve(game).moves)
    for cut in range(4, len(line)):
        position = Game.replay(game.deal, "standard", 3, line[:cut])
        for move in position.legal_moves:
            position.play(move)
            if solve(position).winnable is False:
                return [*line[:cut], move], cut
            position.undo()
    raise AssertionError("no losing move found")


def test_the_verdict_after_a_losing_move_and_the_coach_offline(page):
    moves, winnable_for = losing_line(617)
    start_game(page, 617)
    settled(page)
    controlled(page)
    page.context.set_offline(True)
    for number, move in enumerate(moves[:winnable_for], start=1):
        play(page, move, number)
    page.wait_for_selector('[data-verdict-note][data-device-verdict="winnable"]', state="attached")
    assert page.locator("[data-verdict-note]").is_hidden()
    play(page, moves[winnable_for], winnable_for + 1)
    page.wait_for_selector('[data-verdict-note][data-device-verdict="not_winnable"]:not([hidden])')
    # Played on to the end, with no network: the coach from the device.
    game = Game.replay(Deal.from_number(617), "standard", 3, moves)
    while not game.is_over():
        move = game.legal_moves[-1]
        game.play(move)
        play(page, move, len(game.moves))
    assert game.status.value == "lost"
    found = wait_until(page, """() => {
        const p = document.querySelector('[data-analysis-from=device] [data-verdict]');
        return p && [p.dataset.verdict, p.dataset.lostAt, p.textContent];
    }""", "the device's coach")
    expected = analyse(game)
    assert found[0] == "lost-at" and int(found[1]) == expected.lost_at == winnable_for + 1
    page.context.set_offline(False)
    settled(page)
    # The server's banner replaces the device's, and loads the server's own analysis.
    served = page.locator("[data-analysis]:not([data-analysis-from]) [data-verdict]")
    served.wait_for()
    assert served.get_attribute("data-verdict") == "lost-at"
    assert served.get_attribute("data-lost-at") == found[1]
    assert served.inner_text() == found[2]

"""The solver on the device, in Chromium with the network cut: a hint on a mid-game
position, the verdict after a losing move and a lost game's coach come from the WebAssembly
solver in the page's worker, each equal to what the server answers for the same position once
the network is back; a hint taken on the device is counted in the synced game's hints_used; the
coach's "Try again from move N" begins the game on the device (on a phone's screen), stored as
the server's own retry once synced, saying what the server's retry says.

Every wait is for what is checked (``wait_until`` polls the page)."""

from __future__ import annotations

import json

import pytest

from app.engine import Deal, Game, Move
from app.engine.analysis import analyse
from app.engine.solver import solve
from tests.dailies import spare_deals

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


@pytest.mark.offline
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


@pytest.mark.offline
def test_the_verdict_after_a_losing_move_the_coach_and_a_try_again_offline(page):
    moves, winnable_for = losing_line(617)
    start_game(page, 617)
    settled(page)
    controlled(page)
    lost_id = game_id(page)
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
    lost_at = expected.lost_at
    assert found[0] == "lost-at" and int(found[1]) == lost_at == winnable_for + 1
    # "Try again from move N", still with no network: a game begun here before that move,
    # the move that keeps the win marked, as the server's retry does.
    # On a phone, where a train's player has it: the control fits and takes a finger.
    page.set_viewport_size({"width": 360, "height": 740})
    retry = page.locator("[data-analysis-from=device] [data-action=retry]")
    offered = retry.inner_text()
    assert offered == f"Try again from move {lost_at}"
    retry.scroll_into_view_if_needed()
    box = retry.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360 and box["height"] >= 44, box
    retry.click()
    page.wait_for_selector(f'#board[data-moves="{lost_at - 1}"]:not([data-status="lost"])',
                           state="attached")
    better = expected.better_move
    marked = page.locator("#board .hinted")
    marked.first.wait_for()
    if better.cards:
        assert sorted(marked.evaluate_all("all => all.map(c => c.dataset.card)")) == sorted(
            card.name for card in better.cards)
    said = page.locator("#message").inner_text()
    assert f"Back before move {lost_at}" in said
    play(page, better, lost_at)
    assert page.locator("#board .hinted").count() == 0  # the mark went with the next input
    page.context.set_offline(False)
    settled(page)
    retry_id = wait_until(page, "() => document.querySelector('#board').dataset.game",
                          "the try again stored")
    stored = api(page, f"/api/games/{retry_id}")
    assert stored["counted"] is False and stored["status"] == "playing"
    assert [Move.from_dict(m) for m in stored["moves"]] == [*moves[:lost_at - 1], better]
    # The server's analysis of the lost game (synced too) says what the device said, and its
    # page offers the same try again.
    served = api(page, f"/api/games/{lost_id}/analysis")
    assert served["lost_at"] == lost_at and Move.from_dict(served["better_move"]) == better
    page.goto(f"/games/{lost_id}")
    verdict = page.locator("[data-analysis]:not([data-analysis-from]) [data-verdict]")
    verdict.wait_for()
    assert verdict.get_attribute("data-verdict") == "lost-at"
    assert verdict.get_attribute("data-lost-at") == found[1]
    assert verdict.inner_text() == found[2]
    assert page.locator("[data-analysis] [data-action=retry]").inner_text() == offered
    # The server's own try again from there (leaving the device's, in progress) says what
    # the device's did.
    page.click("[data-analysis] [data-action=retry]")
    page.click("[data-confirm-abandon] [data-action=abandon]")
    page.wait_for_url(lambda url: lost_id not in url and retry_id not in url)
    page.wait_for_selector(f'#board[data-moves="{lost_at - 1}"]', state="attached")
    assert page.locator("#message").inner_text() == said


WORKER_ASKED = "const { id, kind, position, nodeLimit } = data;"
DEAL = 2703
"""Winnable, played by no other browser test (a move known from another game at the same
address counts as a hint, docs/players.md, and this test counts the hints of its own), and a
deal of the day on no day for years (``tests.dailies``)."""


def hints_never_sure():
    """A route handler: the solver's worker as it is, but every hint searched with one node
    ("not sure"); the service worker keeps this one for the times with no network."""
    kept: list[str] = []

    def handle(route) -> None:
        if not kept:
            source = route.fetch().text()
            assert WORKER_ASKED in source, "worker.js reads its question otherwise now"
            kept.append(source.replace(WORKER_ASKED, (
                "const { id, kind, position } = data;"
                " const nodeLimit = kind === 'hint' ? 1 : data.nodeLimit;")))
        route.fulfill(body=kept[0], headers={"Content-Type": "text/javascript"})

    return handle


@pytest.mark.offline
def test_a_try_again_begun_offline_takes_the_device_s_hint_when_the_server_has_none(page):
    """A try again begun with no network, the network back before its first move: the server
    has no hint for a game it has not stored (nothing is waiting to store it), so a hint the
    device is not sure of is the hint, and its step stores the game, counted."""
    assert spare_deals([DEAL]) == [DEAL]
    page.context.route("**/js/solver/worker.js", hints_never_sure())
    moves, _ = losing_line(DEAL)
    start_game(page, DEAL)
    play(page, moves[0], 1)
    settled(page)
    controlled(page)
    page.context.set_offline(True)
    game = Game.replay(Deal.from_number(DEAL), "standard", 3, moves)
    for number, move in enumerate(moves[1:], start=2):
        play(page, move, number)
    while not game.is_over():
        game.play(game.legal_moves[-1])
        play(page, game.moves[-1], len(game.moves))
    lost_at = analyse(game).lost_at
    page.click("[data-analysis-from=device] [data-action=retry]")
    page.wait_for_selector(f'#board[data-moves="{lost_at - 1}"]:not([data-status="lost"])',
                           state="attached")
    page.context.set_offline(False)
    settled(page)  # the lost game saved; nothing of the try again to save yet
    page.wait_for_selector("html:not([data-offline-now])", state="attached")  # the page knows
    assert not page.get_attribute("#board", "data-game")
    # The hint as it is shown: the board is drawn again from the server's a moment later,
    # once the hint's step has stored the game.
    page.evaluate("""() => new MutationObserver((changes, observer) => {
        const board = document.querySelector('#board');
        if (!board.dataset.hintFrom) return;
        window.hintSeen = [board.dataset.hintFrom, JSON.parse(board.dataset.hint),
                           document.querySelector('#message').innerText];
        observer.disconnect();
    }).observe(document.body, {subtree: true, attributes: true, childList: true,
                               characterData: true})""")
    page.keyboard.press("h")
    source, hinted, said = wait_until(page, "() => window.hintSeen", "a hint")
    assert source == "device" and "could not decide" in said, (source, said)
    settled(page)
    retry_id = wait_until(page, "() => document.querySelector('#board').dataset.game",
                          "the try again stored")
    stored = api(page, f"/api/games/{retry_id}")
    assert stored["hints_used"] == 1 and len(stored["moves"]) == lost_at - 1, (stored, lost_at)
    legal = Game.replay(Deal.from_number(DEAL), "standard", 3, moves[:lost_at - 1]).legal_moves
    assert Move.from_dict(hinted) in legal

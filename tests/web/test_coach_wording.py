"""The coach's words after a loss. The better move is said as a player would
("Removing K♠ instead would have kept the win"), "Try again from move N" opens a board with that
move marked, and a hint in a lost position first says plainly that the deal can no longer be
won."""

from __future__ import annotations

import re

import pytest

from app.engine import Move
from app.engine.solver import Hint
from app.web.views.view import back_before, describe_hint, kept_the_win

from .test_analysis_api import find_lost_game, post_moves
from .test_notices_and_hints import live_region


@pytest.fixture(scope="module")
def lost() -> tuple[int, list[Move], int]:
    return find_lost_game()


def lose(client, lost) -> str:
    number, moves, _ = lost
    game_id = client.post("/api/games", json={"deal": number}).json()["id"]
    assert post_moves(client, game_id, moves)["status"] == "lost"
    return game_id


def better_move(client, game_id: str) -> Move:
    found = client.get(f"/api/games/{game_id}/analysis").json()
    assert found["better_move"] is not None
    return Move.from_dict(found["better_move"])


def test_a_move_is_said_as_something_done():
    said = "instead would have kept the win."
    assert kept_the_win(Move.remove("KS")) == f"Removing K♠ {said}"
    assert kept_the_win(Move.remove("5H", "8C")) == f"Removing 5♥ and 8♣ {said}"
    assert kept_the_win(Move.draw()) == f"Drawing a card from the stock {said}"
    assert kept_the_win(Move.recycle()) == f"Turning the waste over for the next pass {said}"


def test_the_lost_game_says_which_move_would_have_kept_the_win(client, lost):
    game_id = lose(client, lost)
    better = better_move(client, game_id)
    analysis = client.get(f"/games/{game_id}/analysis").text
    verdict = analysis.split('data-verdict="lost-at"', 1)[1].split("</p>", 1)[0]
    assert kept_the_win(better) in verdict
    assert "To remove" not in verdict and "To draw" not in verdict and "To turn" not in verdict


def test_try_again_marks_the_better_move_on_the_board(client, lost):
    game_id = lose(client, lost)
    better = better_move(client, game_id)
    analysis = client.get(f"/games/{game_id}/analysis").text
    before = re.search(r'name="before" value="(\d+)"', analysis).group(1)
    moved = client.post(f"/games/{game_id}/retry", data={"before": before},
                        follow_redirects=False)
    assert moved.status_code == 303
    board = client.get(moved.headers["location"]).text
    said = live_region(board)
    assert back_before(better, int(before)) in said
    if better.cards:
        for card in better.cards:
            assert re.search(rf'class="[^"]*\bhinted\b[^"]*"[^>]*data-card="{card.name}"', board)
    else:
        assert re.search(rf'hinted"?[^>]*data-action="{better.op.value}"', board)
    # The board's script is told too (it draws the board itself).
    data = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', board)
    marked = [card.name for card in better.cards] or [better.op.value]
    assert all(f'"{name}"' in data.group(1).split('"hinted"', 1)[1].split("]", 1)[0]
               for name in marked)
    # Shown once: a reload marks nothing.
    assert "hinted" not in client.get(moved.headers["location"]).text.split(
        'id="game-data"', 1)[0].split('id="board"', 1)[1]


def test_try_again_from_another_move_marks_nothing(client, lost):
    game_id = lose(client, lost)
    moved = client.post(f"/games/{game_id}/retry", data={"before": "1"},
                        follow_redirects=False)
    board = client.get(moved.headers["location"]).text
    assert "hinted" not in board.split('id="game-data"', 1)[0].split('id="board"', 1)[1]


def test_a_lost_position_s_hint_first_says_the_deal_is_lost():
    said = describe_hint(Hint(Move.draw(), False, ""), 2)
    assert said.startswith("This deal can no longer be won. ")
    assert "Hint: draw a card from the stock, which leaves the most cards you can still " \
           "remove." in said
    assert said.endswith("Undo 2 moves to get back to a winnable position.")
    assert "in play" not in said

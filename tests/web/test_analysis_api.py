"""The solver as a coach, through the API and the pages: hints that win, and where a lost game
went wrong (``lost_at``, ``better_move``), checked against the solver itself."""

from __future__ import annotations

import pytest

from app.engine import Deal, Game, Move
from app.engine.greedy import play_greedy
from app.engine.solver import solve
from tests.dailies import spare_deals

from .conftest import browser_like


def post_moves(client, game_id: str, moves) -> dict:
    state = None
    for move in moves:
        response = client.post(f"/api/games/{game_id}/moves", json=move.to_dict())
        assert response.status_code == 200, response.text
        state = response.json()
    return state


def lost_game(number: int, goal: str = "standard", passes: int = 3, keep: int = 4):
    """Follow a winning line for ``keep`` moves, play a move that loses, then play on greedily
    until the game ends: (moves, the 1-based number of the losing move)."""
    game = Game(Deal.from_number(number), goal, passes)
    line = solve(game).moves
    assert line, f"deal {number} must be winnable"
    for move in line[:keep]:
        game.play(move)
    for move in game.legal_moves:
        game.play(move)
        if solve(game).winnable is False:
            break
        game.undo()
    else:
        return None
    losing = len(game.moves)
    play_greedy(game)
    assert game.outcome() is not None and not game.outcome().won
    return list(game.moves), losing


def find_lost_game(goal: str = "standard", passes: int = 3):
    for number in spare_deals(range(1, 200)):  # whatever the date, analysed (tests/dailies.py)
        if not solve(Game(Deal.from_number(number), goal, passes)).winnable:
            continue
        found = lost_game(number, goal, passes)
        if found:
            return number, *found
    pytest.fail("no deal gave a lost game")


def test_following_hints_wins_a_winnable_deal(client):
    game_id = client.post("/api/games", json={"deal": 617, "goal": "wholedeck"}).json()["id"]
    for _ in range(200):
        hint = client.post(f"/api/games/{game_id}/hint").json()
        assert hint["winnable"] is True and hint["winnable_until"] is None
        state = post_moves(client, game_id, [Move.from_dict(hint["move"])])
        if state["status"] != "playing":
            break
    assert state["status"] == "won"
    assert state["hints_used"] == len(state["moves"])
    # Hints used are in the history and the export.
    exported = client.get("/stats/export.json").json()["games"]
    assert [g["hints"] for g in exported] == [len(state["moves"])]
    assert "hints" in client.get("/stats/export.csv").text.splitlines()[0].split(",")
    assert f'data-hints>{len(state["moves"])}<' in client.get("/stats").text


def test_the_analysis_names_the_losing_move_and_a_better_one(client, other_client):
    number, moves, losing = find_lost_game()
    game_id = client.post("/api/games", json={"deal": number}).json()["id"]
    # Before the end, nobody may ask: for its player it would be the winning line, with no
    # hint counted (hints are how a player asks during a game).
    post_moves(client, game_id, moves[:-1])
    assert other_client.get(f"/api/games/{game_id}/analysis").status_code == 409
    refused = client.get(f"/api/games/{game_id}/analysis")
    assert refused.status_code == 409 and "in progress" in refused.json()["detail"]
    assert client.get(f"/api/games/{game_id}").json()["hints_used"] == 0
    state = post_moves(client, game_id, moves[-1:])
    assert state["status"] == "lost"
    found = other_client.get(f"/api/games/{game_id}/analysis").json()  # anyone, once over
    assert found["winnable_at_start"] is True and found["lost_at"] == losing
    before = Game.replay(Deal.from_number(number), "standard", 3, moves[:losing - 1])
    assert solve(before).winnable is True
    after = before.copy()
    after.play(moves[losing - 1])
    assert solve(after).winnable is False
    better = Move.from_dict(found["better_move"])
    before.play(better)
    assert solve(before).winnable is True  # the better move keeps the win
    line = [Move.from_dict(m) for m in found["solution"]]
    won = Game.replay(Deal.from_number(number), "standard", 3, line)
    assert won.outcome().won


def test_a_deal_never_winnable_says_so(client):
    number = next(n for n in spare_deals(range(1, 100))
                  if solve(Game(Deal.from_number(n), "standard", 1)).winnable is False)
    game = play_greedy(Game(Deal.from_number(number), "standard", 1))
    game_id = client.post("/api/games", json={"deal": number, "passes": 1}).json()["id"]
    post_moves(client, game_id, game.moves)
    found = client.get(f"/api/games/{game_id}/analysis").json()
    assert found == {"winnable_at_start": False, "lost_at": None, "better_move": None,
                     "solution": None}


def test_a_won_game_has_no_losing_move(client):
    line = solve(Game(Deal.from_number(3), "standard", 3)).moves
    game_id = client.post("/api/games", json={"deal": 3}).json()["id"]
    assert post_moves(client, game_id, line)["status"] == "won"
    found = client.get(f"/api/games/{game_id}/analysis").json()
    assert found["winnable_at_start"] is True and found["lost_at"] is None


def test_a_hint_with_no_win_left_says_how_far_back_the_win_was(client):
    number, moves, losing = find_lost_game()
    game_id = client.post("/api/games", json={"deal": number}).json()["id"]
    post_moves(client, game_id, moves[:losing + 1])  # one move past the losing one
    hint = client.post(f"/api/games/{game_id}/hint").json()
    assert hint["winnable"] is False and hint["winnable_until"] == 2
    html = client.post(f"/games/{game_id}/hint", headers={"HX-Request": "true"}).text
    assert "Undo 2 moves to get back to a winnable position" in html


def test_the_lost_banner_and_the_replay_name_the_losing_move(app, client):
    number, moves, losing = find_lost_game()
    game_id = client.post("/api/games", json={"deal": number}).json()["id"]
    post_moves(client, game_id, moves)
    board = client.get(f"/games/{game_id}").text
    assert 'data-banner="lost"' in board and f'hx-get="/games/{game_id}/analysis"' in board
    fragment = client.get(f"/games/{game_id}/analysis", headers={"HX-Request": "true"}).text
    assert f'data-lost-at="{losing}"' in fragment and f"Your move {losing}," in fragment
    assert f'href="/games/{game_id}/replay?step={losing - 1}"' in fragment
    watch = f"/games/{game_id}/replay?win_from={losing - 1}&amp;step={losing - 1}"
    assert watch in fragment
    from fastapi.testclient import TestClient

    with TestClient(app) as stranger:  # a replay link works for anyone
        browser_like(stranger)
        replay = stranger.get(f"/games/{game_id}/replay")
        assert replay.status_code == 200 and "data-losing-move" in replay.text
        line = stranger.get(watch.replace("&amp;", "&") + "&step=999")
        assert line.status_code == 200 and "data-winning-line" in line.text
        # The solver's line is a win, told apart from the player's moves.
        assert 'data-result="won"' in line.text and "A winning line" in line.text
        assert "data-solver-move" in line.text
        at_start = stranger.get(watch.replace("&amp;", "&"))
        assert at_start.text.count("card") and 'class="card' in at_start.text
        assert "hinted" in at_start.text.split('id="board"', 1)[1].split("</section>", 1)[0]

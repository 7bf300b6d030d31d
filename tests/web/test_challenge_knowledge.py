"""A challenge's result is earned too. A challenge is a shared result, on any deal, at any
date: what a throwaway player does against the daily works on it as well. A second cookie at
the same address loses (or abandons) a game of the challenged deal, reads its analysis (or a
replay's winning line, or asks for hints), and the real answer plays that line: it beat the
sender with 0 hints, ranked. Now every hint given and every winning line shown is written down
(``given_hints``, app/web/services/witness.py), and a game answering a challenge that plays
such a move from such a position counts it as a hint and is not ranked; the challenge's
comparison puts it after a ranked sender."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.engine import Deal, Game, Move
from app.engine.solver import solve
from app.store.models import GivenHint

from .conftest import browser_like
from .helpers import HX
from .test_challenge_links import answer_from
from .test_results import challenge_link, play_on_board

DEAL = 5  # no deal of the day for years (tests/dailies.py): its analysis opens
ELSEWHERE = ("192.0.2.7", 4000)
"""A client on another network (the test clients are all "testclient")."""


@pytest.fixture(scope="module")
def long_line() -> list[Move]:
    """The sender's honest win, one move longer than the solver's line from the deal (a draw
    first): an answer that plays the solver's line has fewer moves, so beats it on moves."""
    start = Game(Deal.from_number(DEAL), "standard", 3)
    after = start.copy()
    draw = next(m for m in start.legal_moves if m.op.value == "draw")
    after.play(draw)
    found = solve(after)
    assert found.winnable
    return [draw, *found.moves]


def sent_challenge(client, long_line) -> tuple[str, str]:
    """Alice wins the deal (ranked) and sends its challenge: her game and the link."""
    client.post("/stats/name", data={"name": "Alice"})
    game_id = client.post("/api/games", json={"deal": DEAL}).json()["id"]
    assert play_on_board(client, game_id, long_line)["status"] == "won"
    assert client.get(f"/api/games/{game_id}").json()["ranked"] is True
    return game_id, challenge_link(client, game_id)


def throwaway(app, address=None, cookie_of=None) -> TestClient:
    """A fresh cookie (or ``cookie_of``'s own, in another browser), at the test clients'
    address or at ``address``."""
    helper = TestClient(app, client=address) if address else TestClient(app)
    if cookie_of is not None:
        helper.cookies.set("pyramid_player", cookie_of.cookies.get("pyramid_player"))
    return helper


def abandoned(client, number: int = DEAL) -> str:
    """A game of the deal with one move, abandoned by starting another."""
    game_id = client.post("/api/games", json={"deal": number}).json()["id"]
    first = Game(Deal.from_number(number), "standard", 3).legal_moves[0]
    assert client.post(f"/api/games/{game_id}/moves", json=first.to_dict()).status_code == 200
    client.post("/api/games", json={"deal": number + 1})
    assert client.get(f"/api/games/{game_id}").json()["status"] == "abandoned"
    return game_id


def analysed_solution(client) -> list[Move]:
    """The throwaway's attack: a lost game's analysis (the API) gives a winning line."""
    game_id = abandoned(client)
    found = client.get(f"/api/games/{game_id}/analysis")
    assert found.status_code == 200, found.text
    return [Move.from_dict(m) for m in found.json()["solution"]]


def comparison(client, game_id: str) -> str:
    results = client.get(f"/games/{game_id}/results", headers=HX).text
    return re.search(r'<table class="versus".*?</table>', results, re.S).group(0)


def test_a_throwaway_analysis_does_not_beat_a_challenge(app, client, other_client, long_line,
                                                       human_pace):
    sent, link = sent_challenge(client, long_line)
    with throwaway(app) as helper:
        browser_like(helper)
        solution = analysed_solution(helper)
    assert len(solution) < len(long_line)  # honestly played, this would beat Alice on moves
    other_client.post("/stats/name", data={"name": "Bob"})
    answer = answer_from(other_client, link, solution)
    state = other_client.get(f"/api/games/{answer}").json()
    assert state["status"] == "won"
    assert state["hints_used"] == len(solution) and state["ranked"] is False
    table = comparison(other_client, answer)
    assert 'data-challenge-result="lost"' in table and "The challenge stands." in table
    assert "data-unranked" in table and "Not ranked" in table
    # The sender sees the answer, not ranked, and no time of 0:00 for it.
    results = client.get(f"/games/{sent}/results", headers=HX).text
    answers = results.split("data-challenge-answers", 1)[1].split("</ul>", 1)[0]
    assert "Bob" in answers and "not ranked" in answers and "0:00" not in answers
    # The board says why, in words that fit a line read as well as a hint.
    page = other_client.get(f"/games/{answer}").text
    assert "data-unranked" in page and "known beforehand" in page


def test_a_replays_winning_line_does_not_beat_a_challenge(app, client, other_client,
                                                          long_line, human_pace):
    from app.web.services.solving import winning_line
    sent, link = sent_challenge(client, long_line)
    with throwaway(app) as helper:
        browser_like(helper)
        game_id = abandoned(helper)
        shown = helper.get(f"/games/{game_id}/replay?win_from=0&step=0")
        assert shown.status_code == 200, shown.text
    # The line the replay showed: the shortest from the deal (as the route asks the solver).
    line_shown = list(winning_line(Game(Deal.from_number(DEAL), "standard", 3)))
    answer = answer_from(other_client, link, line_shown)
    state = other_client.get(f"/api/games/{answer}").json()
    assert state["status"] == "won" and len(state["moves"]) == len(line_shown)
    assert state["hints_used"] == len(line_shown) and state["ranked"] is False
    assert 'data-challenge-result="lost"' in comparison(other_client, answer)
    # Watching it again writes nothing more: each position's move is written down once.
    with app.state.db.sessions() as session:
        before = session.scalar(select(func.count()).select_from(GivenHint))
    with throwaway(app) as again:
        again.cookies.set("pyramid_player", helper.cookies.get("pyramid_player"))
        browser_like(again)
        assert again.get(f"/games/{game_id}/replay?win_from=0&step=3").status_code == 200
    with app.state.db.sessions() as session:
        assert session.scalar(select(func.count()).select_from(GivenHint)) == before
    assert sent


def test_an_analysis_read_from_another_network_is_not_matched(app, client, other_client,
                                                              long_line, human_pace):
    _sent, link = sent_challenge(client, long_line)
    with throwaway(app, ELSEWHERE) as helper:
        browser_like(helper)
        solution = analysed_solution(helper)
    answer = answer_from(other_client, link, solution)
    state = other_client.get(f"/api/games/{answer}").json()
    # What the rule cannot catch (docs/players.md): from another address, another cookie is
    # someone else, and a line found cannot be told from a line read.
    assert state["hints_used"] == 0 and state["ranked"] is True
    assert 'data-challenge-result="won"' in comparison(other_client, answer)


def test_a_players_own_analysis_of_an_earlier_game_counts(app, client, other_client,
                                                          long_line, human_pace):
    _sent, link = sent_challenge(client, long_line)
    # Bob's own earlier game of the deal, its analysis read in another browser of his on
    # another network: outside knowledge all the same.
    with throwaway(app, ELSEWHERE, cookie_of=other_client) as phone:
        browser_like(phone)
        solution = analysed_solution(phone)
    answer = answer_from(other_client, link, solution)
    state = other_client.get(f"/api/games/{answer}").json()
    assert state["hints_used"] == len(solution) and state["ranked"] is False
    assert 'data-challenge-result="lost"' in comparison(other_client, answer)


def test_hints_on_any_deal_count_in_a_challenge_answer_only(app, client, other_client,
                                                          long_line, human_pace):
    _sent, link = sent_challenge(client, long_line)
    first = Game(Deal.from_number(DEAL), "standard", 3).legal_moves[0]
    # A throwaway player's hint at the answer's position, on a deal in play for no day, asked
    # before the answer begins (while an answer is played, the deal gives no hint elsewhere:
    # tests/web/test_known_whatever_the_rules.py).
    with throwaway(app) as helper:
        browser_like(helper)
        game_id = helper.post("/api/games", json={"deal": DEAL}).json()["id"]
        helper.post(f"/api/games/{game_id}/moves", json=first.to_dict())
        hinted = helper.post(f"/api/games/{game_id}/hint").json()["move"]
    answer = answer_from(other_client, link, [first])
    assert other_client.post(f"/api/games/{answer}/moves", json=hinted).status_code == 200
    state = other_client.get(f"/api/games/{answer}").json()
    assert state["hints_used"] == 1 and state["ranked"] is False
    # A plain game of the deal is on its results ("How others did on this deal"), watched too
    #.
    plain = other_client.post("/api/games", json={"deal": DEAL}).json()["id"]
    play_on_board(other_client, plain, [first, Move.from_dict(hinted)])
    state = other_client.get(f"/api/games/{plain}").json()
    assert state["hints_used"] == 1 and state["ranked"] is False


def test_a_not_ranked_win_does_not_beat_a_ranked_one():
    from app.store import Result, rank_of
    from app.web.services.results import beats
    sender = Result("a", None, True, 56, 300, 900, 28, None)
    known = Result("b", None, True, 40, None, None, 28, None, ranked=False)
    lost = Result("c", None, False, 30, 200, 400, 20, None)
    assert beats(known, sender) is False and beats(sender, known) is True
    assert rank_of(known) > rank_of(lost)  # still a win: a win beats no win


def test_the_analysis_pages_better_move_is_written_down_for_its_viewer(app, client,
                                                                       other_client):
    # The page shows one move of a winning line (the better move): it is written down, for
    # whoever looked, from the position it is played in; a retry's notice shows it to the
    # game's own player, written down for them too.
    from app.web.services.witness import line_pairs

    from .test_analysis_api import find_lost_game, post_moves
    number, moves, _ = find_lost_game()
    game_id = client.post("/api/games", json={"deal": number}).json()["id"]
    assert post_moves(client, game_id, moves)["status"] == "lost"
    page = other_client.get(f"/games/{game_id}/analysis").text
    lost_at = int(re.search(r'data-lost-at="(\d+)"', page).group(1))
    with app.state.db.sessions() as session:
        rows = session.execute(select(GivenHint.position, GivenHint.move,
                                      GivenHint.game_id)).all()
    assert len(rows) == 1 and rows[0].game_id == game_id
    before = Game.replay(Deal.from_number(number), "standard", 3, moves[:lost_at - 1])
    better = Move.from_text(rows[0].move)
    assert (rows[0].position, rows[0].move) == line_pairs(before, [better])[0]
    assert better in before.legal_moves
    moved = client.post(f"/games/{game_id}/retry", data={"before": lost_at},
                        follow_redirects=False)
    assert moved.status_code == 303
    with app.state.db.sessions() as session:
        viewers = session.scalars(select(GivenHint.player_id)).all()
    assert len(viewers) == 2 and len(set(viewers)) == 2  # the owner's, through the retry

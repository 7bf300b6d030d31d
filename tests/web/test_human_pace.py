"""A ranked result is one the server watched being played at a person's
pace. The findings: a whole winning line posted as one batch to the day's deal won it ranked
("Fastest win: 0:00"), and a challenge answered the same way beat its sender. Such a game still
counts for its player, but is not ranked, and says why in words (app/store/pace.py)."""

from __future__ import annotations

import re

from app.engine import Deal, Game, Move
from app.engine.solver import solve
from app.store import pace

from .test_fair_results import played_count
from .test_results import play_on_board

DEAL = 5


def line(number: int = DEAL) -> list[Move]:
    return list(solve(Game(Deal.from_number(number), "standard", 3)).moves)


def in_one_batch(client, moves, number: int = DEAL) -> str:
    """The board's first batch holding the whole line, online (not ``offline``)."""
    answer = client.post(f"/deal/{number}/play?goal=standard&passes=3",
                         headers={"Accept": "application/json"},
                         data={"moves": " ".join(m.to_text() for m in moves), "version": "0",
                               "input": "tabPace0001:1"})
    assert answer.status_code == 200, answer.text
    return answer.json()["id"]


def test_a_whole_line_in_one_batch_counts_but_is_not_ranked(client, other_client):
    moves = line()
    assert len(moves) > pace.PACE_RULES.burst
    game_id = in_one_batch(client, moves)
    state = client.get(f"/api/games/{game_id}").json()
    assert state["status"] == "won" and state["timed_by"] == "server"
    assert state["ranked"] is False and state["unranked_why"] == "fast"
    assert state["hints_used"] == 0
    assert played_count(client) == "1"  # it counts for its player
    page = client.get(f"/games/{game_id}").text
    assert "data-unranked" in page
    assert re.search(r'data-unranked-why="fast">[^<]*faster than a person plays', page)
    summary = other_client.get(f"/deal/{DEAL}").text.split("data-deal-summary", 1)[1]
    assert "Fastest win" not in summary.split("</p>", 1)[0]
    block = client.get("/stats").text.split('data-figures="total"', 1)[1].split("</dl>", 1)[0]
    assert "0:00" not in block


def test_a_script_s_steady_pace_is_not_ranked(client):
    # One move a request, as fast as the API answers: far more than 2 a second for long.
    game_id = client.post("/api/games", json={"deal": DEAL}).json()["id"]
    assert play_on_board(client, game_id, line())["status"] == "won"
    state = client.get(f"/api/games/{game_id}").json()
    assert state["ranked"] is False and state["unranked_why"] == "fast"


def test_a_person_s_pace_is_ranked(client, human_pace):
    game_id = client.post("/api/games", json={"deal": DEAL}).json()["id"]
    assert play_on_board(client, game_id, line())["status"] == "won"
    state = client.get(f"/api/games/{game_id}").json()
    assert state["ranked"] is True and state["unranked_why"] is None
    summary = client.get(f"/deal/{DEAL}").text.split("data-deal-summary", 1)[1]
    assert "Fastest win" in summary.split("</p>", 1)[0]


def test_the_stock_drawn_at_once_then_play_at_a_person_s_pace_is_ranked(client, monkeypatch):
    # Holding D draws the whole stock in about a second (its key repeats): one burst of 24,
    # then a person's pace; and a slow network's batch of several moves at once.
    from datetime import timedelta

    from app.store.models import utcnow
    now = [utcnow()]
    monkeypatch.setattr(pace, "clock", lambda: now[0])
    game = Game(Deal.from_number(DEAL), "standard", 3)
    draws = [Move.draw()] * 24
    for move in draws:
        game.play(move)
    first = client.post(f"/deal/{DEAL}/play?goal=standard&passes=3",
                        headers={"Accept": "application/json"},
                        data={"moves": " ".join(m.to_text() for m in draws), "version": "0",
                              "input": "tabPace0002:1"})
    assert first.status_code == 200, first.text
    game_id, version = first.json()["id"], first.json()["version"]
    rest = list(solve(game).moves)
    for batch, sent in enumerate(range(0, len(rest), 6), start=2):
        now[0] += timedelta(seconds=3.0)  # 6 moves in 3 s: 2 a second, sent together
        chunk = rest[sent:sent + 6]
        answer = client.post(f"/games/{game_id}/play", headers={"Accept": "application/json"},
                             data={"moves": " ".join(m.to_text() for m in chunk),
                                   "version": str(version), "input": f"tabPace0002:{batch}"})
        assert answer.status_code == 200, answer.text
        version = answer.json()["version"]
    state = client.get(f"/api/games/{game_id}").json()
    assert state["status"] == "won" and state["ranked"] is True, state


def test_the_pace_rule_in_figures():
    from datetime import timedelta

    from app.store.models import GameRecord, utcnow
    record = GameRecord(ranked=True)
    start = utcnow()
    assert pace.keep_pace(record, 24, start)  # the burst, at once
    assert not pace.keep_pace(record, 1, start)  # one more at once is too many
    record = GameRecord(ranked=True)
    assert pace.keep_pace(record, 24, start)
    assert pace.keep_pace(record, 2, start + timedelta(seconds=1))  # 2 a second after it
    assert not pace.keep_pace(GameRecord(ranked=True, pace_until=record.pace_until), 3,
                              start + timedelta(seconds=2))  # but not 3
    assert pace.keep_pace(record, 24, start + timedelta(seconds=20))  # saved up: 24 at most
    assert record.ranked is True
    assert not pace.keep_pace(record, 2, start + timedelta(seconds=20.5))
    assert record.ranked is False and record.unranked_why == "fast"

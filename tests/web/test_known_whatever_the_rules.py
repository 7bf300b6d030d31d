"""Knowledge is matched whatever the rules it was shown under, and a deal in
play keeps its hints back under every rule set.

The findings: 44 throwaway cookies at one address each replayed the known prefix of today's
deal of the day on ``/deal/<n>/play?passes=2`` and asked a hint; positions were keyed with the
rules, so the 3-pass daily that played those hints won with 0 hints, ranked. A 2-pass analysis
replayed in a 3-pass challenge did the same. And "How others did on this deal" took a
throwaway's analysis replayed in a plain game as its fastest win."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app import odds
from app.engine import Deal, Game, Move, Variant
from app.web.core import utcday

from .conftest import browser_like
from .test_challenge_knowledge import DEAL, abandoned, throwaway
from .test_challenge_links import answer_from
from .test_fair_results import started_daily
from .test_results import challenge_link, play_on_board


def todays_deal() -> int:
    return odds.daily_deal(utcday.today().date(), Variant("standard", 3))


def test_a_deal_of_the_day_gives_no_hint_under_other_rules(client, app):
    number = todays_deal()
    with TestClient(app) as helper:
        browser_like(helper)
        for passes, goal in ((2, "standard"), (1, "standard"), (3, "wholedeck")):
            game_id = helper.post("/api/games", json={"deal": number, "passes": passes,
                                                      "goal": goal}).json()["id"]
            first = Game(Deal.from_number(number), goal, passes).legal_moves[0]
            assert helper.post(f"/api/games/{game_id}/moves",
                               json=first.to_dict()).status_code == 200
            refused = helper.post(f"/api/games/{game_id}/hint")
            assert refused.status_code == 403, refused.text
            assert "result others see" in refused.json()["detail"]
            assert helper.get(f"/api/games/{game_id}").json()["hints_used"] == 0
        # The board's Hint button says so in words, and counts nothing.
        board = helper.post(f"/games/{game_id}/hint", follow_redirects=True)
        assert "No hints in this game" in board.text
        assert helper.get(f"/api/games/{game_id}").json()["hints_used"] == 0
        # The deal page's own start (the finding's door) too.
        first = Game(Deal.from_number(number), "standard", 2).legal_moves[0]
        started = helper.post(f"/deal/{number}/play?goal=standard&passes=2",
                              headers={"Accept": "application/json"},
                              data={"moves": first.to_text(), "version": "0",
                                    "input": "tabRulesHint:1", "abandon": "1"})
        assert started.status_code == 200, started.text
        assert helper.post(f"/api/games/{started.json()['id']}/hint").status_code == 403
    # The day's own game still gives hints, and counts them.
    real, _number = started_daily(client)
    assert client.post(f"/api/games/{real}/hint").status_code == 200
    assert client.get(f"/api/games/{real}").json()["hints_used"] == 1


def test_a_throwaway_daily_hint_counts_in_the_day_s_game(client, app):
    # The day's own game gives hints (they count on it), and another cookie's at the same
    # address counts in the real game that plays it.
    real, _number = started_daily(client)
    moves = [Move.from_dict(m) for m in client.get(f"/api/games/{real}").json()["moves"]]
    with TestClient(app) as helper:
        browser_like(helper)
        # The throwaway's own daily game, under the daily's rules: hints are given there.
        first = moves[0]
        started = helper.post("/daily/play?goal=standard&passes=3",
                              headers={"Accept": "application/json"},
                              data={"moves": first.to_text(), "version": "0",
                                    "input": "tabRulesDaily:1"})
        hinted = helper.post(f"/api/games/{started.json()['id']}/hint").json()["move"]
    assert client.post(f"/api/games/{real}/moves", json=hinted).status_code == 200
    state = client.get(f"/api/games/{real}").json()
    assert state["hints_used"] == 1 and state["ranked"] is False


def test_a_two_pass_analysis_counts_in_a_three_pass_answer(app, client, other_client):
    # Alice's challenge: deal 5, standard, 3 passes.
    game_id = client.post("/api/games", json={"deal": DEAL}).json()["id"]
    from app.engine.solver import solve
    play_on_board(client, game_id, solve(Game(Deal.from_number(DEAL), "standard", 3)).moves)
    link = challenge_link(client, game_id)
    with throwaway(app) as helper:  # its analysis under 2 passes
        browser_like(helper)
        lost = helper.post("/api/games", json={"deal": DEAL, "passes": 2}).json()["id"]
        first = Game(Deal.from_number(DEAL), "standard", 2).legal_moves[0]
        helper.post(f"/api/games/{lost}/moves", json=first.to_dict())
        helper.post("/api/games", json={"deal": DEAL + 1})
        found = helper.get(f"/api/games/{lost}/analysis")
        assert found.status_code == 200, found.text
        solution = [Move.from_dict(m) for m in found.json()["solution"]]
    answer = answer_from(other_client, link, solution)
    state = other_client.get(f"/api/games/{answer}").json()
    assert state["status"] == "won"
    assert state["hints_used"] == len(solution) and state["ranked"] is False


def test_a_throwaway_analysis_replayed_on_a_deals_table_is_not_ranked(app, client):
    # "How others did on this deal" is a shared result too (the finding: "Fastest win: 0:00,
    # best score 1,880" from a throwaway's public analysis).
    with throwaway(app) as helper:
        browser_like(helper)
        game_id = abandoned(helper)
        solution = [Move.from_dict(m) for m in
                    helper.get(f"/api/games/{game_id}/analysis").json()["solution"]]
    plain = client.post("/api/games", json={"deal": DEAL}).json()["id"]
    assert play_on_board(client, plain, solution)["status"] == "won"
    state = client.get(f"/api/games/{plain}").json()
    assert state["hints_used"] == len(solution) and state["ranked"] is False
    summary = client.get(f"/deal/{DEAL}").text.split("data-deal-summary", 1)[1]
    assert "Fastest win" not in summary.split("</p>", 1)[0]


def test_a_challenge_being_answered_keeps_its_deal_private(app, client, other_client):
    from app.engine.solver import solve
    game_id = client.post("/api/games", json={"deal": DEAL}).json()["id"]
    play_on_board(client, game_id, solve(Game(Deal.from_number(DEAL), "standard", 3)).moves)
    link = challenge_link(client, game_id)
    first = Game(Deal.from_number(DEAL), "standard", 3).legal_moves[0]
    answer = answer_from(other_client, link, [first])
    with throwaway(app) as helper:
        browser_like(helper)
        ended = abandoned(helper)
        assert helper.get(f"/api/games/{ended}/analysis").status_code == 403
        assert helper.get(f"/games/{ended}/replay?win_from=0").status_code == 403
        plain = helper.post("/api/games", json={"deal": DEAL, "passes": 1}).json()["id"]
        helper.post(f"/api/games/{plain}/moves", json=first.to_dict())
        assert helper.post(f"/api/games/{plain}/hint").status_code == 403
    # The answer itself asks hints, which count on it.
    assert other_client.post(f"/api/games/{answer}/hint").status_code == 200
    # Once the answer has ended, the deal's analysis opens again.
    other_client.post("/api/games", json={"deal": DEAL + 1})
    assert client.get(f"/api/games/{game_id}/analysis").status_code == 200


def test_a_race_adds_its_deals_in_play(app, client):
    from app.web.services import spoilers
    number = 3

    def a_race(_session, deal, _day):
        return deal.number == number

    spoilers.in_play_source(a_race)
    try:
        game_id = client.post("/api/games", json={"deal": number}).json()["id"]
        first = Game(Deal.from_number(number), "standard", 3).legal_moves[0]
        client.post(f"/api/games/{game_id}/moves", json=first.to_dict())
        assert client.post(f"/api/games/{game_id}/hint").status_code == 403
    finally:
        spoilers.IN_PLAY.remove(a_race)
    assert client.post(f"/api/games/{game_id}/hint").status_code == 200

"""The difficulty as a player meets it: "Winnable deals only" asks for one and the form
remembers it, a bad choice is refused without starting anything, the deal's difficulty shows
once the game has ended (never before), a win knows its par from the committed data at once,
and the verdict API, the odds page and the rules page say the same."""

from __future__ import annotations

import re

import pytest

from app import odds
from app.engine import Deal, Game, Variant
from app.engine.solver import solve

STANDARD_3 = Variant("standard", 3)


def deal_of(client, response) -> int:
    assert response.status_code == 303, response.text
    board = client.get(response.headers["location"]).text
    return int(re.search(r'data-deal="(\d+)"', board).group(1))


@pytest.mark.parametrize("difficulty", ["easy", "expert"])
def test_winnable_only_deals_a_deal_of_the_chosen_difficulty(client, difficulty):
    for _ in range(3):
        started = client.post("/games", data={"goal": "standard", "passes": "3",
                                              "winnable_only": "1", "difficulty": difficulty,
                                              "confirm": "1"}, follow_redirects=False)
        facts = odds.deal_facts(deal_of(client, started), STANDARD_3)
        assert facts is not None and facts.difficulty.value == difficulty
    home = client.get("/").text
    assert re.search(rf'<option value="{difficulty}" selected>', home)


def test_a_form_without_a_difficulty_uses_the_one_chosen_last(client):
    client.post("/games", data={"goal": "wholedeck", "passes": "2", "winnable_only": "1",
                                "difficulty": "hard", "confirm": "1"})
    # The board's New game button sends goal, passes and winnable_only, no difficulty.
    again = client.post("/games", data={"goal": "wholedeck", "passes": "2",
                                        "winnable_only": "1", "confirm": "1"},
                        follow_redirects=False)
    facts = odds.deal_facts(deal_of(client, again), Variant("wholedeck", 2))
    assert facts is not None and facts.difficulty.value == "hard"


def test_a_bad_difficulty_is_refused_and_starts_nothing(client):
    game_id = client.post("/api/games", json={"deal": 617}).json()["id"]
    client.post(f"/api/games/{game_id}/moves", json={"op": "draw"})  # a game to keep
    before = client.get("/").text
    answer = client.post("/games", data={"goal": "standard", "passes": "3",
                                         "winnable_only": "1", "difficulty": "impossible"})
    assert answer.status_code == 400
    assert "Difficulty must be one of any, easy, medium, hard, expert" in answer.text
    assert "&#39;impossible&#39;" in answer.text
    assert client.get("/").text == before  # the same game to continue, nothing started
    assert f"/games/{game_id}" in before.split("data-continue", 1)[1].split(">", 1)[0]
    refused = client.post("/api/games", json={"winnable_only": True, "difficulty": "brutal"})
    assert refused.status_code == 422


def test_the_api_deals_a_winnable_deal_of_a_difficulty(client):
    state = client.post("/api/games", json={"goal": "standard", "passes": 1,
                                            "winnable_only": True, "difficulty": "medium"})
    assert state.status_code == 201
    facts = odds.deal_facts(state.json()["deal"], Variant("standard", 1))
    assert facts is not None and facts.difficulty.value == "medium"


def winnable_covered_deal(variant: Variant) -> int:
    return next(n for n in range(1, 200) if odds.deal_facts(n, variant) is not None)


def test_the_difficulty_shows_once_the_game_has_ended_and_par_comes_from_the_data(client):
    number = winnable_covered_deal(STANDARD_3)
    facts = odds.deal_facts(number, STANDARD_3)
    game_id = client.post("/api/games", json={"deal": number}).json()["id"]
    board = client.get(f"/games/{game_id}").text
    assert "data-difficulty=" not in board  # no spoiler while playing
    assert client.get(f"/games/{game_id}/results").status_code == 409
    line = solve(Game(Deal.from_number(number), "standard", 3)).moves
    for move in line:
        answer = client.post(f"/api/games/{game_id}/moves", json=move.to_dict())
        assert answer.status_code == 200
    assert answer.json()["status"] == "won"
    assert answer.json()["par"] == facts.par  # known at the win, no search
    results = client.get(f"/games/{game_id}/results").text
    assert f'data-difficulty="{facts.difficulty.value}"' in results
    assert f'data-par="{facts.par}"' in results


def test_the_verdict_api_gives_par_and_difficulty_from_the_data(client):
    number = winnable_covered_deal(STANDARD_3)
    verdicts = client.get(f"/api/deals/{number}/verdict").json()
    for row in verdicts:
        facts = odds.deal_facts(number, Variant(row["goal"], row["passes"]))
        if facts is None:
            assert row["difficulty"] is None
        else:
            assert (row["par"], row["difficulty"]) == (facts.par, facts.difficulty.value)
            assert row["winnable"] is True


def test_the_odds_and_rules_pages_explain_the_buckets(client):
    page = client.get("/odds").text
    section = page.split('id="difficulty"', 1)[1].split("</section>", 1)[0]
    assert section.count("data-difficulty-table") == 6
    for variant in (STANDARD_3, Variant("wholedeck", 1)):
        shares = odds.difficulty_shares(variant)
        for difficulty, share in shares.items():
            assert f'data-bucket="{difficulty.value}"' in section
            assert f"{100 * share:.1f}%" in section
    rules = client.get("/rules").text
    assert '<h2 id="difficulty">Difficulty</h2>' in rules
    assert "easy" in rules and "expert" in rules


def test_the_statistics_break_wins_down_by_difficulty(client):
    wins = {}
    for number in range(1, 400):
        facts = odds.deal_facts(number, Variant("standard", 1))
        if facts is not None and facts.difficulty.value not in wins:
            wins[facts.difficulty.value] = number
        if len(wins) == 2:
            break
    for number in wins.values():
        game_id = client.post("/api/games", json={"deal": number, "passes": 1}).json()["id"]
        for move in solve(Game(Deal.from_number(number), "standard", 1)).moves:
            client.post(f"/api/games/{game_id}/moves", json=move.to_dict())
    page = client.get("/stats").text
    block = page.split('data-wins-by-difficulty="standard-1"', 1)[1].split("</p>", 1)[0]
    for name in ("easy", "medium", "hard", "expert"):
        count = 1 if name in wins else 0
        assert re.search(rf'data-difficulty-wins="{name}">{name} <strong>{count}</strong>', block)
    assert 'data-wins-by-difficulty="standard-3"' not in page  # no wins there


# --- a difficulty chosen without the box --------------------------------------
@pytest.mark.parametrize("difficulty", ["medium", "expert"])
def test_a_difficulty_without_the_box_deals_a_winnable_deal_of_it(client, difficulty):
    started = client.post("/games", data={"goal": "standard", "passes": "3",
                                          "difficulty": difficulty, "confirm": "1"},
                          follow_redirects=False)
    number = deal_of(client, started)
    facts = odds.deal_facts(number, STANDARD_3)
    assert facts is not None and facts.difficulty.value == difficulty
    board = client.get(started.headers["location"]).text
    assert "data-winnable-deal" in board
    # The form shows what was dealt: the box ticked, the difficulty chosen.
    home = client.get("/").text
    assert re.search(r'data-winnable-only\s+checked', home)
    assert re.search(rf'<option value="{difficulty}" selected>', home)


def test_the_form_says_a_difficulty_is_of_a_winnable_deal(client):
    home = client.get("/").text
    choice = home.split('class="difficulty-choice"', 1)[1].split("</label>", 1)[0]
    assert "a difficulty other than Any deals a winnable deal" in choice


def test_any_difficulty_without_the_box_is_any_deal(client):
    started = client.post("/games", data={"goal": "standard", "passes": "3",
                                          "difficulty": "any", "confirm": "1"},
                          follow_redirects=False)
    board = client.get(started.headers["location"]).text
    assert "data-winnable-deal" not in board
    assert not re.search(r'data-winnable-only\s+checked', client.get("/").text)


def test_a_deal_number_wins_over_a_difficulty(client):
    started = client.post("/games", data={"goal": "standard", "passes": "3", "deal": "42",
                                          "difficulty": "hard", "confirm": "1"},
                          follow_redirects=False)
    assert deal_of(client, started) == 42


def test_the_board_s_new_game_without_the_box_is_any_deal(client):
    client.post("/games", data={"goal": "standard", "passes": "3", "winnable_only": "1",
                                "difficulty": "hard", "confirm": "1"})
    # The board's New game sends no difficulty; without "winnable" it deals any deal.
    again = client.post("/games", data={"goal": "standard", "passes": "3", "confirm": "1"},
                        follow_redirects=False)
    assert "data-winnable-deal" not in client.get(again.headers["location"]).text

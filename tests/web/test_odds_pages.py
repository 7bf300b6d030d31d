"""The odds on the web (``app.web.routes.odds``): /odds and /api/odds, and each deal's verdicts
(/api/deals/{n}/verdict) and their cache.

(Stored verdicts: tests/store/test_verdicts.py; the deal of the day on /stats:
test_stats_pages.py.)"""

from __future__ import annotations

import dataclasses
import random
import re
import threading

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app import odds
from app.engine import VARIANTS, Deal, Game, Variant
from app.engine.solver import solve
from app.store import Database
from app.store.models import DealVerdict
from app.web.routes import odds as odds_web

# Deal 617 as the README shows it: standard with one pass cannot be won; the whole deck with
# three passes can, in a line of 58 moves.
README_DEAL = 617


def verdict_rows(app) -> int:
    database = Database(app.state.settings.database_url)
    try:
        with database.session() as session:
            return session.scalar(select(func.count()).select_from(DealVerdict))
    finally:
        database.dispose()


# --- /api/odds and /odds --------------------------------------------------------------------------
def test_api_odds_lists_the_six_rule_sets_with_intervals(client):
    response = client.get("/api/odds")
    assert response.status_code == 200
    body = response.json()
    assert [(item["goal"], item["passes"]) for item in body] == [
        (v.goal.value, v.passes) for v in VARIANTS]
    for item, row in zip(body, odds.odds_rows(), strict=True):
        assert set(item) == {"goal", "passes", "deals", "wins", "rate", "low", "high"}
        assert item["wins"] == row.wins and item["deals"] == row.decided
        assert item["rate"] == pytest.approx(row.wins / row.decided)
        assert 0 <= item["low"] <= item["rate"] <= item["high"] <= 1


def test_the_openapi_schema_documents_the_coach_exactly(client):
    schema = client.get("/openapi.json").json()
    odds = schema["paths"]["/api/odds"]["get"]["responses"]["200"]["content"][
        "application/json"]["schema"]
    assert odds["type"] == "array" and odds["items"]["$ref"].endswith("/VariantOdds")
    model = schema["components"]["schemas"]["VariantOdds"]
    assert set(model["properties"]) == {"goal", "passes", "deals", "wins", "rate", "low", "high"}
    assert set(model["required"]) == set(model["properties"])
    verdict = schema["paths"]["/api/deals/{n}/verdict"]["get"]
    assert verdict["responses"]["200"]["content"]["application/json"]["schema"]["items"][
        "$ref"].endswith("/VariantVerdict")
    assert "422" in verdict["responses"]
    (parameter,) = verdict["parameters"]
    assert parameter["schema"]["maxLength"] == 20
    assert parameter["schema"]["pattern"] == "^[1-9][0-9]{0,19}$"
    assert set(schema["components"]["schemas"]["VariantVerdict"]["properties"]) == {
        "goal", "passes", "winnable", "moves", "par", "difficulty"}
    assert "/odds" not in schema["paths"]  # the page is not part of the API


def test_the_odds_page_shows_every_figure_and_the_sources(client):
    response = client.get("/odds")
    assert response.status_code == 200
    html = response.text
    for row in odds.odds_rows():
        line = html.split(f'<tr data-variant="{row.key}">', 1)[1].split("</tr>", 1)[0]
        assert f"{100 * row.rate:.2f}%" in line
        low, high = row.interval
        assert f"{100 * low:.2f}% – {100 * high:.2f}%" in line
        assert f"{row.decided:,}" in line
        assert row.command in html
        assert f'data-variant="{row.key}"' in html.split("<svg", 1)[1].split("</svg>", 1)[0]
    assert ("data-provisional" in html) == any(row.provisional for row in odds.odds_rows())
    for comparison in odds.comparisons():
        card = html.split(f'data-comparison="{comparison.published.key}"', 1)[1].split(
            "</article>", 1)[0]
        assert f'data-verdict="{comparison.verdict}"' in card
        assert comparison.published.url in card
        assert ("inside our 95% interval" in card) == comparison.inside
        assert ("data-differs-note" in card) == (comparison.verdict == "differs")
    for words in ("once in fifty", "solitairewinrates.com", "9.02%", "6.80%", "66.87%",
                  "998 of 1,500", "pyramid-solver", "bench/collect_odds.py"):
        assert words in html, words


def test_the_odds_page_has_no_inline_styles_or_scripts(client):
    html = client.get("/odds").text
    assert not re.search(r"\sstyle\s*=", html)
    assert "<style" not in html
    for script in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in script or 'type="application/json"' in script  # data, never run
    assert not re.search(r"\son[a-z]+\s*=", html)  # no inline event handlers
    sheet = re.search(r'href="(/assets/\w+/css/odds\.css)"', html)
    assert sheet, "the odds page links its stylesheet at this release's address"
    answer = client.get(sheet.group(1))
    assert answer.status_code == 200 and "immutable" in answer.headers["cache-control"]


def test_the_odds_chart_reads_without_javascript(client):
    html = client.get("/odds").text
    svg = html.split("<svg", 1)[1].split("</svg>", 1)[0]
    assert 'role="img"' in html and "<desc" in svg and "<title" in svg
    assert svg.count("odds-fill") == 6 and svg.count("odds-whisker") == 18
    assert ('data-greedy' in svg) == any(r.greedy_wins is not None for r in odds.odds_rows())
    assert "<table" in html  # and the same figures as a table


def test_the_greedy_player_stands_beside_best_play_when_measured(client, monkeypatch):
    rows = tuple(dataclasses.replace(row, greedy_wins=row.wins // 4, greedy_deals=row.deals,
                                     provisional=False)
                 for row in odds.odds_rows())
    monkeypatch.setattr(odds, "odds_rows", lambda: rows)
    html = client.get("/odds").text
    svg = html.split("<svg", 1)[1].split("</svg>", 1)[0]
    assert svg.count("data-greedy") == 6
    assert "data-provisional" not in html
    for row in rows:
        line = html.split(f'<tr data-variant="{row.key}">', 1)[1].split("</tr>", 1)[0]
        assert f"{100 * row.greedy_wins / row.deals:.2f}%" in line
        assert f"+{100 * (row.rate - row.greedy_wins / row.deals):.2f} points" in line
    assert "not measured yet" not in html
    # The API keeps its documented shape either way.
    assert set(client.get("/api/odds").json()[0]) == {
        "goal", "passes", "deals", "wins", "rate", "low", "high"}


# --- /api/deals/{n}/verdict ----------------------------------------------------------------------
BEYOND = 1_000_003
"""A deal past the committed verdicts (1 to 100,000): its verdicts need a search."""


def no_search(*args, **kwargs):
    raise AssertionError("searched")


def test_a_committed_deal_is_answered_from_the_data_with_no_search(client, app, monkeypatch):
    monkeypatch.setattr(odds_web, "solve_variant", no_search)
    response = client.get(f"/api/deals/{README_DEAL}/verdict")
    assert response.status_code == 200
    body = response.json()
    assert [(v["goal"], v["passes"]) for v in body] == [
        (v.goal.value, v.passes) for v in VARIANTS]
    by_rules = {(v["goal"], v["passes"]): v for v in body}
    assert by_rules["standard", 1] == {"goal": "standard", "passes": 1, "winnable": False,
                                       "moves": None, "par": None, "difficulty": None}
    assert by_rules["wholedeck", 3]["winnable"] is True
    for v in body:
        assert v["winnable"] == odds.known_verdict(README_DEAL, Variant(v["goal"], v["passes"]))
    assert verdict_rows(app) == 0


def test_an_unplayed_deals_verdicts_are_searched_and_not_kept(client, app):
    body = client.get(f"/api/deals/{BEYOND}/verdict").json()
    assert all(v["winnable"] is not None for v in body)
    for v in body:
        game = Game(Deal.from_number(BEYOND), v["goal"], v["passes"])
        assert v["winnable"] == solve(game).winnable
        assert (v["moves"] is not None) == v["winnable"]
    assert verdict_rows(app) == 0  # nobody has played it: nothing stored


def test_a_played_deals_verdicts_are_kept_then_read(client, app, monkeypatch):
    client.post("/api/games", json={"deal": BEYOND})
    body = client.get(f"/api/deals/{BEYOND}/verdict").json()
    assert verdict_rows(app) == 6
    monkeypatch.setattr(odds_web, "solve_variant", no_search)
    assert client.get(f"/api/deals/{BEYOND}/verdict").json() == body


def test_a_thousand_asked_deal_numbers_store_nothing(client, app, monkeypatch):
    """Anyone may ask about any of the 10^20 deal numbers: the table grows only with games."""
    monkeypatch.setattr(odds_web, "solve_variant",
                        lambda number, goal, passes, limit: (True, 40, 100, 38))
    rng = random.Random(15)
    for _ in range(1_000 // 50):  # 1,000 numbers, 50 a request batch of the same client
        for number in (rng.randrange(100_001, 10**20) for _ in range(50)):
            assert client.get(f"/api/deals/{number}/verdict").status_code == 200
    assert verdict_rows(app) == 0


def test_a_search_that_hits_the_node_limit_is_null_and_settled_later(client, app, monkeypatch):
    client.post("/api/games", json={"deal": BEYOND})  # played: its verdicts are kept
    monkeypatch.setattr(odds_web, "VERDICT_NODE_LIMIT", 1)
    body = client.get(f"/api/deals/{BEYOND}/verdict").json()
    assert all(v["winnable"] is None and v["moves"] is None for v in body)
    assert verdict_rows(app) == 6
    monkeypatch.setattr(odds_web, "VERDICT_NODE_LIMIT", 1)
    assert client.get(f"/api/deals/{BEYOND}/verdict").json() == body  # nothing to add
    monkeypatch.undo()
    settled = client.get(f"/api/deals/{BEYOND}/verdict").json()
    assert all(v["winnable"] is not None for v in settled)
    assert verdict_rows(app) == 6


@pytest.mark.parametrize("bad", [
    "0", "-1", "abc", "007", "1e5", "12.0", "%205", "%EF%BC%91",  # a full-width digit one
    "100000000000000000000", "9" * 25, "1" * 26, "1" * 400,
])
def test_a_bad_deal_number_is_422_in_the_apis_shape(client, app, bad):
    response = client.get(f"/api/deals/{bad}/verdict")
    assert response.status_code == 422, bad
    detail = response.json()["errors"]
    assert detail and all(set(problem) == {"loc", "msg", "type"} for problem in detail)
    assert detail[0]["loc"] == ["path", "n"]
    assert response.json()["detail"].startswith("The request is not valid")
    assert verdict_rows(app) == 0


def test_the_last_deal_number_is_fine(client):
    response = client.get("/api/deals/99999999999999999999/verdict")
    assert response.status_code == 200
    assert len(response.json()) == 6


def test_two_requests_for_the_same_played_deal_both_answer(app):
    """Both find nothing stored and search (in turn); the second to write must not fail."""
    answers: list = []

    def ask():
        with TestClient(app) as client:
            client.post("/api/games", json={"deal": BEYOND})
            answers.append(client.get(f"/api/deals/{BEYOND}/verdict"))

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[0].json() == answers[1].json()
    assert verdict_rows(app) == 6


def test_a_searched_verdict_gives_the_par_and_a_played_deal_keeps_it(client, app, monkeypatch):
    client.post("/api/games", json={"deal": BEYOND})
    body = client.get(f"/api/deals/{BEYOND}/verdict").json()
    for answer in body:
        game = Game(Deal.from_number(BEYOND), answer["goal"], answer["passes"])
        expected = solve(game, shortest=True)
        assert answer["par"] == (expected.par if expected.winnable else None)
        assert answer["par"] is None or answer["par"] <= answer["moves"]
    monkeypatch.setattr(odds_web, "solve_variant", no_search)
    assert client.get(f"/api/deals/{BEYOND}/verdict").json() == body


def test_each_rule_sets_winnable_deals_download_without_their_lines(client):
    """A published line was a challenge beaten ranked ("You beat the challenge!",
    0:00). Every numbered deal can be challenged and is on a table, and an honest player's
    moves are the published line's on most deals (docs/players.md), so the downloads keep each
    winnable deal and how long its line is, and leave the line out."""
    import gzip

    page = client.get("/odds").text
    links = re.findall(r'href="(/odds/lines/([\w-]+)\.txt\.gz)" download data-lines', page)
    assert [key for _, key in links] == [v.key for v in VARIANTS]
    assert "pyramid solve N --json" in page
    for url, key in links:
        answer = client.get(url)
        assert answer.status_code == 200 and answer.headers["content-type"] == "application/gzip"
        lines = gzip.decompress(answer.content).decode().splitlines()
        assert lines[0].startswith("# ") and "bench/winning_lines.py" in lines[0]
        variant = next(v for v in VARIANTS if v.key == key)
        rows = [line.split() for line in lines[1:]]
        assert all(len(row) == 2 for row in rows)  # the number and a length: no move
        deals = [int(number) for number, _length in rows]
        assert deals == [n for n in range(1, deals[-1] + 1) if odds.known_verdict(n, variant)]
        for number, length in rows[::len(rows) // 5 or 1][:5]:
            found = solve(Game(Deal.from_number(int(number)), variant.goal, variant.passes))
            assert found.winnable and int(length) > 0
    assert client.get("/odds/lines/standard-4.txt.gz").status_code == 404

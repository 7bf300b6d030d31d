"""One number format. A score read 1859 in one place and 1,859 in another;
every number a page shows goes through one function, the templates' ``number`` filter."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from app.web.core.numbers import format_number
from app.web.views.templating import templates

from .helpers import HX
from .test_results import challenge_link, first_input, line, play_on_board, win_deal  # noqa: F401

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
BOARD_TEMPLATES = {"_board.html", "game.html", "_result.html", "_analysis.html", "_tips.html"}
"""Being rewritten elsewhere: they take up the filter there."""


@pytest.mark.parametrize(("value", "kwargs", "written"), [
    (1859, {}, "1,859"),
    (7, {}, "7"),
    (100_000, {}, "100,000"),
    (None, {}, "–"),
    (float("nan"), {}, "–"),
    (20.5, {"digits": 1}, "20.5"),
    (0.6663, {"digits": 2, "percent": True}, "66.63%"),
    (0.625, {"percent": True}, "62%"),
    (1.0, {"percent": True}, "100%"),
    (None, {"percent": True}, "–"),
    (0.0042, {"digits": 2, "percent": True, "sign": True}, "+0.42%"),
    (12345.678, {"digits": 1}, "12,345.7"),
])
def test_a_number_is_written_one_way(value, kwargs, written):
    assert format_number(value, **kwargs) == written


def test_the_templates_have_the_filter():
    assert templates.env.filters["number"].__wrapped__ is format_number
    assert templates.env.from_string("{{ 1859|number }} {{ 0.5|number(1, percent=true) }}"
                                     ).render() == "1,859 50.0%"


@pytest.mark.parametrize("path", sorted(p.name for p in TEMPLATES.glob("*.html")
                                        if p.name not in BOARD_TEMPLATES))
def test_no_page_formats_a_number_its_own_way(path):
    text = (TEMPLATES / path).read_text()
    for own_way in (r"\"\{:,\}\"\.format", r"'\{:,\}'\.format", r"\"%\.\df\"\|format",
                    r"'%\.\df'\|format", r"\|round\b"):
        assert not re.search(own_way, text), (path, own_way)


def test_a_score_over_a_thousand_reads_the_same_everywhere(client, other_client, line, human_pace):  # noqa: F811
    client.post("/stats/name", data={"name": "Alice", "listed": "1"})
    sent = win_deal(client, line)
    score = client.get(f"/api/games/{sent}").json()["score"]
    assert score >= 1000
    written = format_number(score)
    # A friend answers the challenge, so the sender's results list the answer and its score.
    link = challenge_link(client, sent)
    parts = urlsplit(link)
    page = other_client.get(f"{parts.path}?{parts.query}")
    play_url = re.search(r'data-play="([^"]+)"', page.text).group(1).replace("&amp;", "&")
    friend = other_client.post(play_url, data=first_input(line[0]),
                               follow_redirects=False).headers["location"].rsplit("/", 1)[1]
    assert play_on_board(other_client, friend, line[1:])["status"] == "won"
    friend_score = format_number(other_client.get(f"/api/games/{friend}").json()["score"])
    answers = client.get(f"/games/{sent}/results", headers=HX).text
    assert f"(score {friend_score})" in answers.split("data-challenge-answers", 1)[1]
    versus = other_client.get(f"/games/{friend}/results", headers=HX).text
    assert f"<td>{friend_score}</td><td>{written}</td>" in versus
    # How others did on the deal: the best score, and the named player's row.
    deal_page = other_client.get("/deal/5").text
    block = deal_page.split("data-deal-results", 1)[1].split("</details>", 1)[0]
    assert "Best score: <strong>" in block and str(score) not in block
    assert f"<td>{written}</td>" in block
    # The statistics: best score and history.
    stats = client.get("/stats").text
    assert f'data-figure="best-score">{written}<' in stats
    assert f"data-score>{written}<" in stats

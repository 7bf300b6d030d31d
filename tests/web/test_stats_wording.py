"""On /stats: an abandoned game is not a streak of losses, and the rule sets
not played yet are one folded line, not five empty cards beside the one that was played."""

from __future__ import annotations

import re

import pytest

from app.engine import VARIANTS
from app.web.core.names import variant_title
from app.web.views.statsview import streak_text

from .test_stats_pages import create, figure, lose, play, win, win_line  # noqa: F401


def abandon(client) -> None:
    """A game with a move, left for a new one (which abandons it)."""
    game_id = create(client, deal=9)
    assert client.post(f"/api/games/{game_id}/moves", json={"op": "draw"}).status_code == 200
    create(client, deal=10)
    assert client.get(f"/api/games/{game_id}").json()["status"] == "abandoned"


@pytest.mark.parametrize(("count", "kind", "said"), [
    (1, "won", "1 win"),
    (3, "won", "3 wins"),
    (1, "lost", "1 loss"),
    (2, "lost", "2 losses"),
    (1, "abandoned", "1 game abandoned"),
    (2, "abandoned", "2 games abandoned"),
    (3, "not won", "3 games not won"),
    (0, None, "–"),
])
def test_a_streak_says_what_it_is_made_of(count, kind, said):
    assert streak_text(count, kind) == said


def test_an_abandoned_game_is_not_called_a_loss(client, win_line):  # noqa: F811
    win(client, win_line)
    abandon(client)
    html = client.get("/stats").text
    assert figure(html, "total", "current-streak") == "1 game abandoned"
    assert figure(html, "standard-3", "current-streak") == "1 game abandoned"
    assert "loss" not in figure(html, "total", "current-streak")
    # A loss after it: a run of games not won, both kinds.
    lose(client)
    html = client.get("/stats").text
    assert figure(html, "total", "current-streak") == "2 games not won"
    assert figure(html, "standard-1", "current-streak") == "1 loss"
    assert figure(html, "standard-3", "current-streak") == "1 game abandoned"
    # The longest run without a win is not called a losing streak either.
    assert "Longest losing streak" not in html
    assert re.search(r"Longest run without a win</dt><dd data-figure=\"longest-losing\">2<",
                     html)


def unplayed_block(html: str) -> str:
    return html.split("data-unplayed", 1)[1].split("</details>", 1)[0]


def test_rule_sets_not_played_yet_are_folded_into_one_line(client, win_line):  # noqa: F811
    win(client, win_line)
    html = client.get("/stats").text
    cards = re.findall(r'<section class="stats-card variant[^"]*"[^>]*data-variant="([\w-]+)"',
                       html)
    assert cards == ["standard-3"]
    folded = unplayed_block(html)
    assert html.count("data-unplayed") == 1
    assert re.search(r"<summary[^>]*>[^<]*5 other rule sets", folded)
    for variant in VARIANTS:
        listed = f'data-variant="{variant.key}"' in folded
        assert listed is (variant.key != "standard-3"), variant
        if listed:
            assert variant_title(variant) in folded
    assert folded.count(">Play one</button>") == 5
    assert "No games with these rules yet." not in html


def test_with_no_games_every_rule_set_is_in_the_folded_line(client):
    html = client.get("/stats").text
    assert not re.search(r'<section class="stats-card variant', html)
    folded = unplayed_block(html)
    assert re.search(r"<summary[^>]*>[^<]*6 rule sets", folded)
    assert folded.count(">Play one</button>") == 6

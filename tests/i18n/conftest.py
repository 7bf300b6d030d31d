"""A site with games in every state, for drawing every kind of page in every language.

``site`` is made once for the module that asks: a player with a game in progress, a won game,
a lost game and an abandoned one, and a second player with nothing. ``pages`` lists each kind
of page as (name, method, path, form), each drawn by the tests as this player.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from fastapi.testclient import TestClient

from app.engine import Deal, Game, Move
from app.engine.solver import solve
from app.main import create_app
from app.prestart import migrate
from app.web.core import i18n, words
from app.web.routes import pages
from tests.conftest import make_settings
from tests.i18n.pseudo import pseudo_translations

WON_DEAL = 5


@dataclass
class Site:
    client: TestClient
    ids: dict[str, str] = field(default_factory=dict)

    def page(self, path: str, language: str, method: str = "GET", form=None,
             headers=None) -> str:
        sent = {"Accept-Language": language, **(headers or {})}
        if method == "POST":
            response = self.client.post(path, data=form or {}, headers={
                **sent, "Sec-Fetch-Dest": "document"}, follow_redirects=False)
        else:
            response = self.client.get(path, headers=sent)
        assert response.status_code < 500, (path, response.status_code)
        return response.text


def _play(client: TestClient, game_id: str, moves: list[Move]) -> dict:
    answer = {}
    for move in moves:
        response = client.post(f"/api/games/{game_id}/moves", json=move.to_dict())
        assert response.status_code == 200, response.text
        answer = response.json()
    return answer


def _lost_line(number: int) -> list[Move]:
    """A game of deal ``number`` played to a loss: always the first legal move."""
    game = Game(Deal.from_number(number), "standard", 1)
    while game.outcome() is None:
        game.play(game.legal_moves[0])
    assert not game.outcome().won
    return list(game.moves)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[Site]:
    url = f"sqlite:///{tmp_path_factory.mktemp('i18n') / 'pyramid.db'}"
    migrate(url)
    app = create_app(make_settings(url))
    with TestClient(app) as client:
        token = re.search(r'name="csrf-token" content="([0-9a-f]+)"', client.get("/").text)
        client.headers["X-CSRF-Token"] = token.group(1)
        site = Site(client)
        won = client.post("/api/games", json={"deal": WON_DEAL}).json()["id"]
        line = list(solve(Game(Deal.from_number(WON_DEAL), "standard", 3)).moves)
        assert _play(client, won, line)["status"] == "won"
        lost = client.post("/api/games", json={"deal": 7, "passes": 1}).json()["id"]
        assert _play(client, lost, _lost_line(7))["status"] == "lost"
        abandoned = client.post("/api/games", json={"deal": 8}).json()["id"]
        _play(client, abandoned, line[:0])
        playing = client.post("/api/games", json={"deal": 9}).json()["id"]
        first = Game(Deal.from_number(9), "standard", 3).legal_moves[0]
        _play(client, playing, [first])
        race = client.post("/api/races", json={"deal": 4242}).json()["key"]
        site.ids = {"won": won, "lost": lost, "abandoned": abandoned, "playing": playing,
                    "race": race}
        yield site


PAGES: list[tuple[str, str, str, dict | None]] = [
    ("home", "GET", "/", None),
    ("board, playing", "GET", "/games/{playing}", None),
    ("board, won", "GET", "/games/{won}", None),
    ("board, lost", "GET", "/games/{lost}", None),
    ("board, abandoned", "GET", "/games/{abandoned}", None),
    ("board fragment", "GET", "/games/{playing}", {"hx": True}),
    ("analysis", "GET", "/games/{lost}/analysis", None),
    ("replay", "GET", "/games/{won}/replay", None),
    ("results", "GET", "/games/{won}/results", None),
    ("deal link", "GET", "/deal/1234", None),
    ("deal of the day", "GET", "/daily", None),
    ("calendar", "GET", "/daily/calendar", None),
    ("statistics", "GET", "/stats", None),
    ("statistics reset", "GET", "/stats/reset", None),
    ("odds", "GET", "/odds", None),
    ("rules", "GET", "/rules", None),
    ("settings", "GET", "/settings", None),
    ("learn", "GET", "/learn", None),
    ("offline board", "GET", "/offline", None),
    ("not found", "GET", "/no-such-page", None),
    ("bad deal number", "GET", "/deal/0", None),
    ("abandon question", "POST", "/games", {"goal": "standard", "passes": "3"}),
    ("device link", "POST", "/stats/devices", {}),
    ("race", "GET", "/races/{race}", None),
]


def ids(site: Site, path: str) -> str:
    return path.format(**site.ids)


@pytest.fixture
def pseudo_language(monkeypatch) -> Iterator[str]:
    """Every language speaks the pseudo-translation (see pseudo.py) while the test runs."""
    fake = pseudo_translations()
    monkeypatch.setattr(i18n, "translations", lambda code: fake)
    words._page_words.cache_clear()
    pages._rules_html.cache_clear()
    yield "en"
    words._page_words.cache_clear()
    pages._rules_html.cache_clear()

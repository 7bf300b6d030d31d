"""Helpers shared by the web tests: starting games and finding moves in a stored position."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from itertools import combinations

from fastapi.testclient import TestClient

from app.engine import Card, Deal, Game, Move

HX = {"HX-Request": "true"}


def start_deal(client: TestClient, number: int = 3, goal: str = "standard",
               passes: int = 3) -> str:
    """Start a deal as its deal link's page does (the page itself stores nothing: the game
    starts with a POST), and return the game's id."""
    response = client.post(f"/deal/{number}", data={"goal": goal, "passes": str(passes)},
                           follow_redirects=False)
    assert response.status_code == 303, response.text
    location = response.headers["location"]
    assert re.fullmatch(r"/games/[\w-]+", location)
    return location.rsplit("/", 1)[1]


def play_at_once(client: TestClient, game_id: str, moves) -> dict:
    """Play ``moves`` in one batch, as the board's script sends quick inputs (one request, not
    one a move: a test that only needs a game played pays a request a game), and return the
    game as the JSON API reads it."""
    version = client.get(f"/api/games/{game_id}").json()["version"]
    answer = client.post(f"/games/{game_id}/play", headers=HX,
                         data={"moves": " ".join(move.to_text() for move in moves),
                               "version": str(version)})
    assert answer.status_code == 200 and "data-refused" not in answer.text, answer.text
    return client.get(f"/api/games/{game_id}").json()


def game_for(client: TestClient, game_id: str) -> Game:
    """The engine's view of a stored game, rebuilt from the JSON API."""
    state = client.get(f"/api/games/{game_id}").json()
    deal = Deal.from_number(state["deal"])
    return Game.replay(deal, state["goal"], state["passes"],
                       [Move.from_dict(m) for m in state["moves"]])


def bad_pair(game: Game) -> tuple[Card, Card]:
    """Two free cards that do not make 13 (and are not Kings)."""
    free = [c for c in game.free_cards() if not c.is_king]
    for a, b in combinations(free, 2):
        if a.rank + b.rank != 13:
            return a, b
    raise AssertionError("no bad pair among the free cards")


def covered_card(game: Game) -> Card:
    return next(card for i, card in enumerate(game.pyramid)
                if card is not None and not game.is_free_position(i))


def first_pair_move(game: Game) -> Move:
    return next(m for m in game.legal_moves if m.op.value == "remove" and len(m.cards) == 2)


@dataclass
class ImportAnswer:
    """How an import ended, as the synchronous import answered it before imports were answered
    at once: 303 to ``/stats?imported=N&skipped=M`` when done, 400 with the reason
    when refused, read from the statistics page once the import in the background has ended;
    or the status of a refusal made before it began (413, 429)."""

    status_code: int
    text: str
    headers: dict[str, str] = field(default_factory=dict)


def import_file(client: TestClient, payload: bytes, headers: dict[str, str] | None = None,
                seconds: float = 120.0) -> ImportAnswer:
    """Import ``payload`` from the statistics page, and wait until the page says how it
    ended."""
    answer = client.post("/stats/import", files={"file": ("games.json", payload)},
                         headers=headers or {}, follow_redirects=False)
    if answer.status_code != 202:
        return ImportAnswer(answer.status_code, answer.text)
    assert "/stats" in answer.text
    deadline = time.monotonic() + seconds
    while True:
        page = client.get("/stats", headers=headers or {}).text
        found = re.search(r'data-import-progress="(\w+)"(?: data-added="(\d+)" '
                          r'data-skipped="(\d+)")?>([^<]*)<', page)
        assert found, "the statistics page shows the import"
        state, added, skipped, _text = found.groups()
        if state == "done":
            return ImportAnswer(303, page, {"location": f"/stats?imported={added}"
                                                        f"&skipped={skipped}"})
        if state == "refused":
            return ImportAnswer(400, page)
        assert time.monotonic() < deadline, "the import never ended"
        time.sleep(0.05)

"""One budget per client for what costs: searches, new games,
imports and exports spend from the player's budget and the address's, refused with 429 and
Retry-After before any database or replay work; the solver's queue keeps one address to its
share, and a client without a cookie to one line."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from app.engine.solver import Hint
from app.main import create_app
from app.web.core.budget import Buckets, cost_of
from app.web.core.player import PlayerCookie
from app.web.services import solving
from tests.conftest import make_settings

from .conftest import browser_like

ATTACKER = ("203.0.113.66", 40000)
ELSEWHERE = ("198.51.100.7", 40000)


def as_player(app, name: str) -> dict[str, str]:
    cookies = PlayerCookie(app.state.settings)
    return {"Cookie": f"{app.state.settings.cookie_name}={cookies.sign(name)}"}


class AttemptsQueue(solving.SolverQueue):
    """The solver's queue, releasing ``attempts`` at each submit, taken or refused: a test
    waits for that, not for a time."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.attempts = threading.Semaphore(0)

    def submit(self, *args, **kwargs):
        try:
            return super().submit(*args, **kwargs)
        finally:
            self.attempts.release()


def ended_game(client: TestClient) -> str:
    """A game with a move, abandoned (so ended) by starting another."""
    game_id = client.post("/api/games", json={"deal": 617}).json()["id"]
    assert client.post(f"/api/games/{game_id}/moves", json={"op": "draw"}).status_code == 200
    assert client.post("/api/games", json={"deal": 618}).status_code == 201
    assert client.get(f"/api/games/{game_id}").json()["status"] != "in_progress"
    return game_id


@pytest.mark.parametrize("cookies", ["none", "fresh"])
def test_one_address_cannot_starve_another_players_hints(app, monkeypatch, cookies):
    """Twelve loops from one address asking for analyses, without a cookie (a new player at
    each request) or each with a cookie of its own: another address's hint still gets in."""
    gate = threading.Event()

    def held(work):
        def searched(*args):
            gate.wait(10)
            return work(*args)
        return searched

    monkeypatch.setattr(solving, "analysis_of", held(solving.analysis_of))
    monkeypatch.setattr(solving, "_advice",
                        held(lambda game: (Hint(game.legal_moves[0], True, "a move"), None)))
    queue = AttemptsQueue(workers=1, capacity=8)
    monkeypatch.setattr(solving, "QUEUE_OF_SEARCHES", queue)
    with TestClient(app) as victim, TestClient(app, client=ATTACKER) as attacker, \
            ThreadPoolExecutor(max_workers=13) as threads:
        browser_like(victim)
        target = ended_game(victim)
        game_id = victim.post("/api/games", json={"deal": 700}).json()["id"]
        headers = [as_player(app, f"loop-{n}") if cookies == "fresh" else {"Cookie": "x=1"}
                   for n in range(12)]
        loops = [threads.submit(attacker.get, f"/api/games/{target}/analysis", headers=h)
                 for h in headers]
        for _ in range(12):
            assert queue.attempts.acquire(timeout=10), "an analysis never reached the queue"
        hint = threads.submit(victim.post, f"/api/games/{game_id}/hint")
        assert queue.attempts.acquire(timeout=10), "the hint never reached the queue"
        gate.set()
        assert hint.result().status_code == 200, hint.result().text
        codes = [loop.result().status_code for loop in loops]
    assert set(codes) <= {200, 429}
    # Without a cookie the address is one line: one search at a time; with cookies, its share.
    assert codes.count(200) == (1 if cookies == "none" else queue.per_address), codes


@pytest.fixture
def tight(sqlite_url):
    """An app whose budgets are small enough to spend in a test: two searches at once (a
    burst of one past the rate), three new games a player, six an address."""
    return create_app(make_settings(
        sqlite_url, search_burst=1, searches_per_minute=1, game_burst=2, games_per_minute=1,
        address_game_burst=5, address_games_per_second=0.01))


def test_a_flood_of_hints_is_refused_without_touching_the_database(tight, monkeypatch):
    monkeypatch.setattr(solving, "_advice",
                        lambda game: (Hint(game.legal_moves[0], True, "a move"), None))
    statements: list[str] = []
    with TestClient(tight) as client:
        browser_like(client)
        game_id = client.post("/api/games", json={"deal": 617}).json()["id"]
        assert [client.post(f"/api/games/{game_id}/hint").status_code
                for _ in range(2)] == [200, 200]  # the burst

        def seen(_conn, _cursor, statement, *_args) -> None:
            statements.append(statement)

        event.listen(tight.state.db.engine, "before_cursor_execute", seen)
        try:
            flood = [client.post(f"/api/games/{game_id}/hint") for _ in range(20)]
        finally:
            event.remove(tight.state.db.engine, "before_cursor_execute", seen)
        assert client.get(f"/api/games/{game_id}").json()["hints_used"] == 2
    assert {answer.status_code for answer in flood} == {429}
    assert statements == []  # not a query: no load, no replay
    for answer in flood:
        assert 1 <= int(answer.headers["Retry-After"]) <= 60
        assert "Too many requests to the solver" in answer.json()["detail"]


def test_a_refusal_never_looks_up_a_device_session(tight):
    """A browser signed in through a device link names its session in its cookie, which is
    looked up on every request let through: a refused one waits for no look-up (a flood with
    such a cookie would otherwise cost a query a request), and spends that session's budget,
    not its owner's."""
    cookies = PlayerCookie(tight.state.settings)
    name = tight.state.settings.cookie_name
    linked = {"Cookie": f"{name}={cookies.sign('owner', 'a-session')}"}
    statements: list[str] = []

    def seen(_conn, _cursor, statement, *_args) -> None:
        statements.append(statement)

    with TestClient(tight) as client:
        spent = [client.post("/api/games/nothing/hint", headers=linked).status_code
                 for _ in range(2)]
        assert 429 not in spent  # the burst: let through, the session looked up
        event.listen(tight.state.db.engine, "before_cursor_execute", seen)
        try:
            flood = [client.post("/api/games/nothing/hint", headers=linked)
                     for _ in range(20)]
        finally:
            event.remove(tight.state.db.engine, "before_cursor_execute", seen)
        # The owner's own budget is untouched.
        owner = client.post("/api/games/nothing/hint", headers=as_player(tight, "owner"))
    assert {answer.status_code for answer in flood} == {429}
    assert statements == []
    assert owner.status_code != 429


def test_new_games_are_bounded_by_player_and_by_address(tight):
    with TestClient(tight) as client, TestClient(tight, client=ELSEWHERE) as other:
        first = [client.post("/api/games", json={"deal": 617}, headers=as_player(tight, "a"))
                 for _ in range(4)]
        assert [a.status_code for a in first] == [201, 201, 201, 429]
        assert int(first[-1].headers["Retry-After"]) >= 1
        assert "Too many new games" in first[-1].json()["detail"]
        # A fresh cookie is a new player, not a new address: the address holds six games.
        second = [client.post("/api/games", json={"deal": 617}, headers=as_player(tight, "b"))
                  for _ in range(4)]
        assert [a.status_code for a in second] == [201, 201, 201, 429]
        cookieless = client.post("/api/games", json={"deal": 617}, headers={"Cookie": "x=1"})
        assert cookieless.status_code == 429
        # The form's route too, answered with a page.
        page = client.post("/games", data={"goal": "standard"}, headers=as_player(tight, "c"))
        assert page.status_code == 429 and "Retry-After" in page.headers
        assert "Too many new games" in page.text
        # Another address has its own budget.
        assert other.post("/api/games", json={"deal": 617}).status_code == 201


def test_a_refusal_comes_in_the_shape_the_page_asked_for(tight):
    """The board's script asks for JSON, htmx for a fragment it can show (static/js reads the
    sentence from either); a plain form gets a page."""
    with TestClient(tight) as client:
        browser_like(client)
        game_id = client.post("/api/games", json={"deal": 617}).json()["id"]
        spend = [client.get(f"/games/{game_id}/analysis") for _ in range(2)]
        assert 429 not in {answer.status_code for answer in spend}
        script = client.post(f"/games/{game_id}/hint", headers={"Accept": "application/json"})
        fragment = client.post(f"/games/{game_id}/hint", headers={"HX-Request": "true"})
        form = client.post(f"/games/{game_id}/hint")
    assert script.status_code == fragment.status_code == form.status_code == 429
    assert "Too many requests to the solver" in script.json()["detail"]
    assert fragment.text.startswith('<p class="notice" role="alert" data-refusal="429">')
    assert "Too many requests to the solver" in fragment.text and "<html" not in fragment.text
    assert form.text.startswith("<!doctype html>") and "Too many requests" in form.text


def test_a_bucket_refills_at_its_rate():
    now = [0.0]
    buckets = Buckets(clock=lambda: now[0])
    key = [(("game", "player", "p"), 0.5, 2)]
    assert [buckets.take(key) for _ in range(3)] == [0, 0, 2]
    now[0] = 1.0
    assert buckets.take(key) == 1  # half a token back: one more second to go
    now[0] = 2.0
    assert buckets.take(key) == 0
    # Nothing is taken from one bucket when the other is empty.
    both = [(("game", "player", "q"), 1.0, 5), (("game", "address", "a"), 1.0, 1)]
    assert [buckets.take(both) for _ in range(2)] == [0, 1]
    now[0] = 100.0
    buckets.sweep(now[0])
    assert len(buckets) == 0  # full again: forgotten


@pytest.mark.parametrize(("method", "path", "query", "kind"), [
    ("POST", "/api/games/abc/hint", b"", "search"),
    ("GET", "/games/abc/analysis", b"", "search"),
    ("GET", "/games/abc/replay", b"win_from=3", "search"),
    ("GET", "/games/abc/replay", b"step=3", None),
    ("GET", "/api/games/abc", b"", None),
    ("POST", "/api/games/abc/moves", b"", None),
    ("POST", "/games", b"", "game"),
    ("POST", "/daily/play", b"", "game"),
    ("POST", "/games/abc/retry", b"", "game"),
    ("POST", "/stats/import", b"", "transfer"),
    ("GET", "/stats/export.csv", b"", "transfer"),
])
def test_what_costs(method, path, query, kind):
    assert cost_of(method, path, query) == kind

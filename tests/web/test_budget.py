"""One budget per client for what costs: searches, new games,
imports and exports spend from the player's budget and the address's, refused with 429 and
Retry-After before any database or replay work; the solver's queue keeps one address to its
share, and a client without a cookie to one line."""

from __future__ import annotations

import re
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from app.engine.solver import Hint
from app.main import create_app
from app.settings import PROJECT_DIR, Settings
from app.web.core import budget
from app.web.core.budget import COSTS, WHEN_ASKED, Buckets, Costs
from app.web.core.observe import flatten
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


def test_an_address_drawn_many_404_pages_gets_short_ones_and_its_pages_still(sqlite_url):
    """A scanner's flood of addresses that name nothing: past ADDRESS_NOT_FOUND_BURST pages,
    its 404s are short (no template, no route: ``refuse``'s page), while an address that names
    something is served as always; the short ones spend nothing more."""
    app = create_app(make_settings(sqlite_url, address_not_found_burst=2,
                                   address_not_found_per_second=0.01))
    with TestClient(app) as client:
        drawn = [client.get(f"/no-such-page-{n}") for n in range(3)]
        assert [answer.status_code for answer in drawn] == [404] * 3
        assert all('name="csrf-token"' in answer.text for answer in drawn)  # the site's page
        short = [client.get("/no-such-page"), client.get("/api/no-such")]
        assert [answer.status_code for answer in short] == [404, 404]
        assert short[0].text.startswith("<!doctype html>")
        assert 'name="csrf-token"' not in short[0].text and "Page not found" in short[0].text
        assert "There is nothing at this address" in short[1].json()["detail"]
        assert client.get("/rules").status_code == 200  # what names something is served
        assert client.post("/games/no-such/play").status_code in (403, 404)  # a route's own
    buckets = Buckets(clock=lambda: 0.0)
    key = ("not_found", "a")
    assert buckets.has(key, 1.0, 1) and buckets.take([(key, 1.0, 1)]) == 0
    assert not buckets.has(key, 1.0, 1)

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


@pytest.fixture(scope="module")
def costs(tmp_path_factory) -> Costs:
    app = create_app(make_settings(f"sqlite:///{tmp_path_factory.mktemp('costs')}/c.db"))
    return Costs(flatten(app.router.routes))


def scope_of(method: str, path: str, query: bytes = b"") -> dict:
    return {"type": "http", "method": method, "path": path, "root_path": "",
            "query_string": query, "headers": []}


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
    ("GET", "/stats/export.xml", b"", None),
])
def test_what_costs(costs, method, path, query, kind):
    assert costs.of(scope_of(method, path, query)) == kind


FREE = frozenset({
    "openapi", "health", "metrics", "api_docs", "static", "assets",
    # reading and playing a game: stored positions, no search
    "api_read", "api_move", "api_undo", "home", "deal_link", "games_index", "games_index_slash",
    "rules", "daily",
    "calendar", "board", "play", "undo", "results_page", "pause", "resume",
    # statistics and settings: a player's own rows
    "stats", "set_name", "confirm_reset", "reset", "make_device_link", "revoke_device_link",
    "end_device_session", "device_link", "use_device_link", "import_too_large", "settings",
    "save_settings", "sound", "dismiss_tips",
    # the odds: tables computed beforehand, files served as they are
    "api_odds", "winning_lines", "odds",
    # the offline shell and what it caches
    "service_worker", "manifest", "offline_shell", "learn", "offline_pack",
    # a race read, its page, its stream (bounded per address and per process instead)
    "api_race", "race", "race_events",
})
"""Routes known to cost nothing worth a budget (a page or a move: milliseconds, no search, no
new game, no transfer). A new route is in none of COSTS, WHEN_ASKED and this until someone
decides: then this test fails."""


def test_every_route_is_known_to_cost_or_not(app):
    names = {route.name for route in flatten(app.router.routes)}
    costly = set(COSTS) | set(WHEN_ASKED)
    assert not costly & FREE
    assert costly <= names, f"budgets for routes the app lacks: {sorted(costly - names)}"
    unknown = sorted(names - costly - FREE)
    assert not unknown, (f"routes neither budgeted (app/web/core/budget.py COSTS) nor known "
                         f"to cost nothing (FREE here): {unknown}")


def test_a_budget_naming_a_route_the_app_lacks_is_an_error(app, monkeypatch):
    monkeypatch.setitem(budget.COSTS, "no_such_route", "search")
    with pytest.raises(LookupError, match="no_such_route"):
        Costs(flatten(app.router.routes))


NGINX_ZONES = {"search": "pyramid_search", "game": "pyramid_new_game",
               "transfer": "pyramid_transfer"}
"""The shipped nginx's limit_req zone for each budget."""


def nginx_maps() -> dict[str, list[tuple[re.Pattern[str], str]]]:
    """Each zone's key map in the template: its regexes over "$request_method $uri"."""
    text = (PROJECT_DIR / "deploy" / "pyramid.conf.template").read_text()
    maps = {}
    for variable, body in re.findall(
            r'map "\$request_method \$uri" \$(\w+) \{(.*?)\n\}', text, re.S):
        maps[variable] = [(re.compile(pattern), value) for pattern, value in
                          re.findall(r'"~([^"]+)"\s+(\S+);', body)]
    return maps


def nginx_zone(method: str, path: str) -> set[str]:
    """The zones nginx counts a request in, by its maps and its limit_req_zone lines."""
    text = (PROJECT_DIR / "deploy" / "pyramid.conf.template").read_text()
    zone_of = dict(re.findall(r"limit_req_zone \$(\w+) zone=(\w+):", text))
    found = set()
    for variable, patterns in nginx_maps().items():
        if any(pattern.search(f"{method} {path}") for pattern, _value in patterns):
            found.add(zone_of[variable])
    return found


def sample_path(template: str) -> str:
    return re.sub(r"\{[^}]+\}", "12345", template)


def test_the_proxys_zones_count_the_requests_the_budgets_count(app):
    """Every route: nginx's zone for it (none, or one) is the zone of its budget, so a
    renamed or new costly route cannot be counted by one and not the other. (A replay's
    winning line is the app's alone: nginx's maps do not read the query.)"""
    assert set(nginx_maps()) == {"pyramid_search_client", "pyramid_transfer_client",
                                 "pyramid_new_game_client"}
    wrong = []
    for route in flatten(app.router.routes):
        for method in sorted(getattr(route, "methods", None) or ()):
            if method == "HEAD":
                continue
            path = sample_path(route.path)
            kind = COSTS.get(route.name) if method in route.methods else None
            wanted = {NGINX_ZONES[kind]} if kind else set()
            if nginx_zone(method, path) != wanted:
                wrong.append(f"{method} {path} ({route.name}): nginx {nginx_zone(method, path)}"
                             f", the app {wanted}")
    assert not wrong, "\n".join(wrong)


def test_the_proxys_rates_and_bursts_are_the_apps_per_address_budgets():
    text = (PROJECT_DIR / "deploy" / "pyramid.conf.template").read_text()
    rates = dict(re.findall(r"zone=(\w+):\w+ rate=(\d+)r/s", text))
    bursts = dict(re.findall(r"limit_req zone=(\w+) burst=(\d+)", text))
    defaults = {name: field.default for name, field in Settings.model_fields.items()}
    for kind, zone in NGINX_ZONES.items():
        plural = {"search": "searches", "game": "games", "transfer": "transfers"}[kind]
        rate = defaults[f"address_{plural}_per_second"]
        burst = defaults[f"address_{kind}_burst"]
        assert (float(rates[zone]), int(bursts[zone])) == (rate, burst), zone


def test_the_proxy_waits_long_only_for_the_searches_and_the_transfers(app):
    """nginx's ordinary read timeout (5 s) takes a silent app for a hung one; a search or a
    transfer may take longer, so each such route has a location that waits longer, and no
    other route of the app is in one."""
    text = (PROJECT_DIR / "deploy" / "pyramid.conf.template").read_text()
    long_waits = []
    for kind, where, body in re.findall(r"(?ms)^    location (~|=) (\S+) \{(.*?)^    \}", text):
        timeout = re.search(r"proxy_read_timeout (\d+)s;", body)
        if timeout and int(timeout.group(1)) >= 30:
            long_waits.append(re.compile(where if kind == "~" else re.escape(where) + "$"))
    wrong = []
    for route in flatten(app.router.routes):
        path = sample_path(route.path)
        kind = COSTS.get(route.name) or WHEN_ASKED.get(route.name, (b"", None))[1]
        waits_long = any(pattern.match(path) for pattern in long_waits)
        # /races/*/events is a stream, in a long location of its own.
        if waits_long != (kind in ("search", "transfer") or "/events" in path):
            wrong.append(f"{route.path} ({route.name}, {kind}): long wait {waits_long}")
    assert not wrong, "\n".join(wrong)

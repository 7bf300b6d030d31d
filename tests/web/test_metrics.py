"""/metrics: closed unless METRICS_TOKEN is set, then only to its bearer; Prometheus' text
format; labels from route templates and status classes (never a game's id); and each count
moves when the thing it counts happens: games, moves, searches, transfers, the database's
failures and its pool.

The metrics live for the whole process (as in production), so each test reads the change it
causes."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from app.engine import Deal, Game
from app.engine.solver import solve
from app.main import create_app
from app.web.core import assets, metrics
from app.web.services import solving
from tests.conftest import make_settings
from tests.web.conftest import add_test_routes, browser_like

TOKEN = "metrics-test-token-0123456789"
BEARER = {"Authorization": f"Bearer {TOKEN}"}


def value(name: str, **labels: str) -> float:
    return metrics.REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.fixture
def scraped(sqlite_url):
    """An app with a METRICS_TOKEN, its failing test routes, and a browser-like client."""
    app = create_app(make_settings(sqlite_url, metrics_token=TOKEN))
    add_test_routes(app)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield browser_like(client)


def test_metrics_are_not_there_without_a_token(client):
    assert client.get("/metrics", headers=BEARER).status_code == 404


def test_only_the_tokens_bearer_reads_the_metrics(scraped):
    missing = scraped.get("/metrics")
    assert missing.status_code == 401 and missing.headers["www-authenticate"].startswith("Bearer")
    assert scraped.get("/metrics", headers={"Authorization": TOKEN}).status_code == 401
    assert scraped.get("/metrics", headers={"Authorization": "Basic " + TOKEN}).status_code == 401
    wrong = {"Authorization": "Bearer " + TOKEN[:-1] + "X"}
    assert scraped.get("/metrics", headers=wrong).status_code == 403
    answer = scraped.get("/metrics", headers=BEARER)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain; version=")
    assert answer.headers["cache-control"] == "no-store"
    names = {family.name for family in text_string_to_metric_families(answer.text)}
    assert {"pyramid_http_request_duration_seconds", "pyramid_http_requests_in_flight",
            "pyramid_solver_queue_depth", "pyramid_solver_searches",
            "pyramid_solver_node_limit_hits", "pyramid_games_started", "pyramid_games_finished",
            "pyramid_moves", "pyramid_offline_games_synced", "pyramid_db_pool_size",
            "pyramid_db_pool_connections_in_use", "pyramid_transfers",
            "process_cpu_seconds"} <= names


def test_a_scraper_may_reach_metrics_by_any_host_name(scraped):
    """Prometheus scrapes app1:8000, not the public name: the Host check lets /metrics
    through, as it does /healthz (and nothing else)."""
    assert scraped.get("/metrics", headers={**BEARER, "Host": "app1:8000"}).status_code == 200
    assert scraped.get("/", headers={"Host": "app1:8000"}).status_code == 400


def test_requests_are_counted_by_route_template_and_status_class(scraped):
    game = scraped.post("/api/games", json={"deal": 12}).json()["id"]
    for _ in range(3):
        scraped.post(f"/api/games/{game}/moves", json={"op": "draw"})
    scraped.get("/no/such/page")
    scraped.post("/api/games", content=b"{" * 70_000,
                 headers={"Content-Type": "application/json"})  # refused before routing
    text = scraped.get("/metrics", headers=BEARER).text
    assert game not in text
    route = '{method="POST",route="/api/games/{game_id}/moves",status="2xx"}'
    count = re.search(r"pyramid_http_request_duration_seconds_count" + re.escape(route)
                      + r" (\S+)", text)
    assert count and float(count.group(1)) >= 3
    assert 'route="unmatched",status="4xx"' in text
    # The page's files, served by a mount: under its path, not with the unknown pages.
    assert scraped.get(assets.url("js/site.js")).status_code == 200
    assert value("pyramid_http_request_duration_seconds_count", route=assets.PREFIX,
                 method="GET", status="2xx") >= 1
    assert value("pyramid_http_request_duration_seconds_count", route="/api/games",
                 method="POST", status="4xx") >= 1  # the 413, under its route
    assert value("pyramid_http_requests_in_flight") == 0  # none left counted after


def test_games_and_moves_are_counted_by_rule_set(scraped):
    started = value("pyramid_games_started_total", rules="standard-3")
    won = value("pyramid_games_finished_total", rules="standard-3", outcome="won")
    moves, abandoned = value("pyramid_moves_total"), value("pyramid_games_abandoned_total")
    undos = value("pyramid_undos_total")
    game = scraped.post("/api/games", json={"deal": 5}).json()["id"]
    line = solve(Game(Deal.from_number(5), "standard", 3)).moves
    scraped.post(f"/api/games/{game}/moves", json=line[0].to_dict())
    assert scraped.post(f"/api/games/{game}/undo").status_code == 200
    for move in line:
        assert scraped.post(f"/api/games/{game}/moves", json=move.to_dict()).status_code == 200
    other = scraped.post("/api/games", json={"deal": 6, "goal": "wholedeck", "passes": 1})
    scraped.post(f"/api/games/{other.json()['id']}/moves", json={"op": "draw"})
    scraped.post("/api/games", json={"deal": 7})  # leaves the one with a move: abandoned
    assert value("pyramid_games_started_total", rules="standard-3") == started + 2
    assert value("pyramid_games_started_total", rules="wholedeck-1") >= 1
    assert value("pyramid_games_finished_total", rules="standard-3", outcome="won") == won + 1
    assert value("pyramid_moves_total") == moves + len(line) + 2
    assert value("pyramid_undos_total") == undos + 1
    assert value("pyramid_games_abandoned_total") == abandoned + 1


def test_searches_are_counted_with_their_time_and_the_queue_is_empty_after(scraped):
    done = value("pyramid_solver_searches_total", kind="hint", outcome="done")
    timed = value("pyramid_solver_search_duration_seconds_count", kind="hint")
    game = scraped.post("/api/games", json={"deal": 31}).json()["id"]
    assert scraped.post(f"/api/games/{game}/hint").status_code == 200
    assert value("pyramid_solver_searches_total", kind="hint", outcome="done") == done + 1
    assert value("pyramid_solver_search_duration_seconds_count", kind="hint") == timed + 1
    assert value("pyramid_solver_queue_depth") == 0
    assert value("pyramid_solver_searches_running") == 0


def test_a_search_stopped_at_its_node_limit_is_counted():
    before = value("pyramid_solver_node_limit_hits_total", kind="solve")
    found = solving.SOLVED.solve(Game(Deal.from_number(977_001), "wholedeck", 3), node_limit=3)
    assert found.winnable is None
    assert value("pyramid_solver_node_limit_hits_total", kind="solve") == before + 1


def test_a_database_failure_is_counted_by_kind(scraped):
    before = value("pyramid_db_errors_total", kind="OperationalError")
    assert scraped.get("/boom-db").status_code == 503
    assert value("pyramid_db_errors_total", kind="OperationalError") == before + 1


def test_the_pool_and_the_transfers_are_watched(scraped):
    exports = value("pyramid_transfers_total", kind="export", outcome="done")
    assert scraped.get("/stats/export.json").status_code == 200
    assert value("pyramid_transfers_total", kind="export", outcome="done") == exports + 1
    assert value("pyramid_transfer_duration_seconds_count", kind="export") >= 1
    assert value("pyramid_transfers_in_progress") == 0
    scraped.get("/metrics", headers=BEARER)  # the pool is read when metrics are asked for
    assert value("pyramid_db_pool_size") == 5  # SQLAlchemy's default
    assert value("pyramid_db_pool_connections_in_use") == 0
    assert value("pyramid_db_pool_connections_idle") >= 1


def test_the_offline_sync_counter_is_there_for_the_endpoint_to_come():
    before = value("pyramid_offline_games_synced_total")
    metrics.offline_games_synced.inc()
    assert value("pyramid_offline_games_synced_total") == before + 1


def test_the_build_is_published_as_healthz_names_it(scraped):
    health = scraped.get("/healthz").json()
    page = scraped.get("/metrics", headers=BEARER).text
    build = next(family for family in text_string_to_metric_families(page)
                 if family.name == "pyramid_build_info")
    labels = [sample.labels for sample in build.samples if sample.value == 1]
    assert {"version": health["version"], "revision": health["revision"],
            "schema": health["schema"]} in labels

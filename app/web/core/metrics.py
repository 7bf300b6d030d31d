"""What an operator watches, for Prometheus: ``GET /metrics`` in its text format
(prometheus-client).

Closed unless ``METRICS_TOKEN`` is set (404, as if there were nothing here); then a scraper
sends ``Authorization: Bearer <token>`` (401 without it, 403 with another, compared in constant
time). The shipped nginx never passes ``/metrics`` on: a scraper reaches each app process
directly, by its own address (so the Host check lets ``/metrics`` through, as ``/healthz``).

Every name starts with ``pyramid_``. Labels are bounded by the code, never by what a client
sends: a route's template (``/api/games/{game_id}/moves``, never a game's id), a status class,
a rule set (``standard-3``: two goals times three passes), a search's kind.

Other modules count through the objects here, e.g. ``metrics.offline_games_synced.inc()``
where a game begun without network is stored by its first batch (``actions.apply`` on a deal
page's game).
Counting is cheap: an increment under a lock, a few hundred nanoseconds.

**Several worker processes.** uvicorn's ``--workers`` (``WORKERS`` for app.serve) are
separate processes, and a scrape reaches one of them. With ``PROMETHEUS_MULTIPROC_DIR`` set
(app.serve sets it to a fresh folder when ``WORKERS`` > 1), prometheus-client keeps each
process's values in files there, and ``/metrics`` sums them: counters and histograms over
every process that ever ran since the folder was made, gauges over the live ones
(``livesum``). A worker that ends marks its gauges dead; one that was killed is found at the
next scrape (``forget_dead_processes``). The folder must be emptied before the server
starts (app.serve makes a new one), or old runs' counts are added in.
"""

from __future__ import annotations

import asyncio
import hmac
import os
import re
import threading
from pathlib import Path
from typing import Any

from anyio import to_thread
from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
    multiprocess,
)
from sqlalchemy import Engine

MULTIPROCESS_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
"""Read once, as prometheus-client itself does when it is imported."""

REGISTRY = CollectorRegistry()
"""This module's metrics (not prometheus-client's global registry, so nothing another
library registers there is published by accident)."""
if not MULTIPROCESS_DIR:
    # CPU, memory, open files of this process; in multiprocess mode these would be the
    # scraped worker's alone, so they are left out there.
    ProcessCollector(registry=REGISTRY)

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
SEARCH_BUCKETS = (0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)


def _gauge(name: str, documentation: str, labels: tuple[str, ...] = ()) -> Gauge:
    """A gauge summed over the live processes in multiprocess mode."""
    return Gauge(name, documentation, labels, registry=REGISTRY, multiprocess_mode="livesum")


# --- requests ---------------------------------------------------------------------------------
request_duration = Histogram(
    "pyramid_http_request_duration_seconds",
    "Time from a request's arrival to the end of its answer, by route template, method and "
    "status class; its _count is the number of requests.",
    ("route", "method", "status"), buckets=LATENCY_BUCKETS, registry=REGISTRY)
build_info = Gauge(
    "pyramid_build_info",
    "1, labelled with the running build: the package's version, the commit it was built from "
    "and the migration its code expects (the same as /healthz says).",
    ("version", "revision", "schema"), registry=REGISTRY, multiprocess_mode="max")
requests_in_flight = _gauge("pyramid_http_requests_in_flight",
                            "Requests being answered right now.")

# --- the solver -------------------------------------------------------------------------------
solver_queue_depth = _gauge("pyramid_solver_queue_depth",
                            "Searches waiting for a search thread.")
solver_running = _gauge("pyramid_solver_searches_running", "Searches running right now.")
solver_searches = Counter(
    "pyramid_solver_searches", "Searches run, by kind (hint, analysis, par, verdict, "
    "winning_line) and outcome (done, error).", ("kind", "outcome"), registry=REGISTRY)
solver_search_duration = Histogram(
    "pyramid_solver_search_duration_seconds", "How long each search ran, by kind.",
    ("kind",), buckets=SEARCH_BUCKETS, registry=REGISTRY)
solver_refused = Counter(
    "pyramid_solver_refused", "Searches refused with 429: the player's previous one still "
    "running (player), the queue full (full), or the address's share of it taken (address).",
    ("reason",), registry=REGISTRY)
budget_refused = Counter(
    "pyramid_budget_refused", "Requests refused with 429 before any work, their player's or "
    "address's budget spent (app/web/core/budget.py): search, game or transfer.", ("kind",),
    registry=REGISTRY)
solver_node_limit_hits = Counter(
    "pyramid_solver_node_limit_hits", "Searches that stopped at their node limit without a "
    "verdict (answered 'can't tell yet'): solve, or analysis.", ("kind",), registry=REGISTRY)

# --- games ------------------------------------------------------------------------------------
games_started = Counter("pyramid_games_started", "Games started, by rule set (goal-passes).",
                        ("rules",), registry=REGISTRY)
games_finished = Counter(
    "pyramid_games_finished", "Games that ended in play, by rule set and outcome (won, lost).",
    ("rules", "outcome"), registry=REGISTRY)
games_abandoned = Counter("pyramid_games_abandoned",
                          "Games in progress left for another game (they count as played).",
                          registry=REGISTRY)
moves = Counter("pyramid_moves", "Moves played (each move of a batch counts).",
                registry=REGISTRY)
undos = Counter("pyramid_undos", "Moves taken back.", registry=REGISTRY)
offline_games_synced = Counter(
    "pyramid_offline_games_synced", "Games begun without network and stored when the browser "
    "came back (their first batch, marked offline).", registry=REGISTRY)

# --- the database -----------------------------------------------------------------------------
db_pool_in_use = _gauge("pyramid_db_pool_connections_in_use",
                        "Pooled database connections checked out by requests.")
db_pool_idle = _gauge("pyramid_db_pool_connections_idle",
                      "Pooled database connections open and waiting for a request.")
db_pool_size = _gauge("pyramid_db_pool_size", "The pool's size (more may be opened as "
                                             "overflow, up to its limit).")
db_errors = Counter(
    "pyramid_db_errors", "Requests answered 503 because the database could not answer, by the "
    "error's kind (OperationalError, TimeoutError: no pooled connection in time, ...).",
    ("kind",), registry=REGISTRY)

# --- imports and exports -----------------------------------------------------------------------
transfers = Counter(
    "pyramid_transfers", "Imports and exports run by the transfer worker process, by kind and "
    "outcome (done, failed), and refused with 429 before any work (refused).",
    ("kind", "outcome"), registry=REGISTRY)
transfer_duration = Histogram(
    "pyramid_transfer_duration_seconds", "How long an import or export took in the worker.",
    ("kind",), buckets=SEARCH_BUCKETS, registry=REGISTRY)
transfers_in_progress = _gauge("pyramid_transfers_in_progress",
                               "Imports and exports queued or running in the worker process.")


def rules_label(goal: Any, passes: int) -> str:
    """A rule set as a label: ``standard-3``, ``wholedeck-1``."""
    return f"{getattr(goal, 'value', goal)}-{passes}"


# --- sampled at scrape time (and every few seconds with several processes) -------------------
class PoolWatch:
    """The database pool's use, read from the engine when metrics are asked for: nothing is
    counted per request. The engine is the last app's (one per process outside the tests)."""

    def __init__(self) -> None:
        self.engine: Engine | None = None
        self.lock = threading.Lock()

    def watch(self, engine: Engine) -> None:
        self.engine = engine

    def sample(self) -> None:
        engine = self.engine
        pool = getattr(engine, "pool", None)
        if pool is None or not hasattr(pool, "checkedout"):
            return
        with self.lock:
            db_pool_in_use.set(pool.checkedout())
            db_pool_idle.set(pool.checkedin())
            db_pool_size.set(pool.size())


POOL = PoolWatch()
SAMPLE_EVERY = 5.0
"""Seconds between samples of the pool in each worker when there are several (a scrape reaches
one worker; the others' gauges are at most this old)."""


def sample_pool_now_and_then() -> asyncio.Future[None]:
    """With several workers, a task in this one that samples its pool every ``SAMPLE_EVERY``
    seconds (a scrape samples only the worker it reaches); with one, nothing (a done future).
    Cancel it when the app stops."""
    if not MULTIPROCESS_DIR:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        done.set_result(None)
        return done

    async def sample_forever() -> None:
        while True:
            POOL.sample()
            await asyncio.sleep(SAMPLE_EVERY)

    return asyncio.ensure_future(sample_forever())


# --- several processes ----------------------------------------------------------------------
LIVE_GAUGE_FILE = re.compile(r"^gauge_live\w*_(\d+)\.db$")


def forget_dead_processes(folder: str) -> None:
    """Mark the live gauges of processes that no longer exist as dead (a worker killed with
    SIGKILL never ran its shutdown), so their last values stop counting."""
    for path in Path(folder).glob("gauge_live*.db"):
        found = LIVE_GAUGE_FILE.match(path.name)
        if found and not Path(f"/proc/{found.group(1)}").exists():
            multiprocess.mark_process_dead(int(found.group(1)), folder)


def publish_build(build: dict[str, str]) -> None:
    """``pyramid_build_info`` for this process: ``build`` is ``app.version.build()``."""
    build_info.labels(build["version"], build["revision"], build["schema"]).set(1)


def process_ended() -> None:
    """This worker is ending: its gauges stop counting (its counters stay in the sums)."""
    if MULTIPROCESS_DIR:
        multiprocess.mark_process_dead(os.getpid(), MULTIPROCESS_DIR)


def exposition() -> bytes:
    """The metrics in Prometheus' text format: this process's, or every worker's summed."""
    POOL.sample()
    if not MULTIPROCESS_DIR:
        return generate_latest(REGISTRY)
    forget_dead_processes(MULTIPROCESS_DIR)
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, MULTIPROCESS_DIR)
    return generate_latest(registry)


# --- the endpoint ---------------------------------------------------------------------------
router = APIRouter(include_in_schema=False)


def refusal(request: Request) -> Response | None:
    """404 while no token is set; 401 without a bearer token; 403 with another one."""
    token: str | None = request.app.state.settings.metrics_token
    if not token:
        return PlainTextResponse("Not found.\n", status_code=404)
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not given.strip():
        return PlainTextResponse("A bearer token is needed.\n", status_code=401,
                                 headers={"WWW-Authenticate": 'Bearer realm="metrics"'})
    if not hmac.compare_digest(given.strip().encode(), token.encode()):
        return PlainTextResponse("Wrong token.\n", status_code=403)
    return None


@router.get("/metrics", name="metrics")
async def metrics_page(request: Request) -> Response:
    refused = refusal(request)
    if refused is not None:
        return refused
    # Off the event loop (reading every worker's files can take milliseconds), and off the
    # database's threads.
    body = await to_thread.run_sync(exposition)
    return Response(body, media_type=CONTENT_TYPE_LATEST, headers={"Cache-Control": "no-store"})

"""The ASGI app: ``uvicorn app.main:app`` (after ``python -m app.prestart`` has migrated).

``create_app`` builds an app for given settings, so tests can run one against their own
database; the module-level ``app`` uses the environment's settings.

The request guards of ``app.web.core.security`` wrap the app, outermost first: security headers
(around everything, Starlette's own 500 page included), the request's language (so every
answer below, refusals and the 500 page included, is in it), trusted hosts, body size, cross-site
writes, JSON-only API bodies, a costly request's budget, the player cookie, then (for a page)
the player's preferences.
The cheapest refusals come first, and every refusal happens before a player cookie could be
handed out.

``/healthz`` lives here, next to the database it checks, and ``/docs`` too: both belong to the
service rather than to the game's pages.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
from contextlib import asynccontextmanager
from html import escape

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp

from app.settings import PROJECT_DIR, Settings, get_settings
from app.store import Database
from app.store.clock import PauseRules, set_pause_rules
from app.store.db import DatabaseDamaged
from app.store.pace import PaceRules, set_pace_rules
from app.version import build, version
from app.web.core import assets, errors, metrics
from app.web.core.budget import Budget
from app.web.core.i18n import LanguageMiddleware
from app.web.core.i18n import gettext as _
from app.web.core.observe import Observe, flatten
from app.web.core.player import PlayerCookie
from app.web.core.security import (
    BodyLimit,
    CrossSiteGuard,
    JsonBodies,
    SendDeadline,
    TrustedHosts,
    security_headers,
)
from app.web.routes import (
    api,
    board,
    clock,
    daily,
    devices,
    odds,
    offline,
    pages,
    preferences_page,
    races,
    replay,
    stats,
)
from app.web.services import broadcast, gamesfile, racing
from app.web.services.transfer import Transfers
from app.web.views import handlers
from app.web.views.firstpaint import FirstPaint

log = logging.getLogger("pyramid.web")

SWAGGER_UI = "/static/vendor/swagger-ui-5.35.0"
"""Swagger UI, vendored from the npm package swagger-ui-dist (no CDN: /docs works offline)."""

HEALTH_TIMEOUT = 5.0
"""Seconds /healthz waits for ``SELECT 1`` before calling the database unavailable."""


GC_YOUNG_THRESHOLD = 5000
"""Container allocations between the collector's passes over young objects (Python's default
is 700, a pass every dozen requests or so). A request leaves little cyclic garbage, so rarer
passes cost less and free the same. Measured with bench/load.py (PostgreSQL, two processes,
100 players, four runs each, in pairs): server CPU per move median 2.94 ms against 3.15 ms
with 700, and move p99 median 31 against 35 ms. These are modest gains, within the
machine's noise."""


SWITCH_INTERVAL = 0.001
"""Seconds a thread may hold the GIL while another waits for it (Python's default is 0.005).
A request's thread, or the event loop with /healthz's answer, then waits at most a
millisecond behind a thread rendering a page. Measured with bench/crowd.py (PostgreSQL, two
processes, 40 hinters): /healthz p99 10.8-21.0 ms in five runs against 11.0-26.5 ms in three
at the default (docs/crowds.md)."""


class PyramidApp(FastAPI):
    """FastAPI, with the request's language (``LanguageMiddleware``) and the security headers
    around the whole middleware stack, and the request ids, metrics and access log
    (``Observe``) around those.

    Starlette puts its ServerErrorMiddleware (the 500 page) outside every ``add_middleware``
    layer, so a header middleware added the usual way would miss that one answer, and a
    language set the usual way would be gone when that page is written.
    """

    def build_middleware_stack(self) -> ASGIApp:
        return Observe(security_headers(LanguageMiddleware(super().build_middleware_stack()),
                                        self.state.settings),
                       lambda: self.router.routes)


class ImmutableFiles(StaticFiles):
    """Static files that never change at their address (``assets.url``)."""

    async def get_response(self, path: str, scope) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code == 200:
            response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
        return response


class HealthCheck:
    """``SELECT 1`` on the event loop itself (``Database.ping``), with a timeout.

    /healthz is what a load balancer or Docker asks when the app seems stuck; if it queued
    behind busy request threads it would report the app dead when it is only busy, so it
    takes no request thread, nor any thread at all: under a crowd each hop between threads
    waits for the GIL. Concurrent checks share one ping, so a hung database piles up nothing;
    past the timeout the answer is 503 while that ping goes on. A SQLite file found damaged is
    a 503 too, ``{"status": "damaged", "detail": <the file, what SQLite said, what to do>}``,
    until a backup is put back (``app.store.db``). A 200 names the build that answers
    (``app.version.build``: ``version``, ``revision``, ``schema``), so an upgrade can be
    followed app by app.
    """

    def __init__(self, database: Database, build: dict[str, str]) -> None:
        self.database = database
        self.build = build
        self.pending: asyncio.Future[None] | None = None

    async def __call__(self) -> JSONResponse:
        loop = asyncio.get_running_loop()
        if self.pending is None or self.pending.done() or self.pending.get_loop() is not loop:
            self.pending = asyncio.ensure_future(self.database.ping())
            # Its error is read here even when no check waits for it any more.
            self.pending.add_done_callback(lambda done: done.cancelled() or done.exception())
        try:
            await asyncio.wait_for(asyncio.shield(self.pending), HEALTH_TIMEOUT)
        except TimeoutError:
            return unavailable(f"the database did not answer within {HEALTH_TIMEOUT:g} s")
        except DatabaseDamaged as exc:  # logged once, when it was found; the reason is here
            return JSONResponse({"status": "damaged", "detail": str(exc)}, status_code=503)
        except Exception as exc:  # whatever the driver raises: report it, don't crash
            log.warning("Health check failed: %s", exc)
            return unavailable("the database is not answering")
        return JSONResponse({"status": "ok", **self.build})

    def close(self) -> None:
        if self.pending is not None and not self.pending.done():
            self.pending.cancel()
        self.pending = None  # the ping's connection goes with Database.dispose


def unavailable(detail: str) -> JSONResponse:
    return JSONResponse({"status": "unavailable", "detail": detail}, status_code=503)


def docs_page(title: str, openapi_url: str) -> str:
    """Swagger UI's page with its start-up code in static/js/swagger-init.js, so the
    Content-Security-Policy can forbid inline scripts (FastAPI's own page has one)."""
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<link rel="stylesheet" href="{SWAGGER_UI}/swagger-ui.css">
<link rel="icon" type="image/png" href="{SWAGGER_UI}/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui" data-openapi-url="{escape(openapi_url)}"></div>
<script src="{SWAGGER_UI}/swagger-ui-bundle.js"></script>
<script src="/static/js/swagger-init.js"></script>
</body>
</html>
"""


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    if settings.release:
        assets.name_release(settings.release)
    set_pause_rules(PauseRules(grace_seconds=settings.pause_grace_seconds,
                               limit_seconds=settings.pause_limit_minutes * 60))
    set_pace_rules(PaceRules(burst=settings.ranked_burst,
                             per_second=settings.ranked_moves_per_second))
    database = Database(settings.database_url)
    running = build()
    metrics.publish_build(running)
    health_check = HealthCheck(database, running)
    transfers = Transfers()
    metrics.POOL.watch(database.engine)
    # The races' hub reads through an engine of its own: its clock and its streams' reads
    # never take the requests' pooled connections (docs/races.md).
    hub = broadcast.install(Database(settings.database_url), settings, racing.tick)

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        # Everything loaded so far (modules, templates, tables) lives as long as the process:
        # moved out of the collector's sight, a full collection no longer walks it and pauses
        # a worker for ~85 ms (bench/load.py: move p99 at 100 players 90 -> 45 ms).
        gc.collect()
        gc.freeze()
        thresholds = gc.get_threshold()
        gc.set_threshold(GC_YOUNG_THRESHOLD, *thresholds[1:])
        switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_INTERVAL)
        sampling = metrics.sample_pool_now_and_then()
        await hub.start()
        yield
        await hub.stop()
        hub.database.dispose()
        sampling.cancel()
        metrics.process_ended()
        sys.setswitchinterval(switch_interval)
        gc.set_threshold(*thresholds)
        health_check.close()
        transfers.close()
        database.dispose()

    app = PyramidApp(
        title="Pyramid",
        summary="Pyramid Solitaire: the standard and whole-deck goals, with deal links.",
        version=version(),
        lifespan=lifespan,
        docs_url=None,  # served below from the vendored Swagger UI
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.db = database
    app.state.transfers = transfers
    app.state.hub = hub
    # add_middleware puts each layer outside the ones before it: innermost first.
    app.add_middleware(FirstPaint)  # the player's preferences, for a page's first paint
    app.add_middleware(PlayerCookie(settings).middleware)
    # Outside the cookie's session look-up and every route: refused before any work (it
    # reads the cookie's signed player itself).
    app.add_middleware(Budget, settings=settings, routes=lambda: flatten(app.router.routes))
    app.add_middleware(JsonBodies)
    app.add_middleware(CrossSiteGuard, base_url=settings.base_url)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes,
                       larger={"/stats/import": settings.import_max_bytes},
                       explained={"/stats/import": lambda: (
                           _("This file cannot be imported"),
                           gamesfile.too_large(settings.import_max_mb))},
                       seconds=settings.body_timeout_seconds)
    app.add_middleware(TrustedHosts, allowed_hosts=settings.trusted_hosts,
                       www_redirect=False)
    app.add_middleware(SendDeadline, seconds=settings.send_timeout_seconds)
    # The request's language is set around all of these (PyramidApp), before any answer is
    # written: a refusal, and the 500 page, speak it too.
    handlers.install(app)

    # Before the routers, so it wins over any older /healthz route among them.
    @app.get("/healthz", name="health", include_in_schema=False)
    async def health() -> JSONResponse:
        return await health_check()

    # The page's files next: a board asks for some fifty of them in a fresh browser, and
    # their paths (/static/, /assets/) begin no route's, so trying them first changes no
    # answer and spares each of them a walk through every route.
    app.mount("/static", StaticFiles(directory=PROJECT_DIR / "static"), name="static")
    # The same files under the release's own address: kept for a year by any cache (they
    # never change at that address), and by the service worker for play without network.
    app.mount(assets.PREFIX, ImmutableFiles(directory=assets.STATIC), name="assets")
    app.router.routes.extend(metrics.router.routes)

    # The API first: routes are tried in order, and the moves and reads under load are the
    # API's (no page path starts with /api/, so the order changes no answer).
    app.router.routes.extend(api.router.routes)
    app.router.routes.extend(races.api_router.routes)
    app.router.routes.extend(races.stream_router.routes)
    app.router.routes.extend(pages.router.routes)
    app.router.routes.extend(daily.router.routes)
    app.router.routes.extend(board.router.routes)
    app.router.routes.extend(stats.router.routes)
    app.router.routes.extend(replay.router.routes)
    app.router.routes.extend(odds.router.routes)
    app.router.routes.extend(clock.router.routes)
    app.router.routes.extend(devices.router.routes)
    app.router.routes.extend(preferences_page.router.routes)
    app.router.routes.extend(offline.router.routes)
    app.router.routes.extend(races.router.routes)
    errors.document(app)

    page = docs_page("Pyramid API", app.openapi_url or "/openapi.json")

    @app.get("/docs", include_in_schema=False)
    async def api_docs() -> HTMLResponse:
        return HTMLResponse(page)

    return app


app = create_app()

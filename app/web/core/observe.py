"""Every request, seen from outside the app: its id, its duration, and one access line.

``Observe`` is the outermost ASGI layer (``app.main`` puts it around the security headers), so
it sees every answer, the guards' refusals and Starlette's own 500 page included:

- **A request id.** Taken from ``X-Request-ID`` when it is one (1 to 128 letters, digits and
  ``._:-``: nginx sends its ``$request_id``), else made here; sent back in the answer's
  ``X-Request-ID`` and put on every log line written while the request is answered
  (``app.logs``), so one id ties the proxy's line, the app's lines and the client's report.
- **Metrics.** The duration, by route template, method and status class; requests in flight.
- **An access line** (logger ``pyramid.access``): method, path (a device link's secret taken
  out), route, status, duration, client, game id.
- **An error answered once.** Starlette raises an unforeseen error again after its 500 page,
  for the server to log; the app's handler has logged it already (``app.web.views.handlers``), so
  it ends here once the page is sent whole, and the connection is kept.

Its cost is a few microseconds a request (measured with bench/observe.py and bench/load.py:
docs/load.md).
"""

from __future__ import annotations

import logging
import re
import secrets
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from starlette.routing import BaseRoute, Match, Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.logs import CURRENT, RequestFields, loggable_path, was_answered
from app.web.core import metrics

access = logging.getLogger("pyramid.access")

REQUEST_ID = re.compile(rb"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")
"""An incoming X-Request-ID that may go into logs and answers as it is: bounded, no spaces,
quotes or control characters that could forge a log line or a header."""
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
UNMATCHED = "unmatched"
"""The route label of a request no route matches (a 404 for an unknown path): one label for
every such path, so a scan of made-up paths adds no series."""


def request_id_of(scope: Scope) -> str:
    """The request's id: the client's (the proxy's) X-Request-ID when it is a safe one."""
    for name, value in scope.get("headers", ()):
        if name == b"x-request-id":
            if REQUEST_ID.fullmatch(value):
                return value.decode("ascii")
            break
    return secrets.token_hex(16)


def flatten(routes: Sequence[BaseRoute]) -> Iterator[BaseRoute]:
    """The routes with a path template, out of the routers FastAPI includes them through
    (``include_router`` keeps each router whole, as a route of its own)."""
    for route in routes:
        inner = getattr(getattr(route, "original_router", None), "routes", None)
        if inner is not None:
            yield from flatten(inner)
        elif getattr(route, "path", None) is not None:
            yield route


class Observe:
    """Request ids, request metrics and the access log, around the whole app."""

    def __init__(self, app: ASGIApp, routes: Callable[[], Sequence[BaseRoute]]) -> None:
        self.app = app
        self.routes = routes
        self.series: dict[tuple[str, str, int], Any] = {}
        """Histogram children by (route, method, status class): ``labels()`` takes a lock
        and builds a key each time; a dictionary lookup is a tenth of that."""
        self.flat: list[BaseRoute] | None = None
        """Every route with a path, made at the first request not routed (after the app has
        all its routes)."""
        self.mounts: dict[int, str] = {}
        """The path of each mount (``/assets/<release>``, ``/static``), by its app's id."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()
        request_id = request_id_of(scope)
        header = (b"x-request-id", request_id.encode("ascii"))
        token = CURRENT.set(RequestFields(request_id, scope))
        status = 500  # what the client gets if the app ends without answering
        sent = False  # the whole answer

        async def stamped(message: Message) -> None:
            nonlocal status, sent
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), header]
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                sent = True
            await send(message)

        metrics.requests_in_flight.inc()
        try:
            await self.app(scope, receive, stamped)
        except Exception as exc:
            # An error the app has logged and answered whole (its 500 page) ends here: raised
            # on, the server would log it again and close the connection.
            if not (sent and was_answered(exc)):
                raise
        finally:
            metrics.requests_in_flight.dec()
            seconds = time.perf_counter() - began
            route = self.route_of(scope, status)
            method = scope["method"] if scope["method"] in METHODS else "other"
            key = (route, method, status // 100)
            series = self.series.get(key)
            if series is None:
                series = self.series[key] = metrics.request_duration.labels(
                    route, method, f"{status // 100}xx")
            series.observe(seconds)
            if access.isEnabledFor(logging.INFO):
                self.log(scope, route, status, seconds)
            CURRENT.reset(token)

    def route_of(self, scope: Scope, status: int) -> str:
        """The template of the route that answered; for an answer given before routing (a
        guard's refusal), the route the path would have reached."""
        route = scope.get("route")
        if route is not None:
            return getattr(route, "path", UNMATCHED)
        if status == 404:
            return UNMATCHED
        if self.flat is None:
            self.flat = list(flatten(self.routes()))
            self.mounts = {id(mount.app): mount.path for mount in self.flat
                           if isinstance(mount, Mount)}
        # A mount (the page's files) sets no route, only the app it handed the request to.
        mounted = self.mounts.get(id(scope.get("endpoint")))
        if mounted is not None:
            return mounted
        for candidate in self.flat:
            if candidate.matches(scope)[0] is not Match.NONE:
                return getattr(candidate, "path", UNMATCHED)
        return UNMATCHED

    @staticmethod
    def log(scope: Scope, route: str, status: int, seconds: float) -> None:
        path = loggable_path(scope.get("path", ""))
        client = scope.get("client")
        params = scope.get("path_params")
        # The record is made here rather than by access.info(): that would walk the stack to
        # find the caller, a third of the line's cost, for a file and line never logged.
        access.handle(access.makeRecord(
            access.name, logging.INFO, __file__, 0, "%s %s %d %.1f ms",
            (scope["method"], path, status, seconds * 1000), None, extra={
                "method": scope["method"], "path": path, "route": route, "status": status,
                "duration_ms": round(seconds * 1000, 2),
                "client": client[0] if client else None,
                "game_id": params.get("game_id") if params else None}))

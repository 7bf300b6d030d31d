"""One budget per client for every request that costs: solver searches, new games, imports and
exports. Answered before any route, database read or replay: a request over its budget gets
429 with ``Retry-After`` from a dictionary look-up: no database, no session, no template, no
engine.

- **By player and by address.** Each costly request spends from its player's bucket and from
  its address's (``scope["client"]``, as uvicorn set it: behind a proxy named in
  TRUSTED_PROXIES, the address the proxy saw). The player is what the cookie's signature
  vouches for, read here (``PlayerCookie.read_claim``: no database): a browser signed in
  through a device link spends from its own session's bucket, so whether that session still
  lives is asked (``PlayerCookie``, inside) only of a request that is let through, and a
  revoked browser's flood cannot spend its owner's budget. A client that drops its cookie is
  a new player each time, whose bucket is full by definition (none is kept for it), but never
  a new address: fresh cookies buy nothing. An address's budget is the
  shipped nginx's ``limit_req`` zone for the same requests, many players' worth, so the
  players behind one school's or one carrier's address are not held to one player's budget;
  behind nginx, nginx refuses first.
- **Token buckets.** A kind's budget is a rate and a burst (``Settings.budgets``), counted as
  nginx counts them: the burst is the requests past the rate allowed at once; an honest player
  never sees the limit.
- **In process memory.** A budget is not game state: a restart forgets it (a fresh budget for
  everyone), and each server process keeps its own. Behind the shipped nginx a player's
  requests all reach one app (its upstream hashes the player cookie), so that app's bucket is
  the player's whole budget; an address's is nginx's ``limit_req`` for the whole site.
  (Shared through the database instead, each costly request, and each refusal of a flood,
  would cost a write: docs/deploy.md has the figures.) Buckets that have filled up again are
  dropped, so the memory is bounded by the clients of the last minutes.

The request's client (``current_client``: its address, and the player ``PlayerCookie`` then
settles on) is also what the solver's queue reads to keep each
address's searches to a share of the queue, and to queue a cookie-less client's searches as
one line per address (``solving``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable

from starlette.requests import cookie_parser
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.settings import Settings
from app.web.core import metrics
from app.web.core.errors import MESSAGES, TITLES
from app.web.core.i18n import gettext as _
from app.web.core.player import PlayerCookie
from app.web.core.scope import Client, current_client
from app.web.core.security import refuse

COSTS: dict[str, str] = {
    # searches: the solver's work
    "api_hint": "search", "hint": "search", "deal_hint": "search", "daily_hint": "search",
    "api_analysis": "search", "analysis_page": "search", "deal_verdict": "search",
    # new games: every route that starts one
    "api_create": "game", "new_game": "game", "deal_start": "game", "deal_play": "game",
    "daily_start": "game", "daily_play": "game", "daily_again": "game", "restart": "game",
    "retry": "game",
    # races: making one, joining one, starting one or being ready (which may start it: its
    # games), a rematch (a new race)
    "api_race_create": "game", "race_create": "game", "api_race_join": "game",
    "race_join": "game", "api_race_start": "game", "race_start": "game",
    "api_race_ready": "game", "race_ready": "game",
    "api_race_rematch": "game", "race_rematch": "game",
    # transfers: seconds of a worker process each
    "import_games": "transfer", "export_csv": "transfer", "export_json": "transfer",
}
"""The requests that cost, by their route's name (as ``path_for`` names it), and the budget
each spends from. ``tests/web/test_budget.py`` fails when a route of the app is neither here,
in ``WHEN_ASKED``, nor known to cost nothing, and checks that the shipped nginx's zones
(``deploy/pyramid.conf.template``) count the same requests."""

WHEN_ASKED: dict[str, tuple[bytes, str]] = {"replay": (b"win_from=", "search")}
"""Routes that cost only with a query parameter: a replay asks the solver only for a winning
line (``?win_from=``); stepping through a replay reads the game's kept analysis."""

KEPT_BUCKETS = 100_000
"""Buckets kept per process before the full ones are swept out."""




class Costs:
    """The app's costly routes, found by name among its routes (``routes``: every route with
    a path, as ``observe.flatten`` gives them). A name in ``COSTS`` or ``WHEN_ASKED`` that the
    app does not have is an error here, at the first request: a renamed route never silently
    leaves its budget."""

    def __init__(self, routes: Iterable[BaseRoute]) -> None:
        by_name: dict[str, list[BaseRoute]] = {}
        for route in routes:
            by_name.setdefault(getattr(route, "name", ""), []).append(route)
        missing = sorted((set(COSTS) | set(WHEN_ASKED)) - set(by_name))
        if missing:
            raise LookupError(f"budgets name routes the app does not have: {missing}")
        self.routes: list[tuple[BaseRoute, str, bytes | None]] = [
            (route, kind, None) for name, kind in COSTS.items() for route in by_name[name]]
        self.routes += [(route, kind, asked) for name, (asked, kind) in WHEN_ASKED.items()
                        for route in by_name[name]]
        self.methods = frozenset(method for route, _kind, _asked in self.routes
                                 for method in getattr(route, "methods", None) or ())
        self.every_route = [route for routes_of_name in by_name.values()
                            for route in routes_of_name]

    def names_something(self, scope: Scope) -> bool:
        """Whether any route answers this request's path (whatever its method)."""
        return any(route.matches(scope)[0] is not Match.NONE for route in self.every_route)

    def of(self, scope: Scope) -> str | None:
        """The budget a request spends from, or None when it costs nothing worth counting."""
        if scope["method"] not in self.methods:
            return None
        for route, kind, asked in self.routes:
            if route.matches(scope)[0] is Match.FULL:
                if asked is None or asked in scope.get("query_string", b""):
                    return kind
                return None
        return None


class Buckets:
    """Token buckets by key: each holds up to ``burst`` tokens and gains ``rate`` a second."""

    def __init__(self, clock=time.monotonic) -> None:
        self.clock = clock
        self._tokens: dict[tuple, tuple[float, float, float]] = {}
        """key -> (tokens, when, when it is full again)."""

    def take(self, keys: list[tuple[tuple, float, int]]) -> int:
        """Take a token from each of ``keys`` ((key, rate, burst)) when every one has one:
        0; else nothing is taken, and the seconds until all of them would have one."""
        now = self.clock()
        levels = [self._level(key, rate, burst, now) for key, rate, burst in keys]
        short = [(1 - level) / rate
                 for level, (_key, rate, _burst) in zip(levels, keys, strict=True) if level < 1]
        if short:
            return max(1, math.ceil(max(short)))
        if len(self._tokens) >= KEPT_BUCKETS:
            self.sweep(now)
        for level, (key, rate, burst) in zip(levels, keys, strict=True):
            self._tokens[key] = (level - 1, now, now + (burst - level + 1) / rate)
        return 0

    def has(self, key: tuple, rate: float, burst: int) -> bool:
        """Whether ``key``'s bucket has a token now (none is taken)."""
        return self._level(key, rate, burst, self.clock()) >= 1

    def _level(self, key: tuple, rate: float, burst: int, now: float) -> float:
        """The tokens in ``key``'s bucket at ``now`` (a missing bucket is a full one)."""
        tokens, when, _full = self._tokens.get(key, (float(burst), now, now))
        return min(float(burst), tokens + (now - when) * rate)

    def sweep(self, now: float) -> None:
        """Drop the buckets that are full again (a missing bucket is a full one)."""
        for key in [key for key, (_tokens, _when, full) in self._tokens.items() if full <= now]:
            del self._tokens[key]

    def __len__(self) -> int:
        return len(self._tokens)


REFUSALS = {
    "search": lambda: _("Too many requests to the solver from here: wait a moment, then ask "
                        "again."),
    "game": lambda: _("Too many new games started from here: wait a moment, then start "
                      "another."),
    "transfer": lambda: _("Too many imports and exports from here: wait a moment, then try "
                          "again."),
}
"""What a refused player reads, by kind (in the request's language)."""


def cookie_of(scope: Scope, name: str) -> str | None:
    """The value of the request's cookie ``name``, or None."""
    for header, value in scope["headers"]:
        if header == b"cookie":
            found = cookie_parser(value.decode("latin-1")).get(name)
            if found is not None:
                return found
    return None


class Budget:
    """The ASGI middleware that spends a costly request's budget, or refuses it with 429.
    Outside ``PlayerCookie``: it reads the cookie's claim itself (a signature, no database),
    so a refusal never waits for a device session's look-up."""

    def __init__(self, app: ASGIApp, settings: Settings,
                 routes: Callable[[], Iterable[BaseRoute]], clock=time.monotonic) -> None:
        self.app = app
        self.routes = routes
        self.costs: Costs | None = None
        """Made at the first request, once the app has all its routes."""
        self.budgets = settings.budgets
        self.not_found = (settings.address_not_found_per_second,
                          settings.address_not_found_burst)
        self.buckets = Buckets(clock)
        self.cookies = PlayerCookie(settings)
        self.cookie_name = settings.cookie_name

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = client[0] if client else "unknown"
        if self.costs is None:
            self.costs = Costs(self.routes())
        kind = self.costs.of(scope)
        if kind is not None:
            (rate, burst), (address_rate, address_burst) = self.budgets[kind]
            # A burst is the requests past the rate, as nginx's limit_req counts it.
            keys: list[tuple[tuple[str | None, ...], float, int]] = [
                ((kind, "address", address), address_rate, address_burst + 1)]
            claim = self.cookies.read_claim(cookie_of(scope, self.cookie_name))
            if claim is not None:  # a new player's bucket is full: nothing to keep
                keys.append(((kind, "player", claim.player_id, claim.session_id), rate,
                             burst + 1))
            wait = self.buckets.take(keys)
            if wait:
                metrics.budget_refused.labels(kind).inc()
                await refuse(scope, send, 429, _("Too many requests"), REFUSALS[kind](),
                             headers=[(b"retry-after", str(wait).encode())])
                return
        # 404 pages: an address drawn too many of them lately (a scanner's flood) gets a short
        # 404 for an address that names nothing, before any route or template.
        lost = ("not_found", address)
        lost_rate, lost_burst = self.not_found
        if not self.buckets.has(lost, lost_rate, lost_burst + 1) and not (
                self.costs.names_something(scope)):
            await refuse(scope, send, 404, _(TITLES[404]), _(MESSAGES[404]))
            return

        async def counted(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 404:
                self.buckets.take([(lost, lost_rate, lost_burst + 1)])
            await send(message)

        token = current_client.set(Client(address, scope.setdefault("state", {})))
        try:
            await self.app(scope, receive, counted)
        finally:
            current_client.reset(token)

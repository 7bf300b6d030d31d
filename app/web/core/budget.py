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
  everyone), and each server process keeps its own (behind nginx's ``limit_req`` for the
  whole site). Buckets that have filled up again are dropped, so the memory is bounded by the
  clients of the last minutes.

The request's client (``current_client``: its address, and the player ``PlayerCookie`` then
settles on) is also what the solver's queue reads to keep each
address's searches to a share of the queue, and to queue a cookie-less client's searches as
one line per address (``solving``).
"""

from __future__ import annotations

import math
import re
import time
from contextvars import ContextVar

from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Receive, Scope, Send

from app.settings import Settings
from app.web.core import metrics
from app.web.core.i18n import gettext as _
from app.web.core.player import PlayerCookie
from app.web.core.scope import route_path
from app.web.core.security import refuse

GAME = r"[^/]+"
COSTS: tuple[tuple[str, re.Pattern[str], str], ...] = tuple(
    (method, re.compile(pattern), kind) for method, pattern, kind in (
        ("POST", rf"/api/games/{GAME}/hint", "search"),
        ("POST", rf"/games/{GAME}/hint", "search"),
        ("POST", rf"/deal/{GAME}/hint", "search"),
        ("POST", r"/daily/hint", "search"),
        ("GET", rf"/api/games/{GAME}/analysis", "search"),
        ("GET", rf"/games/{GAME}/analysis", "search"),
        ("GET", rf"/api/deals/{GAME}/verdict", "search"),
        ("POST", r"/api/games", "game"),
        ("POST", r"/games", "game"),
        ("POST", rf"/deal/{GAME}", "game"),
        ("POST", rf"/deal/{GAME}/play", "game"),
        ("POST", r"/daily", "game"),
        ("POST", r"/daily/play", "game"),
        ("POST", r"/daily/again", "game"),
        ("POST", rf"/games/{GAME}/restart", "game"),
        ("POST", rf"/games/{GAME}/retry", "game"),
        ("POST", r"/stats/import", "transfer"),
        ("GET", r"/stats/export\.(csv|json)", "transfer"),
    ))
"""The requests that cost, by method and route path, and the budget each spends from. A
replay costs a search only when it asks for a winning line (``?win_from=``): stepping through
a replay reads the game's kept analysis."""

KEPT_BUCKETS = 100_000
"""Buckets kept per process before the full ones are swept out."""


class Client:
    """Who a request comes from: its address, its player, and whether it came without a
    (valid) player cookie. The player is read from the request's state when asked:
    ``PlayerCookie``, inside ``Budget``, settles it (a revoked session's browser is a new
    player)."""

    __slots__ = ("_state", "address")

    def __init__(self, address: str, state: dict) -> None:
        self.address = address
        self._state = state

    @property
    def player_id(self) -> str:
        return self._state.get("player_id", "")

    @property
    def new_player(self) -> bool:
        return bool(self._state.get("new_player", True))


current_client: ContextVar[Client | None] = ContextVar("pyramid_client", default=None)
"""The client of the request being answered (set by ``Budget``, for the solver's queue)."""


def cost_of(method: str, path: str, query: bytes) -> str | None:
    """The budget a request spends from, or None when it costs nothing worth counting."""
    if method == "GET" and path.startswith("/games/") and path.endswith("/replay"):
        return "search" if b"win_from=" in query else None
    for costly_method, pattern, kind in COSTS:
        if method == costly_method and pattern.fullmatch(path):
            return kind
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
        levels = []
        for key, rate, burst in keys:
            tokens, when, _full = self._tokens.get(key, (float(burst), now, now))
            levels.append(min(float(burst), tokens + (now - when) * rate))
        short = [(1 - level) / rate
                 for level, (_key, rate, _burst) in zip(levels, keys, strict=True) if level < 1]
        if short:
            return max(1, math.ceil(max(short)))
        if len(self._tokens) >= KEPT_BUCKETS:
            self.sweep(now)
        for level, (key, rate, burst) in zip(levels, keys, strict=True):
            self._tokens[key] = (level - 1, now, now + (burst - level + 1) / rate)
        return 0

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

    def __init__(self, app: ASGIApp, settings: Settings, clock=time.monotonic) -> None:
        self.app = app
        self.budgets = settings.budgets
        self.buckets = Buckets(clock)
        self.cookies = PlayerCookie(settings)
        self.cookie_name = settings.cookie_name

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = client[0] if client else "unknown"
        kind = cost_of(scope["method"], route_path(scope), scope.get("query_string", b""))
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
        token = current_client.set(Client(address, scope.setdefault("state", {})))
        try:
            await self.app(scope, receive, send)
        finally:
            current_client.reset(token)

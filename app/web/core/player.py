"""The anonymous player id: a random id in a signed, HttpOnly, SameSite=Lax cookie.

A game belongs to the id that started it. The signature (itsdangerous, keyed by SECRET_KEY)
means a browser cannot claim someone else's id by editing its cookie.

A browser signed in through a device link (``app.web.routes.devices``) gets a cookie that names its
session too (``[player id, session id]``): it is accepted only while that session lives
(``app.store.session_alive``, read on every request that carries one), so the owner who ends
the session signs that browser out at once; it then plays as a new player. The browser that
started the player keeps its plain cookie (the player id alone): it is the owner.

A new cookie is handed out on reads (any page view), never in answer to a write that came
without one: a browser that posts without a cookie was not sent here by one of our pages
(or refuses cookies), and a refused write must not leave a fresh identity behind in it.
``POST /api/games`` is the one exception, so a JSON client can start with its first game,
and then only when the game was created.

The middleware is plain ASGI rather than Starlette's ``BaseHTTPMiddleware``: that one runs
the app in a task group, which wraps any exception raised while a route reads its body (such
as the body-size limit's 413) in an ExceptionGroup that the app's handlers no longer see.
"""

from __future__ import annotations

import uuid
from typing import NamedTuple

from fastapi import Request, Response
from itsdangerous import BadSignature, URLSafeSerializer
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.settings import Settings
from app.store import Database, session_alive
from app.web.core.errors import DATABASE_ERRORS
from app.web.core.scope import STATE_CHANGING, route_path
from app.web.core.threads import in_thread

SALT = "pyramid.player-id"
FIRST_COOKIE_WRITES = frozenset({("POST", "/api/games")})
"""Writes that may hand out a first cookie (when they succeed)."""


class Claim(NamedTuple):
    """What a valid cookie says: the player, and the device session it belongs to (None for
    the owner's plain cookie)."""

    player_id: str
    session_id: str | None


class PlayerCookie:
    """Signs and reads the player cookie."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.serializer = URLSafeSerializer(settings.secret_key, salt=SALT)

    def sign(self, player_id: str, session_id: str | None = None) -> str:
        return self.serializer.dumps([player_id, session_id] if session_id else player_id)

    def read(self, token: str | None) -> str | None:
        """The player id in ``token``, or None when it is missing, forged or malformed (its
        session, if it names one, unchecked: see ``read_claim`` and the middleware)."""
        claim = self.read_claim(token)
        return claim.player_id if claim is not None else None

    def read_claim(self, token: str | None) -> Claim | None:
        """What ``token`` claims, or None when it is missing, forged or malformed."""
        if not token:
            return None
        try:
            value = self.serializer.loads(token)
        except BadSignature:
            return None
        if isinstance(value, str):
            return Claim(value, None) if _id(value) else None
        if (isinstance(value, list) and len(value) == 2 and _id(value[0])
                and _id(value[1])):
            return Claim(value[0], value[1])
        return None

    def attach(self, response: Response, player_id: str, session_id: str | None = None) -> None:
        response.set_cookie(
            self.settings.cookie_name,
            self.sign(player_id, session_id),
            max_age=self.settings.cookie_max_age_days * 86400,
            path="/",
            httponly=True,
            samesite="lax",
            secure=self.settings.cookie_secure,
        )

    def set_cookie_header(self, player_id: str) -> tuple[bytes, bytes]:
        """The ``Set-Cookie`` header ``attach`` would add, as an ASGI header pair."""
        carrier = Response()
        self.attach(carrier, player_id)
        return next((name, value) for name, value in carrier.raw_headers
                    if name == b"set-cookie")

    def middleware(self, app: ASGIApp) -> ASGIApp:
        """An ASGI middleware giving every request a player id (``request.state.player_id``),
        and setting the cookie when the browser had none and ``may_hand_out`` allows it."""

        async def with_player(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != "http":
                await app(scope, receive, send)
                return
            request = Request(scope)
            claim = self.read_claim(request.cookies.get(self.settings.cookie_name))
            if claim is not None and claim.session_id is not None and not await in_thread(
                    still_signed_in, scope["app"].state.db, claim):
                claim = None  # its session was ended: a new player from now on
            player_id = claim.player_id if claim is not None else None
            fresh = player_id is None
            player_id = player_id or uuid.uuid4().hex
            request.state.player_id = player_id  # kept in scope["state"] for the routes
            request.state.new_player = fresh

            async def send_with_cookie(message: Message) -> None:
                if (fresh and message["type"] == "http.response.start"
                        and may_hand_out(scope["method"], route_path(scope), message["status"])):
                    message["headers"] = [*message.get("headers", []),
                                          self.set_cookie_header(player_id)]
                await send(message)

            await app(scope, receive, send_with_cookie)

        return with_player


def _id(value: object) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 64


def still_signed_in(database: Database, claim: Claim) -> bool:
    """Whether the device session a cookie names still lives (on a worker thread). When the
    database cannot answer, the cookie stands: the route answers the outage itself (503), and
    taking the browser's identity away for it would lose it for good."""
    if claim.session_id is None:  # a cookie of no device session: nothing to look up
        return True
    try:
        with database.sessions() as session:
            alive = session_alive(session, claim.session_id, claim.player_id)
            session.commit()
    except DATABASE_ERRORS:
        return True
    return alive


def may_hand_out(method: str, path: str, status: int) -> bool:
    """Whether a request without a valid cookie gets a new one with this answer."""
    if method not in STATE_CHANGING:
        return True
    return (method, path) in FIRST_COOKIE_WRITES and status < 400

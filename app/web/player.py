"""The anonymous player id: a random id in a signed, HttpOnly, SameSite=Lax cookie.

A game belongs to the id that started it. The signature (itsdangerous, keyed by SECRET_KEY)
means a browser cannot claim someone else's id by editing its cookie.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable

from fastapi import Request, Response
from itsdangerous import BadSignature, URLSafeSerializer

from app.settings import Settings

SALT = "pyramid.player-id"


class PlayerCookie:
    """Signs and reads the player cookie."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.serializer = URLSafeSerializer(settings.secret_key, salt=SALT)

    def sign(self, player_id: str) -> str:
        return self.serializer.dumps(player_id)

    def read(self, token: str | None) -> str | None:
        """The player id in ``token``, or None when it is missing, forged or malformed."""
        if not token:
            return None
        try:
            value = self.serializer.loads(token)
        except BadSignature:
            return None
        return value if isinstance(value, str) and 0 < len(value) <= 64 else None

    def attach(self, response: Response, player_id: str) -> None:
        response.set_cookie(
            self.settings.cookie_name,
            self.sign(player_id),
            max_age=self.settings.cookie_max_age_days * 86400,
            path="/",
            httponly=True,
            samesite="lax",
            secure=self.settings.cookie_secure,
        )

    async def middleware(
        self, request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        """Give every request a player id; set the cookie when the browser had none."""
        player_id = self.read(request.cookies.get(self.settings.cookie_name))
        fresh = player_id is None
        request.state.player_id = player_id or uuid.uuid4().hex
        response = await call_next(request)
        if fresh:
            self.attach(response, request.state.player_id)
        return response

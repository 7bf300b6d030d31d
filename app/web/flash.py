"""A one-time message carried across a redirect: the no-JavaScript board's live region.

Without JavaScript every board form ends in POST -> 303 -> GET /games/{id}. What the move
did ("Removed 5♥ and 8♣.", "7♥ + 5♣ = 12, not 13.", a hint) rides along in a short-lived
signed cookie, shown once in the aria-live region of the board it belongs to, then deleted.
Signed (itsdangerous, keyed by SECRET_KEY) so a page never shows text a third party wrote.
"""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request, Response
from itsdangerous import BadSignature, URLSafeTimedSerializer

COOKIE = "pyramid_flash"
SALT = "pyramid.flash"
MAX_AGE = 60  # seconds: long enough for the redirect, short enough never to show stale


@dataclass(frozen=True, slots=True)
class Flash:
    message: str
    tone: str = "info"  # "info" or "error" (a refused move)
    cards: tuple[str, ...] = ()  # cards to highlight (a hint)
    action: str | None = None  # a control to highlight (a hint to draw or recycle)
    refused: tuple[str, ...] = ()  # cards of a refused move, shown shaking


def _serializer(request: Request) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(request.app.state.settings.secret_key, salt=SALT)


def _path(game_id: str) -> str:
    return f"/games/{game_id}"


def put(request: Request, response: Response, game_id: str, flash: Flash) -> None:
    """Attach ``flash`` to a redirect towards the board of ``game_id``."""
    token = _serializer(request).dumps(
        {"g": game_id, "m": flash.message[:500], "t": flash.tone, "c": list(flash.cards),
         "a": flash.action, "r": list(flash.refused)})
    response.set_cookie(COOKIE, token, max_age=MAX_AGE, path=_path(game_id), httponly=True,
                        samesite="lax", secure=request.app.state.settings.cookie_secure)


def take(request: Request, game_id: str) -> Flash | None:
    """The flash for this board, if a valid one came with the request (see ``clear``)."""
    token = request.cookies.get(COOKIE)
    if not token:
        return None
    try:
        data = _serializer(request).loads(token, max_age=MAX_AGE)
    except BadSignature:
        return None
    if not isinstance(data, dict) or data.get("g") != game_id:
        return None
    cards = data.get("c") or []
    refused = data.get("r") or []
    return Flash(message=str(data.get("m", "")), tone=str(data.get("t", "info")),
                 cards=tuple(str(c) for c in cards if isinstance(c, str)),
                 refused=tuple(str(c) for c in refused if isinstance(c, str)),
                 action=data.get("a") if isinstance(data.get("a"), str) else None)


def clear(request: Request, response: Response, game_id: str) -> None:
    """Delete the flash once shown, so a reload does not announce it again."""
    if COOKIE in request.cookies:
        response.delete_cookie(COOKIE, path=_path(game_id), httponly=True, samesite="lax",
                               secure=request.app.state.settings.cookie_secure)

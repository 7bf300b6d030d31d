"""What an answer about the board tells the player: one ``Notice``, however it travels.

With JavaScript a notice is drawn into the board's live region at once. Without it every
board form ends in POST -> 303 -> GET /games/{id}, and the notice rides along in a short-lived
signed cookie (``put``), shown once in the same live region of the board it belongs to
(``take``), then deleted (``clear``). Signed (itsdangerous, keyed by SECRET_KEY) so a page never
shows text a third party wrote.
"""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request, Response
from itsdangerous import BadSignature, URLSafeTimedSerializer

from app.store import GameRecord, LoadedGame

COOKIE = "pyramid_flash"
SALT = "pyramid.flash"
MAX_AGE = 60  # seconds: long enough for the redirect, short enough never to show stale
LONGEST = 500  # characters of a message carried in the cookie


@dataclass(frozen=True, slots=True)
class Notice:
    """A message for the live region, and the cards it concerns (by name)."""

    message: str = ""
    refused: bool = False
    """A refused input: said in the error tone, its cards shake."""
    selected: str | None = None
    """The card now selected (the board's form carries it; a redirect puts it in the URL)."""
    removed: tuple[str, ...] = ()
    """Cards the move removed: drawn once more where they were, fading out."""
    refused_cards: tuple[str, ...] = ()
    hinted: tuple[str, ...] = ()
    """Cards a hint points at; or ``hinted_action``, the control it points at."""
    hinted_action: str | None = None

    @property
    def tone(self) -> str:
        return "error" if self.refused else "info"


NOTHING_TO_SAY = Notice()


@dataclass(frozen=True, slots=True)
class Answer:
    """What a board input came to (``services.board``), for the route to send
    (``views.boardpage.answer``): the game to show, stored or a deal page's not stored yet,
    what to tell the player, and the status for the board's script and htmx (a refused batch
    is 422)."""

    loaded: LoadedGame
    said: Notice = NOTHING_TO_SAY
    status_code: int = 200
    page: bool = False
    """The board itself whoever asked (a version conflict, a deal page's first batch), never
    the 303 back to the board that a plain form gets otherwise."""
    started: bool = False
    """This input stored the game (a deal page's first): the page moves to the game's own
    address."""


@dataclass(frozen=True, slots=True)
class AskFirst:
    """Starting a game would abandon ``current``, the player's game in progress with moves,
    which they have not agreed to leave: the question comes first (``confirm.html``)."""

    current: GameRecord


def _serializer(request: Request) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(request.app.state.settings.secret_key, salt=SALT)


def _cookie_path(request: Request, game_id: str) -> str:
    return str(request.app.url_path_for("board", game_id=game_id))


def put(request: Request, response: Response, game_id: str, notice: Notice) -> None:
    """Attach ``notice`` to a redirect towards the board of ``game_id`` (what the board draws
    from it: the selection travels in the URL, and nothing fades on a page load)."""
    token = _serializer(request).dumps(
        {"g": game_id, "m": notice.message[:LONGEST], "t": notice.tone,
         "c": list(notice.hinted), "a": notice.hinted_action, "r": list(notice.refused_cards)})
    response.set_cookie(COOKIE, token, max_age=MAX_AGE, path=_cookie_path(request, game_id),
                        httponly=True, samesite="lax",
                        secure=request.app.state.settings.cookie_secure)


def _names(value: object) -> tuple[str, ...]:
    return tuple(item for item in value if isinstance(item, str)) if isinstance(
        value, list) else ()


def take(request: Request, game_id: str) -> Notice | None:
    """The notice for this board, if a valid one came with the request (see ``clear``)."""
    token = request.cookies.get(COOKIE)
    if not token:
        return None
    try:
        data = _serializer(request).loads(token, max_age=MAX_AGE)
    except BadSignature:
        return None
    if not isinstance(data, dict) or data.get("g") != game_id:
        return None
    action = data.get("a")
    return Notice(message=str(data.get("m", "")), refused=data.get("t") == "error",
                  hinted=_names(data.get("c")), refused_cards=_names(data.get("r")),
                  hinted_action=action if isinstance(action, str) else None)


def clear(request: Request, response: Response, game_id: str) -> None:
    """Delete the notice's cookie once shown, so a reload does not announce it again."""
    if COOKIE in request.cookies:
        response.delete_cookie(COOKIE, path=_cookie_path(request, game_id), httponly=True,
                               samesite="lax", secure=request.app.state.settings.cookie_secure)

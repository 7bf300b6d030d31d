"""What a request is, read from its ASGI scope alone: its path within the app, whether it is
one for the JSON API, whether its method may change anything; and who it comes from
(``current_client``, which the budget sets).

One answer to each question for the whole web layer: the guards (``security``), the player
cookie (``player``) and the error answers (``errors``, ``handlers``, ``deps``) all import it
from here. It imports nothing of the web layer, so any of them may.
"""

from __future__ import annotations

from contextvars import ContextVar

from starlette.types import Scope

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""The methods that may change something: a cross-site one is refused (``security``), and one
sent without a player cookie is not handed a new one (``player``)."""

API_PREFIX = "/api/"
"""Every route of the JSON API is under this path; its answers, errors included, are JSON."""


def route_path(scope: Scope) -> str:
    """The request's path within the app: without the ``root_path`` a proxy mounted it under."""
    path: str = scope.get("path", "")
    root = scope.get("root_path", "")
    return path[len(root):] if root and path.startswith(root) else path


def is_api(scope: Scope) -> bool:
    """Whether the request is for the JSON API (``request.scope`` for a ``Request``)."""
    return route_path(scope).startswith(API_PREFIX)


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
"""The client of the request being answered (set by ``budget.Budget``, for the solver's
queue and ``witness``)."""

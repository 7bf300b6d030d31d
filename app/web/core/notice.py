"""What an answer about the board tells the player: one ``Notice``, however it travels.

With JavaScript a notice is drawn into the board's live region at once. Without it every
board form ends in POST -> 303 -> GET /games/{id}, and the notice rides along in a short-lived
signed cookie, shown once in the same live region of the board it belongs to
(``views.boardpage.put_notice``, ``take_notice``, ``clear_notice``).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.store import GameRecord, LoadedGame


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

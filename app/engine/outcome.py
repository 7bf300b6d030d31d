"""How a game ends, and where a game stands: the words for both live here and only here.

The engine decides won and lost (``Outcome``, RULES.md's game-over checks); a game can also be
*abandoned*, left by its player for another game, which only a stored game can be. All four
are a ``GameStatus``; an ended status is final. ``game_over`` is the one refusal of a move on
an ended game (a ``Refusal``: its status and termination; the English here is for logs and
the CLI, the player reads the catalogs' words for the same termination).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum

from .refusals import ENDED, Code, Refusal


class Termination(Enum):
    """Why a game ended; the first two are wins."""

    PYRAMID_CLEARED = "pyramid_cleared"
    DECK_CLEARED = "deck_cleared"
    NO_MOVES = "no_moves"
    PYRAMID_STUCK = "pyramid_stuck"
    DECK_STUCK = "deck_stuck"


REASONS = {termination: ENDED[termination.value] for termination in Termination}
"""RULES.md's reason for each ending, in English (for logs and the CLI; a player reads the
catalogs' words for the same termination)."""

ABANDONED_REASON = ENDED["abandoned"]


class GameStatus(StrEnum):
    """Where a game stands: still being played, or ended (won, lost or abandoned) for good."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"
    ABANDONED = "abandoned"

    @property
    def ended(self) -> bool:
        return self is not GameStatus.PLAYING


@dataclass(frozen=True, slots=True)
class Outcome:
    termination: Termination

    @property
    def won(self) -> bool:
        return self.termination in (Termination.PYRAMID_CLEARED, Termination.DECK_CLEARED)

    @property
    def status(self) -> GameStatus:
        """``GameStatus.WON`` or ``GameStatus.LOST``."""
        return GameStatus.WON if self.won else GameStatus.LOST

    @property
    def reason(self) -> str:
        return REASONS[self.termination]


def ended_reason(status: GameStatus, outcome: Outcome | None) -> str | None:
    """Why a game ended, in a sentence (None while it is played): RULES.md's reason for a win
    or a loss, or that its player left it."""
    if status is GameStatus.ABANDONED:
        return ABANDONED_REASON
    return outcome.reason if outcome is not None else None


def game_over(status: GameStatus, outcome: Outcome | None = None) -> Refusal:
    """The refusal of anything on an ended game: ``game_over(status, termination)``, the
    termination None when it is not known or the game was abandoned (English: ``The game is
    over: <why> Its result is final.``)."""
    termination = (outcome.termination.value
                   if outcome is not None and status is not GameStatus.ABANDONED else None)
    return Refusal(Code.GAME_OVER, {"status": GameStatus(status).value,
                                    "termination": termination})

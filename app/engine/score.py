"""The score: points a player can beat, from what the game shows (the rules page says them).

Modelled on Microsoft Solitaire Collection's Pyramid, whose points are known from its own
screens (and mchung94/solitaire-player's score-challenge solver): 5 points a removal (a pair
or a King), and a bonus for each pyramid row cleared, 25 for the bottom row up to 500 for the
top card. Where ours differs, and why:

- the whole-deck goal's last cards (stock and waste cleared too) earn 500 more: that goal is
  harder and Microsoft's game has no such goal;
- a win earns a time bonus, one point a second under ten minutes, so a faster win of the same
  deal scores more (Microsoft's time bonus is not published; ours is this plain line);
- a hint costs 25 and an undo 10, so that a win found alone scores more than one shown.

The score never goes below 0. It depends on the position (the removals made and the rows
cleared) and on three facts outside the engine, given by the caller: hints, undos and the
seconds a win took. It is a pure function, so the board's live score, the end screen and the
stored result cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from .game import Game
from .moves import Op
from .outcome import Termination

POINTS_PER_REMOVAL = 5
ROW_BONUS = (500, 250, 150, 100, 75, 50, 25)
"""Points for clearing each pyramid row, from the top card (row 1) to the bottom row (7)."""
WHOLE_DECK_BONUS = 500
TIME_BONUS_SECONDS = 600
"""A win earns a point for each second it took less than this (ten minutes)."""
HINT_COST = 25
UNDO_COST = 10

ROWS = tuple(range(row * (row + 1) // 2, (row + 1) * (row + 2) // 2) for row in range(7))
"""The pyramid's positions, row by row from the top."""


@dataclass(frozen=True, slots=True)
class Score:
    """A score and what it is made of, as the end screen lists it."""

    removals: int
    rows: int
    whole_deck: int
    time_bonus: int
    hints: int
    undos: int

    @property
    def total(self) -> int:
        earned = self.removals + self.rows + self.whole_deck + self.time_bonus
        return max(0, earned - self.hints - self.undos)

    def __int__(self) -> int:
        return self.total


def rows_cleared(game: Game) -> list[int]:
    """The rows (1 = the top card, 7 = the bottom row) with no card left."""
    return [number for number, row in enumerate(ROWS, start=1)
            if all(game.pyramid[i] is None for i in row)]


def score(game: Game, *, hints: int = 0, undos: int = 0, seconds: int | None = None) -> Score:
    """The score of ``game`` as it stands. ``seconds`` is how long a won game took (the time
    bonus needs it; None gives no bonus, as while the game goes on)."""
    removals = sum(move.op is Op.REMOVE for move in game.moves)
    outcome = game.outcome()
    won = outcome is not None and outcome.won
    deck_cleared = outcome is not None and outcome.termination is Termination.DECK_CLEARED
    return Score(
        removals=POINTS_PER_REMOVAL * removals,
        rows=sum(ROW_BONUS[number - 1] for number in rows_cleared(game)),
        whole_deck=WHOLE_DECK_BONUS if deck_cleared else 0,
        time_bonus=max(0, TIME_BONUS_SECONDS - seconds) if won and seconds is not None else 0,
        hints=HINT_COST * max(0, hints),
        undos=UNDO_COST * max(0, undos),
    )

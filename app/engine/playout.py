"""Random playouts: how often does aimless play win from a position?

A playout plays uniformly random legal moves (each of ``Game.legal_moves`` with the same
chance) until the game is over, by the game's own rules and its own end (``Game.outcome``).
The share of playouts that win is one of a deal's difficulty measures
(``app.odds.difficulty``): a deal that random moves often win is forgiving.

``random_playout`` plays one game on ``Game`` itself, in Python: the reference.
``playouts`` plays many in C (``_playout.c``: some 5 us a game against 0.5 ms), from one
SplitMix64 stream seeded with ``seed``, so the same seed gives the same games on every machine;
it counts the wins and the cards the goal still needed at the ends (how far aimless play gets,
which tells deals apart even where it never wins).
``playout_lines`` also hands back each game's moves, which the tests replay through
``Game.play``: the C playouts play only legal moves and end where ``Game`` ends.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from . import _solver
from .game import Game
from .moves import Move
from .solver import _decode, _talon
from .variant import Goal

RawLine = tuple[bool, list[tuple[int, int, int]]]
"""A game as the C playouts record it: won, and its moves as (op, location, location)."""


def random_playout(game: Game, rng: random.Random) -> bool:
    """Play random legal moves from the game's position (on a copy) until it is over; True
    when the game is won."""
    game = game.copy()
    while not game.is_over():
        game.play(rng.choice(game.legal_moves))
    outcome = game.outcome()
    assert outcome is not None
    return outcome.won


@dataclass(frozen=True, slots=True)
class Playouts:
    """What ``count`` random playouts from a position came to."""

    count: int
    wins: int
    cards_left: int
    """The cards the goal still needed at the ends of the games, summed (0 for a won game)."""

    @property
    def win_share(self) -> float:
        return self.wins / self.count if self.count else 0.0

    @property
    def mean_left(self) -> float:
        return self.cards_left / self.count if self.count else 0.0


def _run(game: Game, count: int, seed: int, record: bool
         ) -> tuple[int, int, list[RawLine] | None]:
    if count < 0:
        raise ValueError(f"count must be at least 0, not {count}")
    talon = _talon(game)
    return _solver.playouts(
        bytes(card.rank if card else 0 for card in game.pyramid),
        bytes(card.rank for card in talon),
        len(game.waste),
        game.pass_number - 1,
        game.passes,
        int(game.goal is Goal.WHOLE_DECK),
        count,
        seed % 2**64,
        record=record,
    )


def playouts(game: Game, count: int, seed: int = 0) -> Playouts:
    """``count`` random playouts from the game's position (in C, seeded): how many win, and
    how many cards they left."""
    wins, left, _ = _run(game, count, seed, False)
    return Playouts(count, wins, left)


def playout_wins(game: Game, count: int, seed: int = 0) -> int:
    """How many of ``count`` random playouts from the game's position win."""
    return playouts(game, count, seed).wins


def playout_lines(game: Game, count: int, seed: int = 0) -> list[tuple[bool, tuple[Move, ...]]]:
    """The same playouts as ``playouts(game, count, seed)``, each with its moves: (won,
    moves) a game."""
    _, _, lines = _run(game, count, seed, True)
    assert lines is not None  # asked for with record=True
    talon = _talon(game)
    return [(won, _decode(game, talon, raw)) for won, raw in lines]


__all__ = ["Playouts", "playout_lines", "playout_wins", "playouts", "random_playout"]

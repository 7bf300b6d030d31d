"""How hard a winnable deal is, from facts measured on it, not from anyone's opinion.

Four facts a deal (``measure``), each exact or seeded, so the same on every machine and run:

- ``par``: the fewest moves that win (``app.engine.solver.par``: proven minimal).
- ``greedy``: whether the greedy player (``app.engine.greedy``: a King, else the pair that
  uncovers most, else draw) wins it.
- ``playout_wins`` of ``PLAYOUTS`` random playouts (``app.engine.playout``: uniformly random
  legal moves until the game ends, one SplitMix64 stream seeded with the deal number), and
  ``playout_left``, the cards the goal still needed at their ends, summed.
- ``winning_first_moves`` of ``first_moves``: how many of the legal first moves keep the deal
  winnable (each decided by the solver).

They are combined into one ``score`` (0 the easiest, 100 the hardest; the formula is in its
docstring) and the score into four buckets (``Difficulty``) by three cut points per rule set,
chosen as the quartiles of the scores of the winnable deals measured (``cut_points``), so that
each bucket holds about a quarter of them. The cut points are committed with the data
(``app/data/difficulty.json``), so a deal's bucket can be recomputed from its facts alone.

Pure: the engine and nothing else (no web, no database, no data files).
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from app.engine import Deal, Game, Variant
from app.engine.greedy import greedy_wins
from app.engine.playout import playouts
from app.engine.solver import solve

PLAYOUTS = 200
"""Random playouts a deal."""


class Difficulty(StrEnum):
    """The four buckets, easiest first."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    EXPERT = "expert"

    @property
    def label(self) -> str:
        return self.value.capitalize()


DIFFICULTIES: tuple[Difficulty, ...] = tuple(Difficulty)


def parse_difficulty(text: Difficulty | str) -> Difficulty:
    try:
        return Difficulty(str(text).strip().lower())
    except ValueError:
        raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, "
                         f"not {text!r}") from None


@dataclass(frozen=True, slots=True)
class Facts:
    """What was measured on one winnable deal under one rule set."""

    number: int
    variant: Variant
    par: int
    greedy: bool
    playout_wins: int
    playout_left: int
    """The cards the goal still needed at the ends of the ``playouts`` games, summed."""
    first_moves: int
    winning_first_moves: int
    playouts: int = PLAYOUTS

    @property
    def playout_share(self) -> float:
        return self.playout_wins / self.playouts

    @property
    def score(self) -> float:
        return score(self)


def measure(number: int, variant: Variant) -> tuple[Facts | None, float]:
    """The facts of deal ``number`` under these rules, or None when it cannot be won; and the
    seconds it took."""
    began = time.perf_counter()
    game = Game(Deal.from_number(number), variant.goal, variant.passes)
    best = solve(game, shortest=True)
    if best.moves is None or best.par is None:
        return None, time.perf_counter() - began
    first = game.legal_moves
    winning = 0
    for move in first:
        if best.moves and move == best.moves[0]:
            winning += 1  # the par line starts so
            continue
        game.play(move)
        winning += bool(solve(game).winnable)
        game.undo()
    random_games = playouts(game, PLAYOUTS, seed=number)
    facts = Facts(
        number=number,
        variant=variant,
        par=best.par,
        greedy=greedy_wins(game.deal, variant.goal, variant.passes),
        playout_wins=random_games.wins,
        playout_left=random_games.cards_left,
        first_moves=len(first),
        winning_first_moves=winning,
    )
    return facts, time.perf_counter() - began


# --- the score -----------------------------------------------------------------------------


def score(facts: Facts) -> float:
    """A deal's difficulty from 0 (easiest) to 100 (hardest): the mean of four hardnesses,
    each from 0 to 1.

    (Placeholder until the measured distributions fix the formula.)
    """
    raise NotImplementedError


def bucket(value: float, cuts: Sequence[float]) -> Difficulty:
    """The bucket of a score: easy below the first cut point, medium below the second, hard
    below the third, expert from it on."""
    for difficulty, cut in zip(DIFFICULTIES, cuts, strict=False):
        if value < cut:
            return difficulty
    return Difficulty.EXPERT


def cut_points(scores: Sequence[float]) -> tuple[float, float, float]:
    """The three cut points that split ``scores`` most evenly into four buckets: each is a
    score that occurs, the lowest of its bucket, chosen so that the scores below it are as near
    a quarter, a half, three quarters of all as ties allow."""
    ordered = sorted(scores)
    if not ordered:
        raise ValueError("no scores to cut")
    values = sorted(set(ordered))
    below = [bisect.bisect_left(ordered, value) for value in values]
    cuts = []
    for quarter in (1, 2, 3):
        target = len(ordered) * quarter / 4
        best = min(range(len(values)), key=lambda i: (abs(below[i] - target), i))
        cuts.append(values[best])
    return cuts[0], cuts[1], cuts[2]

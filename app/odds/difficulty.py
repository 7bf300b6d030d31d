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
docstring, its scale fitted per rule set: ``Scale``) and the score into four buckets
(``Difficulty``) by three cut points per rule set, chosen among the scores of the winnable
deals measured so that each bucket holds as near a quarter of them as ties allow
(``cut_points``). Scale and cut points are committed with the data
(``app/data/difficulty.json``), so a deal's score and bucket follow from its facts alone.

Pure: the engine and nothing else (no web, no database, no data files).
"""

from __future__ import annotations

import bisect
import math
import statistics
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

MEASURES = ("par", "greedy_loses", "playout_wins", "playout_left", "winning_first_moves")
"""The hardnesses the score combines, each larger for a harder deal (``hardnesses``)."""
WEIGHTS = (1.0, 1.0, 0.5, 0.5, 1.0)
"""Each of the four facts counts the same: the random playouts' two measures share one part."""


def hardnesses(facts: Facts) -> tuple[float, float, float, float, float]:
    """The measures the score combines, each oriented so that more is harder:

    - the par;
    - 1 when the greedy player loses the deal, 0 when it wins;
    - minus log(1 + the playouts won): fewer wins, harder (the log, because most deals are won
      by no or a few playouts and a handful by many, which would otherwise weigh most);
    - the cards the goal still needed at the ends of the playouts, on average: how far aimless
      play gets, which tells deals apart where it never wins (most one-pass deals);
    - minus the first moves that keep the deal winnable: fewer ways to start right, harder.
    """
    return (float(facts.par), float(not facts.greedy), -math.log1p(facts.playout_wins),
            facts.playout_left / facts.playouts, -float(facts.winning_first_moves))


@dataclass(frozen=True, slots=True)
class Scale:
    """How the score is scaled for one rule set: the mean and standard deviation of each
    hardness over its winnable deals, and the percentiles (0, 1, ..., 100) of their combination
    (``combined``) over the same deals. ``fit`` measures them on the data;
    ``app/data/difficulty.json`` keeps them, so that any deal's score follows from its facts
    alone."""

    means: tuple[float, ...]
    deviations: tuple[float, ...]
    percentiles: tuple[float, ...]

    @classmethod
    def fit(cls, measured: Sequence[Facts]) -> Scale:
        if len(measured) < 2:
            raise ValueError("a scale needs at least two deals")
        columns = list(zip(*(hardnesses(f) for f in measured), strict=True))
        means = tuple(statistics.fmean(column) for column in columns)
        deviations = tuple(statistics.pstdev(column) or 1.0 for column in columns)
        partial = cls(means, deviations, ())
        values = sorted(partial.combined(f) for f in measured)
        middle = statistics.quantiles(values, n=100, method="inclusive")
        return cls(means, deviations, (values[0], *middle, values[-1]))

    def combined(self, facts: Facts) -> float:
        """The weighted mean of the standardised hardnesses (0 for an average deal)."""
        z = ((h - m) / d for h, m, d in zip(hardnesses(facts), self.means, self.deviations,
                                             strict=True))
        return sum(w * x for w, x in zip(WEIGHTS, z, strict=True)) / sum(WEIGHTS)

    def score(self, facts: Facts) -> float:
        """The deal's score, 0 to 100 in half points (see ``score``)."""
        value, marks = self.combined(facts), self.percentiles
        if value <= marks[0]:
            return 0.0
        if value >= marks[-1]:
            return 100.0
        i = bisect.bisect_right(marks, value) - 1  # marks[i] <= value < marks[i + 1]
        percent = i + (value - marks[i]) / (marks[i + 1] - marks[i])
        return round(2 * percent) / 2

    def to_dict(self) -> dict:
        return {"measures": list(MEASURES), "weights": list(WEIGHTS), "means": list(self.means),
                "deviations": list(self.deviations), "percentiles": list(self.percentiles)}

    @classmethod
    def from_dict(cls, row: dict) -> Scale:
        if tuple(row["measures"]) != MEASURES or tuple(row["weights"]) != WEIGHTS:
            raise ValueError("the scale was fitted for other measures or weights")
        if len(row["percentiles"]) != 101:
            raise ValueError("a scale has 101 percentiles, 0 to 100")
        return cls(tuple(row["means"]), tuple(row["deviations"]), tuple(row["percentiles"]))


def score(facts: Facts, scale: Scale) -> float:
    """A deal's difficulty score, from 0 (the easiest) to 100 (the hardest), in half points.

    Each hardness (``hardnesses``) is standardised over the rule set's winnable deals (minus
    its mean, over its standard deviation: ``scale``), so that each counts by how unusual it
    is, whatever its unit. Their weighted mean (``WEIGHTS``: par, the greedy player, random
    play and the first moves a quarter each) is placed among the same deals' by their
    percentiles, linearly between two: a score of 80 is a deal harder than about 80% of the
    rule set's winnable deals, 50 an average one.
    """
    return scale.score(facts)


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

"""Which numbered deals the solver proved winnable, read from the committed verdict files.

``app/data/verdicts/{goal}-{passes}.txt.gz``: gzipped ASCII, one letter a deal in deal order
from the odds row's ``start``: ``W`` winnable, ``L`` not winnable, ``?`` unknown
(``app.odds.run.VERDICT_LETTERS``). From these comes a random proven-winnable deal at once,
with no search at deal time, and the deal of the day (``daily``).
"""

from __future__ import annotations

import gzip
import random
from array import array
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from app.engine import VARIANTS, Variant

from .table import DATA_DIR, odds_row

VERDICTS_DIR = DATA_DIR / "verdicts"


def verdicts_path(variant: Variant, directory: Path = VERDICTS_DIR) -> Path:
    return directory / f"{variant.key}.txt.gz"


@dataclass(frozen=True, slots=True)
class Verdicts:
    """One rule set's verdicts file: ``letters[i]`` is deal ``start + i``."""

    variant: Variant
    start: int
    letters: str
    winnable: array
    """The proven-winnable deal numbers, ascending (4 or 8 bytes each, not a Python int)."""

    @property
    def last(self) -> int:
        return self.start + len(self.letters) - 1

    def letter(self, number: int) -> str | None:
        """``W``, ``L`` or ``?`` for a deal in the file, None outside it."""
        if self.start <= number <= self.last:
            return self.letters[number - self.start]
        return None

    @classmethod
    def read(cls, variant: Variant, start: int, path: Path) -> Verdicts:
        with gzip.open(path, "rt", encoding="ascii") as stream:
            letters = stream.read().strip()
        if set(letters) - set("WL?"):
            raise ValueError(f"{path}: letters other than W, L and ? in a verdicts file")
        winnable = array("Q", (start + i for i, letter in enumerate(letters) if letter == "W"))
        return cls(variant, start, letters, winnable)


@lru_cache(maxsize=len(VARIANTS))
def verdicts(variant: Variant) -> Verdicts:
    """The committed verdicts of a rule set, read once per process and checked against the
    odds table."""
    row = odds_row(variant)
    path = verdicts_path(variant)
    found = Verdicts.read(variant, row.start, path)
    if len(found.letters) != row.deals:
        raise ValueError(f"{path}: {len(found.letters)} verdicts, but "
                         f"odds.json counts {row.deals} deals")
    if found.letters.count("W") != row.wins:
        raise ValueError(f"{path}: {found.letters.count('W')} winnable "
                         f"deals, but odds.json counts {row.wins}")
    return found


def known_verdict(number: int, variant: Variant) -> bool | None:
    """What the committed data says of deal ``number``: True (winnable), False (not), or None
    (not in the data, or undecided there)."""
    letter = verdicts(variant).letter(number)
    return {"W": True, "L": False}.get(letter or "")


def is_proven_winnable(number: int, variant: Variant) -> bool:
    """Whether the solver proved deal ``number`` winnable under these rules (a deal outside the
    committed range is not proven, whatever it is)."""
    return known_verdict(number, variant) is True


def winnable_count(variant: Variant) -> int:
    return len(verdicts(variant).winnable)


def winnable_deal(variant: Variant, rng: random.Random | None = None) -> int:
    """A proven-winnable deal number, chosen uniformly by ``rng`` (default: the system's
    cryptographic source, like the app's other random deals). Instant: no search."""
    numbers = verdicts(variant).winnable
    if not numbers:
        raise LookupError(f"no proven-winnable deal for {variant.label}")
    return numbers[(rng or random.SystemRandom()).randrange(len(numbers))]

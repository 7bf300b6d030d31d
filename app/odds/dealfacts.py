"""Each winnable deal's par and difficulty, read from the committed data: what the web layer asks.

``app/data/difficulty/{goal}-{passes}.bin.gz`` (gzip; ``bench/collect_difficulty.py`` writes
it from a ``pyramid facts --results`` folder), for deals ``start`` .. ``start + deals - 1``:

    16-byte header: b"PYRD", version 1, goal (0 standard, 1 whole deck), passes, 0,
                    the first deal (uint32, little-endian), the number of deals (uint32)
    deals bytes     the par of each deal, in deal order; 0: not winnable
    deals bytes     the score of each deal, 1 + round(2 * score) (score 0..100, in half
                    points); 0: not winnable

``app/data/difficulty.json`` holds, per rule set, the range, the scale of each measure that the
score is computed with (``app.odds.difficulty.Scale``), the three cut points between the four
buckets, and the share of the winnable deals in each. A deal's bucket is its stored score cut by
those points; recomputing its facts (``difficulty.measure``) gives the same score and bucket.
"""

from __future__ import annotations

import gzip
import json
import random
import struct
from array import array
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from app.engine import VARIANTS, Goal, Variant

from .difficulty import DIFFICULTIES, Difficulty, Scale, bucket, parse_difficulty
from .table import DATA_DIR
from .winnable import winnable_deal

DIFFICULTY_DIR = DATA_DIR / "difficulty"
DIFFICULTY_FILE = DATA_DIR / "difficulty.json"
MAGIC = b"PYRD"
VERSION = 1
HEADER = struct.Struct("<4sBBBBII")


def data_path(variant: Variant, directory: Path = DIFFICULTY_DIR) -> Path:
    return directory / f"{variant.key}.bin.gz"


def score_code(score: float) -> int:
    """A score as stored: 1 + its half points (1..201)."""
    if not 0 <= score <= 100:
        raise ValueError(f"a score is between 0 and 100, not {score}")
    return 1 + round(2 * score)


def code_score(code: int) -> float:
    return (code - 1) / 2


def encode(variant: Variant, start: int, pars: bytes, codes: bytes) -> bytes:
    """The file's bytes (before gzip) for deals start.. with these pars and score codes."""
    if len(pars) != len(codes):
        raise ValueError("one par and one score a deal")
    if any((par == 0) != (code == 0) for par, code in zip(pars, codes, strict=True)):
        raise ValueError("a deal has a par exactly when it has a score")
    goal = 1 if variant.goal is Goal.WHOLE_DECK else 0
    return HEADER.pack(MAGIC, VERSION, goal, variant.passes, 0, start, len(pars)) + pars + codes


@dataclass(frozen=True, slots=True)
class DealFacts:
    """What the committed data says of one winnable deal."""

    number: int
    variant: Variant
    par: int
    """The fewest moves that win (a removal, a draw or a recycle each), proven minimal."""
    score: float
    """0 (the easiest) to 100 (the hardest): ``app.odds.difficulty.score``."""
    difficulty: Difficulty


@dataclass(frozen=True, slots=True)
class DifficultyData:
    """One rule set's committed par and difficulty data."""

    variant: Variant
    start: int
    pars: bytes
    codes: bytes
    scale: Scale
    cuts: tuple[float, float, float]
    shares: dict[Difficulty, float]
    by_difficulty: dict[Difficulty, array]
    """The deal numbers of each bucket, ascending: ``random_winnable`` draws from them."""

    @property
    def deals(self) -> int:
        return len(self.pars)

    @property
    def last(self) -> int:
        return self.start + self.deals - 1

    def facts(self, number: int) -> DealFacts | None:
        index = number - self.start
        if not 0 <= index < self.deals or not self.pars[index]:
            return None
        score = code_score(self.codes[index])
        return DealFacts(number, self.variant, self.pars[index], score,
                         bucket(score, self.cuts))

    @classmethod
    def read(cls, variant: Variant, row: dict, path: Path) -> DifficultyData:
        raw = gzip.decompress(path.read_bytes())
        magic, version, goal, passes, _, start, deals = HEADER.unpack_from(raw)
        expected = (MAGIC, VERSION, int(variant.goal is Goal.WHOLE_DECK), variant.passes)
        if (magic, version, goal, passes) != expected or len(raw) != HEADER.size + 2 * deals:
            raise ValueError(f"{path}: not the difficulty data of {variant.key}")
        if (start, deals) != (row["start"], row["deals"]):
            raise ValueError(f"{path}: deals {start}..{start + deals - 1}, but "
                             f"{DIFFICULTY_FILE.name} says {row['start']}..")
        pars = raw[HEADER.size:HEADER.size + deals]
        codes = raw[HEADER.size + deals:]
        cuts = tuple(row["cuts"])
        by_difficulty = {difficulty: array("I") for difficulty in DIFFICULTIES}
        for index, code in enumerate(codes):
            if code:
                by_difficulty[bucket(code_score(code), cuts)].append(start + index)
        winnable = sum(len(numbers) for numbers in by_difficulty.values())
        if winnable != row["winnable"]:
            raise ValueError(f"{path}: {winnable:,} winnable deals, but "
                             f"{DIFFICULTY_FILE.name} counts {row['winnable']:,}")
        shares = {d: len(by_difficulty[d]) / winnable if winnable else 0.0 for d in DIFFICULTIES}
        return cls(variant, start, pars, codes, Scale.from_dict(row["scale"]),
                   (cuts[0], cuts[1], cuts[2]), shares, by_difficulty)


@lru_cache(maxsize=1)
def difficulty_table() -> dict[Variant, dict]:
    """``difficulty.json``'s row of each rule set."""
    rows = json.loads(DIFFICULTY_FILE.read_text(encoding="utf-8"))["variants"]
    return {Variant(row["goal"], row["passes"]): row for row in rows}


@lru_cache(maxsize=len(VARIANTS))
def difficulty_data(variant: Variant) -> DifficultyData:
    """The committed data of a rule set, read once per process."""
    return DifficultyData.read(variant, difficulty_table()[variant], data_path(variant))


def deal_facts(number: int | None, variant: Variant) -> DealFacts | None:
    """Par and difficulty of deal ``number`` under these rules; None when the deal is not
    winnable, beyond the deals the data covers (``difficulty_range``), or a custom deal
    (no number)."""
    return None if number is None else difficulty_data(variant).facts(number)


def difficulty_range(variant: Variant) -> tuple[int, int]:
    """The first and last deal the committed par and difficulty data covers."""
    data = difficulty_data(variant)
    return data.start, data.last


def difficulty_shares(variant: Variant) -> dict[Difficulty, float]:
    """The share of the covered winnable deals in each bucket (about a quarter each)."""
    return dict(difficulty_data(variant).shares)


def random_winnable(variant: Variant, rng: random.Random | None = None,
                    difficulty: Difficulty | str | None = None) -> int:
    """A proven-winnable deal chosen uniformly by ``rng`` (default: the system's
    cryptographic source); with ``difficulty``, uniformly among the covered deals of that
    bucket. Instant: no search at deal time."""
    if difficulty is None:
        return winnable_deal(variant, rng)
    numbers = difficulty_data(variant).by_difficulty[parse_difficulty(difficulty)]
    if not numbers:
        raise LookupError(f"no {difficulty} deal for {variant.label}")
    draw = rng or random.SystemRandom()
    return numbers[draw.randrange(len(numbers))]

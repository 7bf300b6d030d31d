"""Which numbered deals the solver proved winnable, read from the committed bitsets.

``app/data/winnable/{goal}-{passes}.bits``: one bit a deal, deal ``1 + i`` at bit ``i % 8`` of
byte ``i // 8`` (``pyramid odds --bits``), for the deals the odds row covers (1 to ``deals``),
every one decided. A million deals take 125 kB a rule set, read once per process; from them come
a deal's verdict, a random proven-winnable deal at once (with no search at deal time), and the
deal of the day (``daily``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from app.engine import VARIANTS, Variant

from .table import DATA_DIR, odds_row

WINNABLE_DIR = DATA_DIR / "winnable"
TRIES = 10_000
"""Draws before ``winnable_deal`` gives up: with one deal in fourteen winnable at worst, the
chance that ten thousand draws all miss is nil."""


def bits_path(variant: Variant, directory: Path = WINNABLE_DIR) -> Path:
    return directory / f"{variant.key}.bits"


@dataclass(frozen=True, slots=True)
class Winnable:
    """One rule set's winnable deals among deals 1..``deals``."""

    variant: Variant
    deals: int
    bits: bytes

    def __contains__(self, number: int) -> bool:
        index = number - 1
        return 0 <= index < self.deals and bool(self.bits[index >> 3] >> (index & 7) & 1)

    def count(self) -> int:
        return sum(byte.bit_count() for byte in self.bits)

    @classmethod
    def read(cls, variant: Variant, deals: int, path: Path) -> Winnable:
        bits = path.read_bytes()
        if len(bits) != (deals + 7) // 8:
            raise ValueError(f"{path}: {len(bits)} bytes, but {deals:,} deals need "
                             f"{(deals + 7) // 8}")
        return cls(variant, deals, bits)


@lru_cache(maxsize=len(VARIANTS))
def verdicts(variant: Variant) -> Winnable:
    """The committed winnable deals of a rule set, read once per process and checked against
    the odds table (its deals, from 1, and its count of wins)."""
    row = odds_row(variant)
    path = bits_path(variant)
    if row.start != 1 or row.unknown:
        raise ValueError(f"odds.json: {variant.key} must cover deals from 1, every one decided")
    found = Winnable.read(variant, row.deals, path)
    if found.count() != row.wins:
        raise ValueError(f"{path}: {found.count():,} winnable deals, but odds.json counts "
                         f"{row.wins:,}")
    return found


def known_verdict(number: int, variant: Variant) -> bool | None:
    """What the committed data says of deal ``number``: True (winnable), False (not), or None
    (beyond the deals it covers)."""
    found = verdicts(variant)
    if not 1 <= number <= found.deals:
        return None
    return number in found


def is_proven_winnable(number: int, variant: Variant) -> bool:
    """Whether the solver proved deal ``number`` winnable under these rules (a deal outside the
    committed range is not proven, whatever it is)."""
    return known_verdict(number, variant) is True


def winnable_count(variant: Variant) -> int:
    return odds_row(variant).wins


def winnable_deal(variant: Variant, rng: random.Random | None = None) -> int:
    """A proven-winnable deal number, chosen uniformly by ``rng`` (default: the system's
    cryptographic source, like the app's other random deals): deal numbers drawn uniformly
    until one is winnable, which picks each winnable deal with the same chance. Instant."""
    found = verdicts(variant)
    draw = rng or random.SystemRandom()
    for _ in range(TRIES):
        number = draw.randrange(found.deals) + 1
        if number in found:
            return number
    raise LookupError(f"no proven-winnable deal for {variant.label}")

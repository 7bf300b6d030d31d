"""The deal of the day: the same proven-winnable deal for every player and every server on a
UTC date, with nothing stored, and the same deal for a date forever.

The deal of ``day`` under these rules is the first proven-winnable deal among the candidates

    int(SHA-256("pyramid-daily:{ISO date}:{goal}:{passes}:{k}"), big-endian) mod 100,000 + 1

for k = 0, 1, 2, ..., e.g. ``pyramid-daily:2026-12-01:standard:3:0``. The candidates lie among
the first 100,000 deals, whose verdicts the committed data will always hold (it only grows), so
no new data can ever change a date's deal: past and future days keep theirs. Anyone can
recompute it from the date, the rules and the verdicts alone.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, date, datetime

from app.engine import Variant

from .winnable import is_proven_winnable

DAILY_PREFIX = "pyramid-daily"
DAILY_DEALS = 100_000
"""The candidates' range: deals 1 to this, covered by every version of the committed data."""
CANDIDATES = 10_000


def today_utc(now: datetime | None = None) -> date:
    """The date whose deal of the day is current: days turn over at midnight UTC."""
    return (now or datetime.now(UTC)).astimezone(UTC).date()


def candidate(day: date, variant: Variant, k: int) -> int:
    """The ``k``-th candidate deal of ``day`` (see the module docstring)."""
    key = f"{DAILY_PREFIX}:{day.isoformat()}:{variant.goal.value}:{variant.passes}:{k}"
    return int.from_bytes(hashlib.sha256(key.encode("ascii")).digest(), "big") % DAILY_DEALS + 1


def daily_deal(day: date, variant: Variant) -> int:
    """The deal of the day ``day`` (a UTC date) for these rules: the same for every player and
    every server, with nothing stored, whatever data is committed later. It is always proven
    winnable."""
    for k in range(CANDIDATES):
        number = candidate(day, variant, k)
        if is_proven_winnable(number, variant):
            return number
    raise LookupError(f"no proven-winnable deal of the day for {variant.label}")

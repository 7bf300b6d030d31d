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
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache

from app.engine import VARIANTS, Deal, Variant

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


# --- deals still in play ---------------------------------------------------------------------
DAYS_TOLD_AHEAD = 7
"""How many days ahead the deals of the day are told (the offline pack carries them, so a game
begun without network plays the right deal)."""


def ranks_of(deal: Deal) -> tuple[int, ...]:
    """A deal as the solver sees it: pairs go by rank alone, so two deals with the same ranks in
    the same places (suits swapped, say) have the same winning lines."""
    return tuple(card.rank for card in deal.pyramid + deal.stock)


@lru_cache(maxsize=4)
def ranks_in_play(day: date) -> frozenset[tuple[int, ...]]:
    """The ranks (``ranks_of``) of every deal ``in_play`` on ``day``."""
    first, last = day - timedelta(days=1), day + timedelta(days=DAYS_TOLD_AHEAD)
    return frozenset(
        ranks_of(Deal.from_number(daily_deal(first + timedelta(days=k), variant)))
        for k in range((last - first).days + 1) for variant in VARIANTS)


def in_play(deal: Deal, day: date) -> bool:
    """Whether ``deal`` can still be played, on ``day`` (UTC), for some day's shared result
    under some rule set: a deal of the day from yesterday's (a game begun offline then still
    counts as yesterday's) to the last one told ahead. Its solver's line is nobody's to see
    until then (docs/players.md)."""
    return ranks_of(deal) in ranks_in_play(day)


def daily_deals_in_play(day: date) -> frozenset[int]:
    """The numbers of the deals of the day that ``in_play`` keeps private on ``day``."""
    first = day - timedelta(days=1)
    return frozenset(daily_deal(first + timedelta(days=k), variant)
                     for k in range(DAYS_TOLD_AHEAD + 2) for variant in VARIANTS)

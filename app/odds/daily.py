"""The deal of the day: the same proven-winnable deal for every player and every server on a
UTC date, with nothing stored."""

from __future__ import annotations

import hashlib
from datetime import UTC, date, datetime

from app.engine import Variant

from .winnable import verdicts

DAILY_PREFIX = "pyramid-daily"


def today_utc(now: datetime | None = None) -> date:
    """The date whose deal of the day is current: days turn over at midnight UTC."""
    return (now or datetime.now(UTC)).astimezone(UTC).date()


def daily_index(day: date, variant: Variant, count: int) -> int:
    """The index of the day's deal in a sorted list of ``count`` proven-winnable deals:

        int(SHA-256("pyramid-daily:{ISO date}:{goal}:{passes}"), big-endian) mod count

    e.g. ``pyramid-daily:2026-11-30:standard:3``. A hash, not a seeded shuffle, so anyone can
    recompute it from the date and the rules alone.
    """
    if count < 1:
        raise LookupError(f"no proven-winnable deal for {variant.label}")
    key = f"{DAILY_PREFIX}:{day.isoformat()}:{variant.goal.value}:{variant.passes}"
    return int.from_bytes(hashlib.sha256(key.encode("ascii")).digest(), "big") % count


def daily_deal(day: date, variant: Variant) -> int:
    """The deal of the day ``day`` (a UTC date) for these rules: the same for every player
    and every server, with nothing stored. It is always proven winnable.

    It is ``winnable[daily_index(...)]`` where ``winnable`` lists the proven-winnable deal
    numbers of the committed verdicts file in ascending order; so replacing that file (more
    deals) changes the days' deals, and a daily game keeps its own deal number for that.
    """
    numbers = verdicts(variant).winnable
    return numbers[daily_index(day, variant, len(numbers))]

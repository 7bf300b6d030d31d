"""Deals the tests may analyse whatever the date: none of them is a deal of the day from
yesterday to years ahead.

The solver's line for a deal that can still be played for a day's result is kept private
(``app.web.services.spoilers``, ``odds.in_play``): a test that asks for the analysis, a replay's
winning line or a retry's better move of a fixed deal would fail on the days that deal is a deal
of the day (deal 124 on Dec 9, say). Such tests choose their deals here. ``PYRAMID_TEST_TODAY``
(in tests/conftest.py) runs a test file as if on another date; tests/web/test_earned_results.py
checks the fixed deals the tests use.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache

from app import odds
from app.engine import VARIANTS, Deal
from app.odds.daily import ranks_of

YEARS_AHEAD = 10


@lru_cache(maxsize=1)
def _dailies(first: date) -> frozenset[tuple[int, ...]]:
    """Every deal of the day (as ranks, as ``odds.in_play`` matches them) from ``first`` to
    YEARS_AHEAD years and the days told ahead after it (about 2 CPU-s: each deal is dealt
    once, though a fifth of them come back on other days or for other rules)."""
    days = 366 * YEARS_AHEAD + odds.DAYS_TOLD_AHEAD + 1
    numbers = {odds.daily_deal(first + timedelta(days=k), v) for k in range(days) for v in VARIANTS}
    return frozenset(ranks_of(Deal.from_number(number)) for number in numbers)


def never_in_play(number: int) -> bool:
    """Whether deal ``number`` is no deal of the day from yesterday (UTC, the real date: the
    window covers any date a test fakes within it) to YEARS_AHEAD years on."""
    yesterday = datetime.now(UTC).date() - timedelta(days=1)
    return ranks_of(Deal.from_number(number)) not in _dailies(yesterday)


def spare_deals(numbers: Iterable[int]) -> list[int]:
    """``numbers`` without the deals of the day: deals whose analysis no date keeps private."""
    return [n for n in numbers if never_in_play(n)]


ANALYSED_DEALS = (1, 2, 3, 7)
"""The fixed deals whose analysis, replay line or retry tests ask for (the i18n pages' lost
game, the e2e languages' lost game, test_stats_pages' lost deal, test_analysis_api's won
deal); tests/web/test_earned_results.py checks none is in play for years. A test that picks
its deal picks among ``spare_deals``."""

"""The daily calendar's clock: the moment (UTC) whose date says which deal of the day is
today's, which deals are still in play (``spoilers``), and the daily streak's today.

One function every module reads it through, below every other module of the web layer (it
imports nothing of the app), so that a test pins the calendar in one place
(``monkeypatch.setattr(utcday, "today", ...)``; ``PYRAMID_TEST_TODAY`` in tests/conftest.py).
``starting.today`` reads it.
"""

from __future__ import annotations

from datetime import UTC, datetime


def today() -> datetime:
    return datetime.now(UTC)

"""The Wilson score interval (``app.odds.interval``) that every odds figure is shown with."""

from __future__ import annotations

import pytest

from app.odds import wilson_interval


def test_wilson_interval_known_values():
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion", method 3.
    for wins, trials, low, high in [
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ]:
        got = wilson_interval(wins, trials)
        assert got == (pytest.approx(low, abs=5e-5), pytest.approx(high, abs=5e-5))
    assert wilson_interval(10, 10) == (pytest.approx(1 - 0.2775, abs=5e-5), 1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(500, 1000)
    assert low == pytest.approx(1 - high) and low < 0.5 < high
    with pytest.raises(ValueError):
        wilson_interval(3, 2)

"""The 95% interval of a win rate: the one statistical formula behind every odds figure."""

from __future__ import annotations

import math

Z_95 = 1.959963984540054
"""The normal quantile for a two-sided 95% interval."""


def wilson_interval(wins: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a proportion: unlike the textbook p ± z·se it stays
    inside [0, 1] and behaves at 0 or all wins, which matter here (whole-deck wins are rare)."""
    if not 0 <= wins <= trials:
        raise ValueError(f"wins must be between 0 and trials ({trials}), not {wins}")
    if trials == 0:
        return (0.0, 1.0)
    p = wins / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == trials else min(1.0, centre + half)
    return (low, high)

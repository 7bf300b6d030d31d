"""The odds run (``app.odds.run``, behind ``pyramid odds``): deals split into chunks among the
workers, and the same counts whatever the number of workers, for the solver and for the greedy
player. (The command's own output and errors: tests/cli/test_cli.py.)"""

from __future__ import annotations

import pytest

from app.engine import Goal
from app.odds.run import chunk_size, solve_range


def test_chunk_size():
    assert chunk_size(10, 2) == 1
    assert chunk_size(1000, 2) == 32
    assert chunk_size(10**6, 2) == 200


def test_odds_do_not_depend_on_the_number_of_workers():
    one = solve_range(*_odds_args(), workers=1).to_dict()
    two = solve_range(*_odds_args(), workers=2).to_dict()
    assert two["workers"] == 2
    for key in ("seconds", "deals_per_second", "workers"):
        del one[key], two[key]
    assert one == two


def _odds_args():
    return (Goal.WHOLE_DECK, 1, 100, 16)


def test_greedy_odds_do_not_depend_on_the_number_of_workers():
    one = solve_range(Goal.WHOLE_DECK, 3, 1, 40, workers=1, player="greedy").to_dict()
    two = solve_range(Goal.WHOLE_DECK, 3, 1, 40, workers=2, player="greedy").to_dict()
    for key in ("seconds", "deals_per_second", "workers"):
        del one[key], two[key]
    assert one == two
    with pytest.raises(ValueError, match="player must be"):
        solve_range(Goal.STANDARD, 3, 1, 4, player="lucky")

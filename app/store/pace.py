"""A ranked result is one the server watched being played at a person's pace.

Every input that changes a game (a move or an undo, from the board's batches or the API) is
measured as it arrives, with the generic cell rate algorithm (a token bucket kept as one
moment): a game may send ``burst`` inputs at once, and ``per_second`` more each second after,
never saving more than ``burst``. ``games.pace_until`` is the moment by which the inputs so far
would have been played at ``per_second``; a batch that pushes it more than ``burst /
per_second`` seconds past its arrival came faster than a person plays, and the game is no
longer ranked (``unranked_why = "fast"``). It still counts for its player.

The figures (docs/players.md says how they were measured): a person's fastest play on the
board is a few inputs a second (the stock drawn by holding D, its key repeating, is the
fastest: 24 draws in about a second; a click every 200 ms is about 2.2 moves a second, a pair
being two clicks); the page sends what was played while its previous batch was on its way,
one or two inputs as a rule, more over a slow network (bench/batch_pace.py). A whole line in
one batch (40 to 60 moves), or a script's steady 5 a second, is neither.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from .clock import as_utc
from .models import GameRecord, utcnow

__all__ = ["PACE_RULES", "PaceRules", "clock", "keep_pace", "not_ranked", "set_pace_rules"]


@dataclass(frozen=True)
class PaceRules:
    burst: int = 24
    """Inputs that may arrive at once: the whole stock of the standard deal drawn by holding D
    (24 cards), or what a fast player does while a slow answer is on its way."""
    per_second: float = 2.0
    """Inputs a second, sustained: more than a person keeps up through a game (a pair is two
    aimed clicks: a person clicking every 200 ms plays about 2.2 moves a second, and keeps
    that up for no whole game)."""


PACE_RULES = PaceRules()
"""The rules in force: ``set_pace_rules`` sets them from the settings when the app is made."""


def set_pace_rules(rules: PaceRules) -> None:
    global PACE_RULES
    PACE_RULES = rules


def clock() -> datetime:
    """When an input arrives (the tests move it on, as a person's pace would)."""
    return utcnow()


def not_ranked(record: GameRecord, why: str) -> None:
    """The game's time and score are no longer ranked; the first reason is the one told."""
    record.ranked = False
    if not record.unranked_why:
        record.unranked_why = why


def keep_pace(record: GameRecord, inputs: int, now: datetime | None = None) -> bool:
    """Measure ``inputs`` arriving now for ``record``; returns whether they came at a
    person's pace (else the game is not ranked: ``not_ranked(record, "fast")``)."""
    if inputs <= 0:
        return True
    now = as_utc(now or clock())
    rules = PACE_RULES
    due = as_utc(record.pace_until) if record.pace_until is not None else now
    due = max(due, now) + timedelta(seconds=inputs / rules.per_second)
    record.pace_until = due
    if (due - now).total_seconds() > rules.burst / rules.per_second + 1e-6:
        not_ranked(record, "fast")
        return False
    return True

"""The committed odds table: one row per rule set, solved with best play over numbered deals.

``app/data/odds.json`` is a JSON list with one row per rule set (goal × passes): the deals
solved (from 1), the wins and losses, and ``greedy_wins`` over ``greedy_deals`` (how many of the
first deals a simple greedy player wins; null until measured), and ``provisional`` (true while
the row covers fewer deals than the final run). ``bench/collect_odds.py`` writes it from a
``pyramid odds --results`` folder, with the winnable deals as bitsets beside it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from app.engine import VARIANTS, Goal, Variant, parse_goal, parse_passes

from .interval import wilson_interval

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
ODDS_FILE = DATA_DIR / "odds.json"


@dataclass(frozen=True, slots=True)
class OddsRow:
    """One rule set's results over deals ``start`` .. ``last``, solved with best play."""

    goal: Goal
    passes: int
    start: int
    deals: int
    wins: int
    losses: int
    unknown: int = 0
    greedy_wins: int | None = None
    greedy_deals: int | None = None
    """The first deals the greedy player was measured on (its own count: it plays in
    Python, so slower than the solver decides)."""
    seconds: float | None = None
    workers: int | None = None
    provisional: bool = False
    label: str | None = None
    """The rules in words when they are not a playable rule set (the solver's options)."""

    @property
    def variant(self) -> Variant:
        return Variant(self.goal, self.passes)

    @property
    def key(self) -> str:
        return self.variant.key

    @property
    def last(self) -> int:
        return self.start + self.deals - 1

    @property
    def decided(self) -> int:
        """Deals with a verdict; the rest (``unknown``) hit a node limit and are left out."""
        return self.wins + self.losses

    @property
    def rate(self) -> float:
        return self.wins / self.decided if self.decided else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of ``rate``."""
        return wilson_interval(self.wins, self.decided)

    @property
    def greedy_measured_on(self) -> int:
        return self.greedy_deals or self.deals

    @property
    def greedy_rate(self) -> float | None:
        """The greedy player's share of the deals it was measured on (None until it is)."""
        if self.greedy_wins is None or not self.greedy_measured_on:
            return None
        return self.greedy_wins / self.greedy_measured_on

    @property
    def greedy_interval(self) -> tuple[float, float] | None:
        if self.greedy_wins is None:
            return None
        return wilson_interval(self.greedy_wins, self.greedy_measured_on)

    @property
    def command(self) -> str:
        """The command that reproduces this row (resumable: a rerun solves what is missing),
        and its bitset of winnable deals."""
        start = f" --start {self.start}" if self.start != 1 else ""
        return (f"pyramid odds --goal {self.goal.value} --passes {self.passes} "
                f"--deals {self.deals}{start} --results odds-run --bits {self.key}.bits --json")

    @property
    def greedy_command(self) -> str:
        """The command that measures the greedy player over the deals it was measured on."""
        return (f"pyramid odds --player greedy --goal {self.goal.value} --passes {self.passes} "
                f"--deals {self.greedy_measured_on} --results odds-run --json")

    @classmethod
    def from_dict(cls, row: dict) -> OddsRow:
        """A row of odds.json: ``pyramid odds --json`` output plus the two keys above."""
        unknown = row.get("unknown", 0)
        return cls(
            goal=parse_goal(row["goal"]),
            passes=parse_passes(row["passes"]),
            start=int(row.get("start", 1)),
            deals=int(row["deals"]),
            wins=int(row["wins"]),
            losses=int(row["losses"]),
            unknown=len(unknown) if isinstance(unknown, list) else int(unknown),
            greedy_wins=None if row.get("greedy_wins") is None else int(row["greedy_wins"]),
            greedy_deals=None if row.get("greedy_deals") is None else int(row["greedy_deals"]),
            seconds=row.get("seconds"),
            workers=row.get("workers"),
            provisional=bool(row.get("provisional", False)),
        )


def load_odds(path: Path = ODDS_FILE) -> tuple[OddsRow, ...]:
    """The rows of an odds file, checked: one per rule set, in ``VARIANTS`` order."""
    rows = {r.variant: r
            for r in map(OddsRow.from_dict, json.loads(path.read_text(encoding="utf-8")))}
    missing = [v.key for v in VARIANTS if v not in rows]
    if missing:
        raise ValueError(f"{path}: no row for {', '.join(missing)}")
    for row in rows.values():
        if row.decided + row.unknown != row.deals:
            raise ValueError(f"{path}: {row.key}: wins + losses + unknown is not deals")
    return tuple(rows[v] for v in VARIANTS)


@lru_cache(maxsize=1)
def odds_rows() -> tuple[OddsRow, ...]:
    """The committed odds, one row per rule set (standard 1..3 passes, then whole deck)."""
    return load_odds()


def odds_row(variant: Variant) -> OddsRow:
    return next(row for row in odds_rows() if row.variant == variant)


def winnable_shares() -> dict[str, dict[int, float]]:
    """The share of deals the solver found winnable, per goal and passes, as the home page
    shows it: ``{"standard": {1: 0.0902, 2: ..., 3: ...}, "wholedeck": {...}}``."""
    shares: dict[str, dict[int, float]] = {}
    for row in odds_rows():
        shares.setdefault(row.goal.value, {})[row.passes] = row.rate
    return shares


def odds_deal_range() -> tuple[int, int]:
    """The deal numbers every rule set's figures cover (for a caption such as "deals 1 to
    100,000"): the widest range that all six rows share."""
    rows = odds_rows()
    return max(row.start for row in rows), min(row.last for row in rows)

"""The solver as a coach: the committed odds, and which numbered deals are proven winnable.

Everything here reads the package's committed data (``app/data/``, written by
``bench/collect_odds.py`` from ``pyramid odds`` runs), never the web or the database:

- ``odds.json``: a JSON list with one row per rule set (goal × passes), each the dict that
  ``pyramid odds --json`` prints, plus ``greedy_wins`` (how many of the same deals a simple
  greedy player wins; null until measured) and ``provisional`` (true while the row covers
  fewer deals than the final run).
- ``verdicts/{goal}-{passes}.txt.gz``: gzipped ASCII, one letter a deal in deal order from the
  row's ``start``: ``W`` winnable, ``L`` not winnable, ``?`` unknown (``app.odds.VERDICT_LETTERS``).

From these come a random proven-winnable deal (instant: no search at deal time) and the deal of
the day (``daily_deal``), which needs no storage: every server with the same data files picks
the same deal for the same UTC date.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from array import array
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import lru_cache
from pathlib import Path

from app.engine import VARIANTS, Goal, Variant, parse_goal, parse_passes
from app.odds import wilson_interval

DATA_DIR = Path(__file__).resolve().parent / "data"
ODDS_FILE = DATA_DIR / "odds.json"
VERDICTS_DIR = DATA_DIR / "verdicts"
DAILY_PREFIX = "pyramid-daily"

VARIANT_ORDER = tuple((variant.goal, variant.passes) for variant in VARIANTS)


def variant_key(goal: Goal | str, passes: int) -> str:
    return Variant(goal, passes).key  # type: ignore[arg-type]


def verdicts_path(goal: Goal | str, passes: int, directory: Path = VERDICTS_DIR) -> Path:
    return directory / f"{variant_key(goal, passes)}.txt.gz"


# --- the odds ------------------------------------------------------------------------------
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
    seconds: float | None = None
    workers: int | None = None
    provisional: bool = False

    @property
    def key(self) -> str:
        return variant_key(self.goal, self.passes)

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
    def greedy_rate(self) -> float | None:
        """The greedy player's share of the same deals (None until it is measured)."""
        if self.greedy_wins is None or not self.deals:
            return None
        return self.greedy_wins / self.deals

    @property
    def greedy_interval(self) -> tuple[float, float] | None:
        if self.greedy_wins is None:
            return None
        return wilson_interval(self.greedy_wins, self.deals)

    @property
    def command(self) -> str:
        """The command that reproduces this row (and its verdicts file)."""
        start = f" --start {self.start}" if self.start != 1 else ""
        return (f"pyramid odds --goal {self.goal.value} --passes {self.passes} "
                f"--deals {self.deals}{start} --verdicts {self.key}.txt.gz --json")

    @property
    def greedy_command(self) -> str:
        """The command that measures the greedy player over the same deals."""
        start = f" --start {self.start}" if self.start != 1 else ""
        return (f"pyramid odds --player greedy --goal {self.goal.value} --passes {self.passes} "
                f"--deals {self.deals}{start} --json")

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
            seconds=row.get("seconds"),
            workers=row.get("workers"),
            provisional=bool(row.get("provisional", False)),
        )


def load_odds(path: Path = ODDS_FILE) -> tuple[OddsRow, ...]:
    """The rows of an odds file, checked: one per rule set, in ``VARIANT_ORDER``."""
    rows = {(r.goal, r.passes): r
            for r in map(OddsRow.from_dict, json.loads(path.read_text(encoding="utf-8")))}
    missing = [variant_key(*v) for v in VARIANT_ORDER if v not in rows]
    if missing:
        raise ValueError(f"{path}: no row for {', '.join(missing)}")
    for row in rows.values():
        if row.decided + row.unknown != row.deals:
            raise ValueError(f"{path}: {row.key}: wins + losses + unknown is not deals")
    return tuple(rows[v] for v in VARIANT_ORDER)


@lru_cache(maxsize=1)
def odds_rows() -> tuple[OddsRow, ...]:
    """The committed odds, one row per rule set (standard 1..3 passes, then whole deck)."""
    return load_odds()


def odds_row(goal: Goal | str, passes: int) -> OddsRow:
    wanted = (parse_goal(goal), parse_passes(passes))
    return next(row for row in odds_rows() if (row.goal, row.passes) == wanted)


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


# --- the verdicts of single deals ----------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Verdicts:
    """One rule set's verdicts file: ``letters[i]`` is deal ``start + i``."""

    goal: Goal
    passes: int
    start: int
    letters: str
    winnable: array
    """The proven-winnable deal numbers, ascending (4 or 8 bytes each, not a Python int)."""

    @property
    def last(self) -> int:
        return self.start + len(self.letters) - 1

    def letter(self, number: int) -> str | None:
        """``W``, ``L`` or ``?`` for a deal in the file, None outside it."""
        if self.start <= number <= self.last:
            return self.letters[number - self.start]
        return None

    @classmethod
    def read(cls, goal: Goal | str, passes: int, start: int, path: Path) -> Verdicts:
        with gzip.open(path, "rt", encoding="ascii") as stream:
            letters = stream.read().strip()
        if set(letters) - set("WL?"):
            raise ValueError(f"{path}: letters other than W, L and ? in a verdicts file")
        winnable = array("Q", (start + i for i, letter in enumerate(letters) if letter == "W"))
        return cls(parse_goal(goal), parse_passes(passes), start, letters, winnable)


@lru_cache(maxsize=len(VARIANT_ORDER))
def _verdicts(goal: Goal, passes: int) -> Verdicts:
    row = odds_row(goal, passes)
    found = Verdicts.read(goal, passes, row.start, verdicts_path(goal, passes))
    if len(found.letters) != row.deals:
        raise ValueError(f"{verdicts_path(goal, passes)}: {len(found.letters)} verdicts, but "
                         f"odds.json counts {row.deals} deals")
    if found.letters.count("W") != row.wins:
        raise ValueError(f"{verdicts_path(goal, passes)}: {found.letters.count('W')} winnable "
                         f"deals, but odds.json counts {row.wins}")
    return found


def verdicts(goal: Goal | str, passes: int) -> Verdicts:
    """The committed verdicts of a rule set, read once per process."""
    return _verdicts(parse_goal(goal), parse_passes(passes))


def known_verdict(number: int, goal: Goal | str, passes: int) -> bool | None:
    """What the committed data says of deal ``number``: True (winnable), False (not), or None
    (not in the data, or undecided there)."""
    letter = verdicts(goal, passes).letter(number)
    return {"W": True, "L": False}.get(letter or "")


def is_proven_winnable(number: int, goal: Goal | str, passes: int) -> bool:
    """Whether the solver proved deal ``number`` winnable under these rules (a deal outside the
    committed range is not proven, whatever it is)."""
    return known_verdict(number, goal, passes) is True


def winnable_count(goal: Goal | str, passes: int) -> int:
    return len(verdicts(goal, passes).winnable)


def winnable_deal(goal: Goal | str, passes: int, rng: random.Random | None = None) -> int:
    """A proven-winnable deal number, chosen uniformly by ``rng`` (default: the system's
    cryptographic source, like the app's other random deals). Instant: no search."""
    numbers = verdicts(goal, passes).winnable
    if not numbers:
        raise LookupError(f"no proven-winnable deal for {variant_key(goal, passes)}")
    return numbers[(rng or random.SystemRandom()).randrange(len(numbers))]


# --- the deal of the day -------------------------------------------------------------------
def today_utc(now: datetime | None = None) -> date:
    """The date whose deal of the day is current: days turn over at midnight UTC."""
    return (now or datetime.now(UTC)).astimezone(UTC).date()


def daily_index(day: date, goal: Goal | str, passes: int, count: int) -> int:
    """The index of the day's deal in a sorted list of ``count`` proven-winnable deals:

        int(SHA-256("pyramid-daily:{ISO date}:{goal}:{passes}"), big-endian) mod count

    e.g. ``pyramid-daily:2026-11-30:standard:3``. A hash, not a seeded shuffle, so anyone can
    recompute it from the date and the rules alone.
    """
    if count < 1:
        raise LookupError(f"no proven-winnable deal for {variant_key(goal, passes)}")
    key = f"{DAILY_PREFIX}:{day.isoformat()}:{parse_goal(goal).value}:{parse_passes(passes)}"
    return int.from_bytes(hashlib.sha256(key.encode("ascii")).digest(), "big") % count


def daily_deal(day: date, goal: Goal | str, passes: int) -> int:
    """The deal of the day ``day`` (a UTC date) for these rules: the same for every player
    and every server, with nothing stored. It is always proven winnable.

    It is ``winnable[daily_index(...)]`` where ``winnable`` lists the proven-winnable deal
    numbers of the committed verdicts file in ascending order; so replacing that file (more
    deals) changes the days' deals, and a daily game keeps its own deal number for that.
    """
    numbers = verdicts(goal, passes).winnable
    return numbers[daily_index(day, goal, passes, len(numbers))]


# --- what others have published ------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Published:
    """A win rate someone else published, and how it should relate to ours.

    ``expect`` says what the rules lead one to expect of their figure against ours:
    ``"same"`` (the same rules), ``"higher"`` (their rules allow more, so their figure can only
    be at or above ours) or ``"lower"`` (their figure is for play that cannot see the stock,
    so at or below ours).
    """

    key: str
    source: str
    url: str
    year: str
    rules: str
    goal: Goal
    passes: int
    rate: float
    wins: int | None
    deals: int | None
    kind: str
    expect: str
    note: str
    differs_note: str = ""
    """What could explain it, shown only when the numbers say the figures differ."""

    @property
    def interval(self) -> tuple[float, float] | None:
        """Their own 95% Wilson interval, when they give a count of deals."""
        if self.wins is None or self.deals is None:
            return None
        return wilson_interval(self.wins, self.deals)


UNSETTLED = ("Sampling cannot explain it: both intervals are narrow. The rules as published "
             "match ours, so the cause is a detail neither page states, for instance whether "
             "the card just turned from the stock may pair with the top of the waste (the card "
             "directly under it once turned): here it may, and forbidding it can only lose "
             "deals; or a difference between the two solvers. We have not settled which.")
"""What the page says when the same rules give figures that differ."""

WIN_RATES = {"source": "solitairewinrates.com", "url": "https://solitairewinrates.com/Pyramid.html",
             "year": "2022"}
"""solitairewinrates.com's Pyramid page (last modified April 17, 2022)."""

PUBLISHED: tuple[Published, ...] = (
    Published(
        key="morehead-mott-smith",
        source="Albert H. Morehead and Geoffrey Mott-Smith (Hoyle)",
        url="",
        year="1949",
        rules="All 52 cards, one pass through the stock; played by a person",
        goal=Goal.WHOLE_DECK, passes=1, rate=1 / 50, wins=None, deals=None,
        kind="an estimate: “about once in fifty games”",
        expect="lower",
        note="An estimate of how often a good player wins, not a count of solved deals. A "
             "player on the first pass cannot see the face-down stock; our solver plays with "
             "the order of every card known, so its rate is what a deal allows at best, and a "
             "person's rate can only be lower."),
    Published(
        key="solitairewinrates-pyramid-once",
        **WIN_RATES,
        rules="Pyramid only, stock once, no overlap discards; 100 million random deals",
        goal=Goal.STANDARD, passes=1, rate=9_019_243 / 100_000_000,
        wins=9_019_243, deals=100_000_000,
        kind="a solver's count",
        expect="same",
        note="Their “pyramid only, once, no overlap discards” is our standard goal with one "
             "pass: a pyramid card pairs only once both cards covering it are gone. They "
             "solved random shuffles; we solve PySolFC's numbered deals, a sample of the same "
             "shuffles.",
        differs_note=UNSETTLED),
    Published(
        key="solitairewinrates-all-once",
        **WIN_RATES,
        rules="All cards, stock once, no overlap discards; 100 million random deals",
        goal=Goal.WHOLE_DECK, passes=1, rate=6_795_618 / 100_000_000,
        wins=6_795_618, deals=100_000_000,
        kind="a solver's count",
        expect="same",
        note="“All cards, once, no overlap discards” is our whole-deck goal with one pass, "
             "under the same reading of the rules as the row before. Random shuffles there, "
             "PySolFC's numbered deals here.",
        differs_note=UNSETTLED),
    Published(
        key="solitairewinrates-pyramid-unlimited",
        **WIN_RATES,
        rules="Pyramid only, unlimited passes, no overlap discards; 100 million random deals",
        goal=Goal.STANDARD, passes=3, rate=66_865_010 / 100_000_000,
        wins=66_865_010, deals=100_000_000,
        kind="a solver's count",
        expect="higher",
        note="Unlimited passes against our three: with the same deals, more passes can only "
             "win as often or more, so their figure is a ceiling for ours, and the gap is "
             "what passes after the third add."),
    Published(
        key="chung-pyramid-solver",
        source="M. Chung, pyramid-solver",
        url="https://github.com/mchung94/pyramid-solver",
        year="",
        rules="Pyramid only, three passes (Microsoft Solitaire Collection rules); "
              "1,500 random deals",
        goal=Goal.STANDARD, passes=3, rate=998 / 1500, wins=998, deals=1500,
        kind="a solver's count",
        expect="same",
        note="The same rules as our standard goal with three passes: the stock's top card is "
             "face up and pairs with the top of the waste. Only 1,500 deals, so their own "
             "interval is wide."),
)


@dataclass(frozen=True, slots=True)
class Comparison:
    """A published figure set against ours, judged from the numbers alone."""

    published: Published
    ours: OddsRow
    inside: bool
    """Whether their figure lies inside our 95% interval."""
    overlap: bool | None
    """Whether their 95% interval and ours overlap (None when they give no count)."""
    difference: float
    """Their rate minus ours, as a fraction (0.01 is one percentage point)."""
    verdict: str
    """``agrees``, ``consistent`` or ``differs``."""


def compare(published: Published, ours: OddsRow) -> Comparison:
    """Judge a published figure against our row of the same goal and passes.

    ``agrees``: their figure is inside our interval, or (when they give a count) the two
    intervals overlap, for rules that should give the same rate. For a figure expected to be
    higher (lower), ``consistent`` when it is not below our interval's low end (not above its
    high end). Anything else ``differs``: more than sampling explains.
    """
    low, high = ours.interval
    inside = low <= published.rate <= high
    theirs = published.interval
    overlap = None if theirs is None else theirs[0] <= high and low <= theirs[1]
    if published.expect == "same":
        verdict = "agrees" if inside or overlap else "differs"
    elif published.expect == "higher":
        top = published.rate if theirs is None else theirs[1]
        verdict = "consistent" if top >= low else "differs"
    else:
        bottom = published.rate if theirs is None else theirs[0]
        verdict = "consistent" if bottom <= high else "differs"
    return Comparison(published, ours, inside, overlap, published.rate - ours.rate, verdict)


def comparisons() -> list[Comparison]:
    """Every published figure against the committed odds."""
    return [compare(p, odds_row(p.goal, p.passes)) for p in PUBLISHED]


__all__ = [
    "PUBLISHED", "VARIANT_ORDER", "Comparison", "OddsRow", "Published", "Verdicts", "compare",
    "comparisons", "daily_deal", "daily_index", "is_proven_winnable", "known_verdict",
    "load_odds", "odds_deal_range", "odds_row", "odds_rows", "today_utc", "variant_key",
    "verdicts", "winnable_count", "winnable_deal", "winnable_shares",
]

"""What others have published about the odds, and how each figure compares with ours."""

from __future__ import annotations

from dataclasses import dataclass

from app.engine import Goal, Variant

from .interval import wilson_interval
from .table import OddsRow, odds_row


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
    return [compare(p, odds_row(Variant(p.goal, p.passes))) for p in PUBLISHED]

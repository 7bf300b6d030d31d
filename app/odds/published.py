"""What others have published about the odds, and how each figure compares with ours."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

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
    ours_kind: str | None = None
    """Which of our figures to set it against: None for the committed odds of its goal and
    passes, or a kind of ``checks.json`` row (``unlimited``, ``unlimited-overlap``: the solver's
    rule options)."""

    @property
    def interval(self) -> tuple[float, float] | None:
        """Their own 95% Wilson interval, when they give a count of deals."""
        if self.wins is None or self.deals is None:
            return None
        return wilson_interval(self.wins, self.deals)


ONE_PASS = "one-pass"
"""Marks the one-pass rows whose difference ``one_pass_note`` explains from our checks."""

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
        differs_note=ONE_PASS),
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
        differs_note=ONE_PASS),
    Published(
        key="solitairewinrates-pyramid-unlimited",
        **WIN_RATES,
        rules="Pyramid only, unlimited passes, no overlap discards; 100 million random deals",
        goal=Goal.STANDARD, passes=3, rate=66_865_010 / 100_000_000,
        wins=66_865_010, deals=100_000_000,
        kind="a solver's count",
        expect="same",
        ours_kind="unlimited",
        note="Our solver's rule option of unlimited passes (not a game this site plays): "
             "the same rules, on PySolFC's numbered deals. With unlimited passes the order "
             "of the stock hardly matters: every card comes round again."),
    Published(
        key="solitairewinrates-pyramid-unlimited-overlap",
        **WIN_RATES,
        rules="Pyramid only, unlimited passes, overlap discards; 100 million random deals",
        goal=Goal.STANDARD, passes=3, rate=0.8315, wins=None, deals=None,
        kind="a solver's count (the rate only: 83.15%)",
        expect="same",
        ours_kind="unlimited-overlap",
        note="Overlap discards (a card may pair with the one card still covering it) and "
             "unlimited passes: both rule options of our solver, the same rules as theirs."),
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


CHECKS_FILE = Path(__file__).resolve().parents[1] / "data" / "checks.json"
"""Our own checks of the published figures (``bench/one_pass_checks.py`` writes it)."""


@lru_cache(maxsize=1)
def checks() -> tuple[dict, ...]:
    """The rows of ``checks.json``: each a label, wins, deals, rate, interval and command."""
    if not CHECKS_FILE.exists():
        return ()
    return tuple(json.loads(CHECKS_FILE.read_text(encoding="utf-8")))


def check(goal: Goal, kind: str) -> dict | None:
    return next((row for row in checks() if row["goal"] == goal.value and row["kind"] == kind),
                None)


def _rule_options_kind(row: dict) -> str:
    return "unlimited-overlap" if row.get("overlap") else "unlimited"


def checked_row(goal: Goal, kind: str) -> OddsRow | None:
    """One of our rule-option figures as an odds row (its passes are unlimited: the row's
    ``passes`` is only a placeholder, and ``label`` says the rules)."""
    row = next((r for r in checks() if r["goal"] == goal.value and r["kind"] == "rule-options"
                and _rule_options_kind(r) == kind), None)
    if row is None:
        return None
    return OddsRow(goal, 3, 1, row["deals"], row["wins"], row["deals"] - row["wins"],
                   label=row["label"])


def _pct(row: dict) -> str:
    low, high = row["wilson_95"]
    return f"{100 * row['rate']:.2f}% [{100 * low:.2f}, {100 * high:.2f}]"


def one_pass_note(goal: Goal) -> str:
    """Why our one-pass figure and theirs may differ, from our own checks (``checks.json``):
    not the deals (uniform random shuffles and both of PySolFC's generators agree with each
    other), and where the stock's order does not matter, agreement with the same site."""
    shuffles, freecell, twister = (check(goal, kind) for kind in
                                   ("shuffles", "freecell-generator", "mersenne-twister"))
    unlimited = checked_row(Goal.STANDARD, "unlimited")
    if not (shuffles and freecell and twister):
        return ("More than sampling explains, with rules that read the same. We have not "
                "measured where it comes from yet.")
    text = (f"Not the deals: {shuffles['deals']:,} uniform random shuffles give "
            f"{_pct(shuffles)}, and PySolFC's two generators agree with each other "
            f"({freecell['label'].split(', ')[-1]}: {_pct(freecell)}; "
            f"{twister['label'].split(', ')[-1]}: {_pct(twister)}). ")
    if unlimited is not None:
        low, high = unlimited.interval
        text += (f"Where the stock's order hardly matters, unlimited passes, our solver gives "
                 f"{100 * unlimited.rate:.2f}% [{100 * low:.2f}, {100 * high:.2f}] against "
                 "the same site's 66.87%, and 83.15% with overlap discards (below). ")
    return text + ("Our winning lines all replay to a win through the game's own engine, and "
                   "our “not winnable” verdicts agree with a search with every shortcut off "
                   "(docs/solver.md). So the most likely cause is that their one-pass search "
                   "misses some wins; we cannot check their solver.")


def comparisons() -> list[Comparison]:
    """Every published figure against our figure for the same rules (the committed odds, or
    one of our rule-option checks), each one-pass difference explained from our checks."""
    found = []
    for published in PUBLISHED:
        ours = (checked_row(published.goal, published.ours_kind) if published.ours_kind
                else odds_row(Variant(published.goal, published.passes)))
        if ours is None:  # a rule-option figure not measured yet
            continue
        if published.differs_note == ONE_PASS:
            published = replace(published, differs_note=one_pass_note(published.goal))
        found.append(compare(published, ours))
    return found

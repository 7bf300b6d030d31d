"""What others have published about the odds, in the player's language.

``app.odds.published`` keeps each published figure with its sentences in English (the
source's rules, what kind of figure it is, why it may differ from ours), for files and the
CLI; the odds page shows these instead, the same sentences from the catalogs, looked up by the
figure's key (a figure added there without words here shows its English until it has them).
The one-pass note is written again here from our checks, each number in the player's way.
"""

from __future__ import annotations

import re

from app.engine import Goal
from app.odds import published as pub
from app.web.core.i18n import LazyProxy, _l
from app.web.core.i18n import gettext as _
from app.web.core.numbers import format_number

RULES: dict[str, LazyProxy] = {
    "morehead-mott-smith": _l("All 52 cards, one pass through the stock; played by a person"),
    "solitairewinrates-pyramid-once": _l(
        "Pyramid only, stock once, no overlap discards; 100 million random deals"),
    "solitairewinrates-all-once": _l(
        "All cards, stock once, no overlap discards; 100 million random deals"),
    "solitairewinrates-pyramid-unlimited": _l(
        "Pyramid only, unlimited passes, no overlap discards; 100 million random deals"),
    "solitairewinrates-pyramid-unlimited-overlap": _l(
        "Pyramid only, unlimited passes, overlap discards; 100 million random deals"),
    # TRANSLATORS: %(deals)s is how many deals they solved (1,500).
    "chung-pyramid-solver": _l(
        "Pyramid only, three passes (Microsoft Solitaire Collection rules); %(deals)s random "
        "deals"),
}
"""Each figure's rules, as its source states them (``%(deals)s``: how many deals)."""

KINDS: dict[str, LazyProxy] = {
    "morehead-mott-smith": _l("an estimate: “about once in fifty games”"),
    "solitairewinrates-pyramid-once": _l("a solver's count"),
    "solitairewinrates-all-once": _l("a solver's count"),
    "solitairewinrates-pyramid-unlimited": _l("a solver's count"),
    # TRANSLATORS: %(rate)s is their published rate, e.g. 83.15%.
    "solitairewinrates-pyramid-unlimited-overlap": _l(
        "a solver's count (the rate only: %(rate)s)"),
    "chung-pyramid-solver": _l("a solver's count"),
}
"""What kind of figure each one is (``%(rate)s``: their rate)."""

NOTES: dict[str, LazyProxy] = {
    "morehead-mott-smith": _l(
        "An estimate of how often a good player wins, not a count of solved deals. A player on "
        "the first pass cannot see the face-down stock; our solver plays with the order of "
        "every card known, so its rate is what a deal allows at best, and a person's rate can "
        "only be lower."),
    "solitairewinrates-pyramid-once": _l(
        "Their “pyramid only, once, no overlap discards” is our standard goal with one pass: a "
        "pyramid card pairs only once both cards covering it are gone. They solved random "
        "shuffles; we solve PySolFC's numbered deals, a sample of the same shuffles."),
    "solitairewinrates-all-once": _l(
        "“All cards, once, no overlap discards” is our whole-deck goal with one pass, under the "
        "same reading of the rules as the row before. Random shuffles there, PySolFC's "
        "numbered deals here."),
    "solitairewinrates-pyramid-unlimited": _l(
        "Our solver's rule option of unlimited passes (not a game this site plays): the same "
        "rules, on PySolFC's numbered deals. With unlimited passes the order of the stock "
        "hardly matters: every card comes round again."),
    "solitairewinrates-pyramid-unlimited-overlap": _l(
        "Overlap discards (a card may pair with the one card still covering it) and unlimited "
        "passes: both rule options of our solver, the same rules as theirs."),
    # TRANSLATORS: %(deals)s is how many deals they solved (1,500).
    "chung-pyramid-solver": _l(
        "The same rules as our standard goal with three passes: the stock's top card is face up "
        "and pairs with the top of the waste. Only %(deals)s deals, so their own interval is "
        "wide."),
}
"""Why each figure relates to ours as it does."""


def _said(table: dict[str, LazyProxy], published: pub.Published, english: str) -> str:
    """``published``'s sentence from ``table``, its figures written in the player's way."""
    if published.key not in table:
        return english
    return str(table[published.key]) % {
        "rate": format_number(published.rate, 2, percent=True),
        "deals": format_number(published.deals)}


def rules(published: pub.Published) -> str:
    return _said(RULES, published, published.rules)


def kind(published: pub.Published) -> str:
    return _said(KINDS, published, published.kind)


def note(published: pub.Published) -> str:
    return _said(NOTES, published, published.note)


def differs_note(published: pub.Published) -> str:
    """What could explain a difference: the one-pass note from our checks, else the source's
    own note (in English until it has words here)."""
    original = next((p for p in pub.PUBLISHED if p.key == published.key), None)
    if original is not None and original.differs_note == pub.ONE_PASS:
        return one_pass_note(published.goal)
    return published.differs_note


def our_rules(goal: Goal, kind: str | None, first: int, last: int) -> str | None:
    """One of our rule-option figures' rules in words (``ours_kind``), or None for another."""
    values = {"first": format_number(first), "last": format_number(last)}
    if kind == "unlimited":
        return (_("Standard goal, unlimited passes, deals %(first)s..%(last)s", **values)
                if goal is Goal.STANDARD
                else _("Whole deck goal, unlimited passes, deals %(first)s..%(last)s", **values))
    if kind == "unlimited-overlap":
        return (_("Standard goal, unlimited passes, overlap pairs, deals %(first)s..%(last)s",
                  **values) if goal is Goal.STANDARD
                else _("Whole deck goal, unlimited passes, overlap pairs, deals "
                       "%(first)s..%(last)s", **values))
    return None


def _rate(rate: float, low: float, high: float) -> str:
    # TRANSLATORS: a measured rate and its 95% interval, e.g. "9.61% [9.21, 10.03]".
    return _("%(rate)s [%(low)s, %(high)s]", rate=format_number(rate, 2, percent=True),
             low=format_number(100 * low, 2), high=format_number(100 * high, 2))


def _checked(row: dict) -> str:
    low, high = row["wilson_95"]
    return _rate(row["rate"], low, high)


_RANGE = re.compile(r"deals ([\d,]+)\.\.([\d,]+)$")


def _generator(row: dict) -> str:
    """``PySolFC deals 1..31,999``: which of PySolFC's generators dealt a check's deals."""
    found = _RANGE.search(row["label"])
    if found is None:
        return row["label"].split(", ")[-1]
    first, last = (int(value.replace(",", "")) for value in found.groups())
    return _("PySolFC deals %(first)s..%(last)s", first=format_number(first),
             last=format_number(last))


def one_pass_note(goal: Goal) -> str:
    """``app.odds.published.one_pass_note`` in the player's language."""
    shuffles, freecell, twister = (pub.check(goal, kind) for kind in
                                   ("shuffles", "freecell-generator", "mersenne-twister"))
    unlimited = pub.checked_row(Goal.STANDARD, "unlimited")
    if not (shuffles and freecell and twister):
        return _("More than sampling explains, with rules that read the same. We have not "
                 "measured where it comes from yet.")
    parts = [_("Not the deals: %(deals)s uniform random shuffles give %(shuffles)s, and "
               "PySolFC's two generators agree with each other (%(first)s: %(first_rate)s; "
               "%(second)s: %(second_rate)s).", deals=format_number(shuffles["deals"]),
               shuffles=_checked(shuffles), first=_generator(freecell),
               first_rate=_checked(freecell), second=_generator(twister),
               second_rate=_checked(twister))]
    if unlimited is not None:
        low, high = unlimited.interval
        parts.append(_("Where the stock's order hardly matters, unlimited passes, our solver "
                       "gives %(ours)s against the same site's %(theirs)s, and %(overlap)s with "
                       "overlap discards (below).", ours=_rate(unlimited.rate, low, high),
                       theirs=format_number(0.6687, 2, percent=True),
                       overlap=format_number(0.8315, 2, percent=True)))
    parts.append(_("Our winning lines all replay to a win through the game's own engine, and "
                   "our “not winnable” verdicts agree with a search with every shortcut off "
                   "(docs/solver.md). So the most likely cause is that their one-pass search "
                   "misses some wins; we cannot check their solver."))
    return " ".join(parts)

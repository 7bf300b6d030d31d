"""What the odds page shows: the chart's geometry, the table's lines, and each published figure
set against ours with the finding written from the numbers.

Pure functions from the odds rows (``app.odds``) to plain data, so the template only lays
things out and the chart is drawn server-side as inline SVG.
"""

from __future__ import annotations

from dataclasses import dataclass

from app import odds
from app.engine import Variant
from app.web.core.i18n import gettext as _
from app.web.core.i18n import ngettext, pgettext
from app.web.core.names import difficulty_label, goal_label, passes_text, variant_title
from app.web.core.numbers import format_number
from app.web.views import publishedtext

ODDS_WIDTH = 640
ODDS_HEIGHT = 304
ODDS_LEFT = 56      # room for the axis labels
ODDS_RIGHT = 628
ODDS_TOP = 22       # room for a value label above the tallest bar
ODDS_BOTTOM = 246   # the 0% line; pass and goal labels go below it
ODDS_BAR = 54
ODDS_GROUP_PAD = 22
ODDS_CAP = 9        # half the width of a whisker's cap


def pct(share: float | None, places: int = 2) -> str:
    """A share as a percentage: ``66.63%``; ``–`` for nothing."""
    return format_number(share, places, percent=True)


def points(difference: float) -> str:
    """A difference of two shares in percentage points: ``0.42 points``."""
    value = abs(100 * difference)
    # TRANSLATORS: percentage points, a number with two decimals (0.42, 1.00, 12.50).
    return ngettext("%(num)s point", "%(num)s points", 1 if round(value, 2) == 1 else 2,
                    num=format_number(value, 2))


def span(low: str, high: str) -> str:
    """``12.34% to 15.67%``: the two ends of an interval or a range, written."""
    return _("%(low)s to %(high)s", low=low, high=high)


@dataclass(frozen=True, slots=True)
class OddsBar:
    key: str
    goal: str
    x: float
    y: float
    width: float
    height: float
    centre: float
    low_y: float
    high_y: float
    greedy_y: float | None
    label: str
    label_y: float
    pass_label: str
    title: str


@dataclass(frozen=True, slots=True)
class OddsChart:
    bars: list[OddsBar]
    ticks: list[tuple[float, str]]
    groups: list[tuple[float, str]]
    width: int
    height: int
    left: int
    right: int
    bottom: int
    summary: str
    greedy: bool
    cap: int = ODDS_CAP


def _y(share: float) -> float:
    return round(ODDS_BOTTOM - (ODDS_BOTTOM - ODDS_TOP) * share, 2)


def row_sentence(row) -> str:
    """One rule set's figures in a sentence (``app.odds.table.OddsRow``)."""
    low, high = row.interval
    values = {"rules": variant_title(Variant(row.goal, row.passes)),
              "wins": format_number(row.wins), "deals": format_number(row.decided),
              "rate": pct(row.rate), "low": pct(low), "high": pct(high)}
    if row.greedy_rate is not None:
        return _("%(rules)s: %(wins)s of %(deals)s deals winnable, %(rate)s (95%% interval "
                 "%(low)s to %(high)s); the greedy player wins %(greedy)s.",
                 greedy=pct(row.greedy_rate), **values)
    return _("%(rules)s: %(wins)s of %(deals)s deals winnable, %(rate)s (95%% interval "
             "%(low)s to %(high)s).", **values)


def odds_chart(rows) -> OddsChart:
    """Bars of the win rate with best play, in two groups (standard, whole deck) of three
    (1, 2, 3 passes), each with its 95% interval as a whisker and, when measured, the greedy
    player's rate as a mark across the bar."""
    goals = list(dict.fromkeys(row.goal for row in rows))
    group_width = (ODDS_RIGHT - ODDS_LEFT) / len(goals)
    bars, groups = [], []
    for g, goal in enumerate(goals):
        mine = [row for row in rows if row.goal == goal]
        left = ODDS_LEFT + g * group_width + ODDS_GROUP_PAD
        slot = (group_width - 2 * ODDS_GROUP_PAD) / len(mine)
        # TRANSLATORS: a goal under the odds chart's bars, e.g. "Standard (28 cards)".
        groups.append((round(left - ODDS_GROUP_PAD + group_width / 2, 2),
                       ngettext("%(goal)s (%(num)s card)", "%(goal)s (%(num)s cards)",
                                goal.cards_to_clear, goal=goal_label(goal))))
        for i, row in enumerate(mine):
            low, high = row.interval
            x = left + i * slot + (slot - ODDS_BAR) / 2
            y = _y(row.rate)
            bars.append(OddsBar(
                key=row.key, goal=goal.value, x=round(x, 2), y=y, width=ODDS_BAR,
                height=round(ODDS_BOTTOM - y, 2), centre=round(x + ODDS_BAR / 2, 2),
                low_y=_y(low), high_y=_y(high),
                greedy_y=None if row.greedy_rate is None else _y(row.greedy_rate),
                label=pct(row.rate, 1), label_y=round(_y(high) - 7, 2),
                pass_label=passes_text(row.passes), title=row_sentence(row)))
    ticks = [(_y(share / 100), format_number(share / 100, percent=True))
             for share in range(0, 101, 20)]
    summary = " ".join([_("Win rate with best play for each set of rules."),
                        *(row_sentence(row) for row in rows)])
    return OddsChart(bars=bars, ticks=ticks, groups=groups, width=ODDS_WIDTH,
                     height=ODDS_HEIGHT, left=ODDS_LEFT, right=ODDS_RIGHT, bottom=ODDS_BOTTOM,
                     summary=summary, greedy=any(row.greedy_rate is not None for row in rows))


@dataclass(frozen=True, slots=True)
class OddsLine:
    """A row of the odds table."""

    key: str
    rules: str
    deals: str
    range: str
    wins: str
    rate: str
    interval: str
    greedy: str
    worth: str
    provisional: bool
    command: str
    greedy_command: str
    timing: str


def odds_line(row) -> OddsLine:
    low, high = row.interval
    greedy = row.greedy_rate
    if row.seconds:
        workers = row.workers or 1
        timing = ngettext("%(seconds)s s with %(num)s worker",
                          "%(seconds)s s with %(num)s workers", workers,
                          seconds=format_number(row.seconds), num=format_number(workers))
    else:
        timing = ""
    return OddsLine(
        key=row.key, rules=variant_title(Variant(row.goal, row.passes)),
        deals=format_number(row.decided),
        range=span(format_number(row.start), format_number(row.last)),
        wins=format_number(row.wins), rate=pct(row.rate), interval=f"{pct(low)} – {pct(high)}",
        greedy=_("not measured yet") if greedy is None
        else pct(greedy) if row.greedy_measured_on == row.deals
        else _("%(rate)s (deals 1 to %(last)s)", rate=pct(greedy),
               last=format_number(row.greedy_measured_on)),
        # TRANSLATORS: percentage points, a signed number with two decimals (+57.42).
        worth="–" if greedy is None
        else _("%(value)s points", value=format_number(100 * (row.rate - greedy), 2, sign=True)),
        provisional=row.provisional, command=row.command, greedy_command=row.greedy_command,
        timing=timing)


@dataclass(frozen=True, slots=True)
class ComparisonView:
    key: str
    source: str
    url: str
    year: str
    rules: str
    kind: str
    theirs: str
    theirs_detail: str
    ours_rules: str
    ours: str
    ours_detail: str
    verdict: str
    verdict_label: str
    finding: str
    note: str
    differs_note: str


def _lies(case: str, where: str, **values: str) -> str:
    """The finding: where their figure lies against our 95% interval (``inside``, ``above`` or
    ``below`` it, by ``gap``), and what that says for rules expected to give the ``case``'s
    figure. Whole sentences, one for each way it can come out."""
    if case == "same-inside":
        return _("Their figure lies inside our 95%% interval (%(interval)s): no difference "
                 "beyond what sampling explains.", **values)
    if case == "same-overlap":
        return (_("Their figure lies %(gap)s above ours, outside our 95%% interval "
                  "(%(interval)s), but their own 95%% interval overlaps ours: the difference "
                  "is within what sampling explains.", **values) if where == "above"
                else _("Their figure lies %(gap)s below ours, outside our 95%% interval "
                       "(%(interval)s), but their own 95%% interval overlaps ours: the "
                       "difference is within what sampling explains.", **values))
    if case == "same-differs":
        return (_("Their figure lies %(gap)s above ours, outside our 95%% interval "
                  "(%(interval)s), and the two 95%% intervals do not overlap: our rate is the "
                  "lower by more than sampling explains.", **values) if where == "above"
                else _("Their figure lies %(gap)s below ours, outside our 95%% interval "
                       "(%(interval)s), and the two 95%% intervals do not overlap: our rate is "
                       "the higher by more than sampling explains.", **values))
    if case == "higher-differs":  # their figure can only be below ours then
        return _("Their figure lies %(gap)s below ours, outside our 95%% interval "
                 "(%(interval)s), although more passes can only help: more than sampling "
                 "explains, so some other rule must differ.", **values)
    if case == "higher-inside":
        return _("Their figure lies inside our 95%% interval (%(interval)s): the passes after "
                 "the third add at most %(most)s on these figures.", **values)
    if case == "higher":
        return (_("Their figure lies %(gap)s above ours, outside our 95%% interval "
                  "(%(interval)s), as more passes allow: the passes after the third add about "
                  "%(gap)s.", **values) if where == "above"
                else _("Their figure lies %(gap)s below ours, outside our 95%% interval "
                       "(%(interval)s), as more passes allow: the passes after the third add "
                       "about %(gap)s.", **values))
    if case == "lower-differs":  # their figure can only be above ours then
        return _("Their figure lies %(gap)s above ours, outside our 95%% interval "
                 "(%(interval)s), higher than the solver finds possible at best: play that "
                 "cannot see the stock cannot do better than that.", **values)
    if case == "lower-inside":
        return _("Their figure lies inside our 95%% interval (%(interval)s).", **values)
    return (_("Their figure lies %(gap)s below ours, outside our 95%% interval (%(interval)s): "
              "a deal can be won about %(ratio)s times as often as they estimated, by a player "
              "who knew the order of the stock.", **values) if where == "below"
            else _("Their figure lies %(gap)s above ours, outside our 95%% interval "
                   "(%(interval)s): a deal can be won about %(ratio)s times as often as they "
                   "estimated, by a player who knew the order of the stock.", **values))


def comparison_view(comparison) -> ComparisonView:
    """A published figure against ours (``app.odds.published.Comparison``), with the finding written
    from the numbers: whether theirs lies inside our interval, and by how much they differ."""
    published, ours = comparison.published, comparison.ours
    low, high = ours.interval
    ours_interval = span(pct(low), pct(high))
    where = ("inside" if comparison.inside
             else "above" if comparison.difference > 0 else "below")
    values = {"interval": ours_interval, "gap": points(comparison.difference)}
    theirs_interval = published.interval
    if published.deals is None:
        theirs_detail = _("no count of deals given")
    elif theirs_interval is not None:
        theirs_detail = _("%(wins)s of %(deals)s deals; 95%% interval %(low)s to %(high)s",
                          wins=format_number(published.wins),
                          deals=format_number(published.deals),
                          low=pct(theirs_interval[0]), high=pct(theirs_interval[1]))
    else:
        theirs_detail = _("%(wins)s of %(deals)s deals", wins=format_number(published.wins),
                          deals=format_number(published.deals))
    if published.expect == "same":
        case = ("same-inside" if comparison.inside
                else "same-overlap" if comparison.verdict == "agrees" else "same-differs")
    elif published.expect == "higher":
        case = ("higher-differs" if comparison.verdict == "differs"
                else "higher-inside" if comparison.inside else "higher")
        most = max(0.0, (theirs_interval or (published.rate, published.rate))[1] - low)
        values["most"] = points(most)
    else:
        case = ("lower-differs" if comparison.verdict == "differs"
                else "lower-inside" if comparison.inside else "lower")
        values["ratio"] = format_number(ours.rate / published.rate if published.rate else None,
                                        1)
    finding = _lies(case, where, **values)
    if published.expect not in ("same", "higher") and ours.greedy_rate is not None:
        greedy = ours.greedy_rate
        between = greedy <= published.rate <= ours.rate
        finding += " " + (
            _("Our greedy player, who never looks ahead, wins %(rate)s: their estimate lies "
              "between the two.", rate=pct(greedy)) if between
            else _("Our greedy player, who never looks ahead, wins %(rate)s: their estimate "
                   "lies outside that range.", rate=pct(greedy)))
    labels = {"agrees": pgettext("verdict", "Agrees"),
              "consistent": pgettext("verdict", "Consistent"),
              "differs": pgettext("verdict", "Differs")}
    ours_rules = (publishedtext.our_rules(ours.goal, published.ours_kind, ours.start, ours.last)
                  if ours.label else None)
    return ComparisonView(
        key=published.key, source=published.source, url=published.url, year=published.year,
        rules=publishedtext.rules(published), kind=publishedtext.kind(published),
        theirs=pct(published.rate), theirs_detail=theirs_detail,
        ours_rules=ours_rules or ours.label or variant_title(Variant(ours.goal, ours.passes)),
        ours=pct(ours.rate),
        ours_detail=_("%(wins)s of %(deals)s deals; 95%% interval %(interval)s",
                      wins=format_number(ours.wins), deals=format_number(ours.decided),
                      interval=ours_interval),
        verdict=comparison.verdict, verdict_label=labels[comparison.verdict],
        finding=finding, note=publishedtext.note(published),
        differs_note=(publishedtext.differs_note(published)
                      if comparison.verdict == "differs" else ""))


# --- difficulty --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class DifficultyBucket:
    key: str
    """The difficulty's value (``easy``), for the page's data attributes."""
    name: str
    share: float
    count: int
    scores: str
    """The scores the bucket spans, e.g. "25 – 50.5"."""
    mean_par: float
    greedy_share: float


@dataclass(frozen=True, slots=True)
class DifficultyLine:
    """One rule set's buckets, as the odds page lists them."""

    label: str
    start: int
    last: int
    winnable: int
    buckets: list[DifficultyBucket]


def score(value: float) -> str:
    """A difficulty score as the page writes it: ``25``, ``50.5``."""
    return format_number(value, 0 if value == int(value) else 1)


def difficulty_lines() -> list[DifficultyLine]:
    """Each rule set's four buckets: the share of the covered winnable deals in each, the
    scores it spans, and what its deals are like (mean par, how often the greedy player wins)."""
    lines = []
    for variant, row in odds.difficulty_table().items():
        edges = [0.0, *row["cuts"], 100.0]
        buckets = [
            DifficultyBucket(
                key=difficulty.value, name=difficulty_label(difficulty),
                share=row["shares"][difficulty.value],
                count=row["counts"][difficulty.value],
                scores=f"{score(edges[i])} – {score(edges[i + 1])}",
                mean_par=row["by_bucket"][difficulty.value]["mean_par"],
                greedy_share=row["by_bucket"][difficulty.value]["greedy_share"])
            for i, difficulty in enumerate(odds.DIFFICULTIES)]
        lines.append(DifficultyLine(variant_title(variant), row["start"],
                                    row["start"] + row["deals"] - 1, row["winnable"], buckets))
    return lines


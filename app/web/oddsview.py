"""What the odds page shows: the chart's geometry, the table's lines, and each published figure
set against ours with the finding written from the numbers.

Pure functions from the odds rows (``app.odds``) to plain data, so the template only lays
things out and the chart is drawn server-side as inline SVG.
"""

from __future__ import annotations

from dataclasses import dataclass

from app import odds
from app.engine import Variant, passes_text
from app.web.numbers import format_number

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
    value = format_number(abs(100 * difference), 2)
    return f"{value} point{'s' if value != '1.00' else ''}"


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
    """One rule set's figures in a sentence (``app.coach.OddsRow``)."""
    low, high = row.interval
    text = (f"{Variant(row.goal, row.passes).title}: {format_number(row.wins)} of "
            f"{format_number(row.decided)} deals winnable, {pct(row.rate)} "
            f"(95% interval {pct(low)} to {pct(high)})")
    if row.greedy_rate is not None:
        text += f"; the greedy player wins {pct(row.greedy_rate)}"
    return text + "."


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
        groups.append((round(left - ODDS_GROUP_PAD + group_width / 2, 2),
                       f"{goal.label} ({goal.cards_to_clear} cards)"))
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
    ticks = [(_y(share / 100), f"{share}%") for share in range(0, 101, 20)]
    summary = ("Win rate with best play for each set of rules. "
               + " ".join(row_sentence(row) for row in rows))
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
        timing = (f"{format_number(row.seconds)} s with {workers} worker"
                  f"{'s' if workers != 1 else ''}")
    else:
        timing = ""
    return OddsLine(
        key=row.key, rules=Variant(row.goal, row.passes).title,
        deals=format_number(row.decided),
        range=f"{format_number(row.start)} to {format_number(row.last)}",
        wins=format_number(row.wins), rate=pct(row.rate), interval=f"{pct(low)} – {pct(high)}",
        greedy="not measured yet" if greedy is None else pct(greedy) + (
            "" if row.greedy_measured_on == row.deals
            else f" (deals 1 to {format_number(row.greedy_measured_on)})"),
        worth="–" if greedy is None
        else f"{format_number(100 * (row.rate - greedy), 2, sign=True)} points",
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


def comparison_view(comparison) -> ComparisonView:
    """A published figure against ours (``app.coach.Comparison``), with the finding written
    from the numbers: whether theirs lies inside our interval, and by how much they differ."""
    published, ours = comparison.published, comparison.ours
    low, high = ours.interval
    ours_interval = f"{pct(low)} to {pct(high)}"
    gap = points(comparison.difference)
    above = comparison.difference > 0
    theirs_interval = published.interval
    if published.deals is not None:
        theirs_detail = f"{format_number(published.wins)} of {format_number(published.deals)} deals"
        if theirs_interval is not None:
            theirs_detail += (f"; 95% interval {pct(theirs_interval[0])} to "
                              f"{pct(theirs_interval[1])}")
    else:
        theirs_detail = "no count of deals given"
    where = (f"inside our 95% interval ({ours_interval})" if comparison.inside
             else f"{gap} {'above' if above else 'below'} ours, outside our 95% interval "
                  f"({ours_interval})")
    if published.expect == "same":
        if comparison.inside:
            finding = (f"Their figure lies {where}: no difference beyond what sampling "
                       "explains.")
        elif comparison.verdict == "agrees":
            finding = (f"Their figure lies {where}, but their own 95% interval overlaps ours: "
                       "the difference is within what sampling explains.")
        else:
            finding = (f"Their figure lies {where}, and the two 95% intervals do not overlap: "
                       f"our rate is the {'lower' if above else 'higher'} by more than "
                       "sampling explains.")
    elif published.expect == "higher":
        if comparison.verdict == "differs":
            finding = (f"Their figure lies {where}, although more passes can only help: more "
                       "than sampling explains, so some other rule must differ.")
        elif comparison.inside:
            most = max(0.0, (theirs_interval or (published.rate, published.rate))[1] - low)
            finding = (f"Their figure lies {where}: the passes after the third add at most "
                       f"{points(most)} on these figures.")
        else:
            finding = (f"Their figure lies {where}, as more passes allow: the passes after the "
                       f"third add about {gap}.")
    else:
        ratio = format_number(ours.rate / published.rate if published.rate else None, 1)
        if comparison.verdict == "differs":
            finding = (f"Their figure lies {where}, higher than the solver finds possible at "
                       "best: play that cannot see the stock cannot do better than that.")
        elif comparison.inside:
            finding = f"Their figure lies {where}."
        else:
            finding = (f"Their figure lies {where}: a deal can be won about {ratio} times as "
                       "often as they estimated, by a player who knew the order of the stock.")
        greedy = ours.greedy_rate
        if greedy is not None:
            finding += (f" Our greedy player, who never looks ahead, wins {pct(greedy)}: "
                        + ("their estimate lies between the two." if greedy <= published.rate
                           <= ours.rate else "their estimate lies outside that range."))
    labels = {"agrees": "Agrees", "consistent": "Consistent", "differs": "Differs"}
    return ComparisonView(
        key=published.key, source=published.source, url=published.url, year=published.year,
        rules=published.rules, kind=published.kind,
        theirs=pct(published.rate), theirs_detail=theirs_detail,
        ours_rules=ours.label or Variant(ours.goal, ours.passes).title,
        ours=pct(ours.rate),
        ours_detail=(f"{format_number(ours.wins)} of {format_number(ours.decided)} deals; "
                     f"95% interval {ours_interval}"),
        verdict=comparison.verdict, verdict_label=labels[comparison.verdict],
        finding=finding, note=published.note,
        differs_note=published.differs_note if comparison.verdict == "differs" else "")


# --- difficulty --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class DifficultyBucket:
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


def difficulty_lines() -> list[DifficultyLine]:
    """Each rule set's four buckets: the share of the covered winnable deals in each, the
    scores it spans, and what its deals are like (mean par, how often the greedy player wins)."""
    lines = []
    for variant, row in odds.difficulty_table().items():
        edges = [0.0, *row["cuts"], 100.0]
        buckets = [
            DifficultyBucket(
                name=difficulty.label, share=row["shares"][difficulty.value],
                count=row["counts"][difficulty.value],
                scores=f"{edges[i]:g} – {edges[i + 1]:g}",
                mean_par=row["by_bucket"][difficulty.value]["mean_par"],
                greedy_share=row["by_bucket"][difficulty.value]["greedy_share"])
            for i, difficulty in enumerate(odds.DIFFICULTIES)]
        lines.append(DifficultyLine(variant.label, row["start"],
                                    row["start"] + row["deals"] - 1, row["winnable"], buckets))
    return lines


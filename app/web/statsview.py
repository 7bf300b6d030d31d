"""What the statistics page shows: figures as text, the results chart's geometry, history rows.

Pure functions from the store's rows to plain data, so the templates only lay things out and
the chart is drawn server-side as inline SVG (readable with JavaScript off).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from urllib.parse import urlencode

from app.engine import Variant, passes_text
from app.store import Figures

from .view import format_duration

RESULT_LABELS = {"won": "Won", "lost": "Lost", "abandoned": "Abandoned"}


def format_when(moment: datetime | None) -> str:
    """A UTC time as people read it: ``30 Nov 2026, 14:05``."""
    if moment is None:
        return "–"
    moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%-d %b %Y, %H:%M")


def iso(moment: datetime | None) -> str:
    if moment is None:
        return ""
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).isoformat()


def percent(share: float | None) -> str:
    return "–" if share is None else f"{100 * share:.0f}%"


def streak_text(count: int, won: bool | None) -> str:
    if not count or won is None:
        return "–"
    if won:
        return f"{count} win{'s' if count != 1 else ''}"
    return f"{count} loss{'es' if count != 1 else ''}"


@dataclass(frozen=True, slots=True)
class Figure:
    key: str
    label: str
    value: str
    note: str = ""


def figure_list(figures: Figures) -> list[Figure]:
    """The figures of one variant (or the total) in the order the page shows them."""
    if figures.variant is not None:
        average = figures.average_cleared
        cleared = (f"{average:.1f}" if average is not None else "–")
        cleared_note = f"of {figures.variant.to_clear}" if average is not None else ""
    else:
        cleared, cleared_note = percent(figures.average_share), "of the goal's cards"
    return [
        Figure("played", "Played", str(figures.played)),
        Figure("won", "Won", str(figures.won)),
        Figure("win-rate", "Win rate", percent(figures.win_rate)),
        Figure("current-streak", "Current streak",
               streak_text(figures.current_streak, figures.current_streak_won)),
        Figure("longest-winning", "Longest winning streak", str(figures.longest_winning)),
        Figure("longest-losing", "Longest losing streak", str(figures.longest_losing)),
        Figure("best-time", "Best time",
               format_duration(figures.best_seconds) if figures.best_seconds is not None
               else "–"),
        Figure("fewest-moves", "Fewest moves to win",
               str(figures.fewest_moves) if figures.fewest_moves is not None else "–"),
        Figure("average-cleared", "Average cards cleared", cleared, cleared_note),
        Figure("last-played", "Last played", format_when(figures.last_played)),
    ]


# --- the results chart ---------------------------------------------------------------------
CHART_WIDTH = 500   # SVG units; the page stretches it to the card's width
CHART_MIN_SLOTS = 20  # fewer games get wider bars, up to 1/20 of the width each
CHART_GAP = 0.2     # of a slot
CHART_HEIGHT = 100  # the bar height for every card cleared
CHART_TOP = 6       # room above the bars
CHART_MIN_BAR = 6   # a game that cleared nothing still shows


@dataclass(frozen=True, slots=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    status: str
    title: str


@dataclass(frozen=True, slots=True)
class Chart:
    """A bar per game, oldest on the left: height = cards cleared, fill = result."""

    key: str
    bars: list[Bar]
    width: int
    height: int
    summary: str
    items: list[str]


def results_chart(variant: Variant, points: list) -> Chart:
    """The chart of a variant's last games (``points`` oldest first, from recent_results)."""
    bars, items = [], []
    slot = CHART_WIDTH / max(CHART_MIN_SLOTS, len(points))
    counts = {"won": 0, "lost": 0, "abandoned": 0}
    cleared_total = 0
    for index, point in enumerate(points):
        counts[point.status] += 1
        cleared_total += point.cleared
        height = max(CHART_MIN_BAR, CHART_HEIGHT * point.cleared / variant.to_clear)
        deal = f"deal #{point.deal_number}" if point.deal_number else "custom deal"
        text = (f"{RESULT_LABELS[point.status]}, {point.cleared} of {variant.to_clear} "
                f"cleared ({deal}, {format_when(point.finished_at)})")
        bars.append(Bar(x=round(index * slot, 2), y=CHART_TOP + CHART_HEIGHT - height,
                        width=round(slot * (1 - CHART_GAP), 2), height=height,
                        status=point.status, title=text))
        items.append(text)
    n = len(points)
    summary = (f"{variant.title}: the last {n} game{'s' if n != 1 else ''}, oldest first. "
               f"{counts['won']} won, {counts['lost']} lost, {counts['abandoned']} abandoned; "
               f"on average {cleared_total / n:.1f} of {variant.to_clear} cards cleared."
               if n else f"{variant.title}: no games yet.")
    return Chart(key=variant.key, bars=bars, width=CHART_WIDTH,
                 height=CHART_TOP + CHART_HEIGHT + 2, summary=summary, items=items)


# --- the history table -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class HistoryRow:
    id: str
    when: str
    when_iso: str
    deal: str
    deal_link: str | None
    variant: str
    status: str
    result: str
    cleared: str
    moves: int
    hints: int
    time: str


def deal_link(deal_number: str | None, goal: str, passes: int) -> str | None:
    """The share link that starts this deal again with the same rules."""
    if deal_number is None:
        return None
    return f"/deal/{deal_number}?{urlencode({'goal': goal, 'passes': passes})}"


def history_row(row) -> HistoryRow:
    variant = Variant(row.goal, row.passes)
    return HistoryRow(
        id=row.id,
        when=format_when(row.finished_at),
        when_iso=iso(row.finished_at),
        deal=f"#{row.deal_number}" if row.deal_number else "custom",
        deal_link=deal_link(row.deal_number, row.goal, row.passes),
        variant=variant.title,
        status=row.status,
        result=RESULT_LABELS[row.status],
        cleared=f"{row.cleared}/{variant.to_clear}",
        moves=row.move_count,
        hints=row.hints_used or 0,
        time=format_duration(row.seconds or 0),
    )


def page_numbers(page: int, pages: int) -> list[int | None]:
    """Page links to show: the first, the last, and two either side (None marks a gap)."""
    wanted = {1, pages, *range(page - 2, page + 3)}
    shown: list[int | None] = []
    for number in sorted(n for n in wanted if 1 <= n <= pages):
        if shown and shown[-1] is not None and number - shown[-1] > 1:
            shown.append(None)
        shown.append(number)
    return shown


# --- the deal of the day on /stats --------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class DailyRow:
    day: str
    day_iso: str
    variant: str
    variant_key: str
    deal: str
    deal_link: str | None
    status: str
    result: str
    games: int
    cleared: str
    replay: str | None


def format_day(day: date) -> str:
    """A UTC date as people read it: ``Mon 30 Nov 2026``."""
    return day.strftime("%a %-d %b %Y")


def daily_row(result) -> DailyRow:
    """One (day, rules) row of the daily results (``app.store.stats.DailyResult``)."""
    variant = result.variant
    if result.won:
        status, text = "won", "Won"
    else:
        status = result.last_status or "lost"
        text = "Not won" if result.games > 1 else RESULT_LABELS.get(status, "Not won")
    return DailyRow(
        day=format_day(result.day), day_iso=result.day.isoformat(), variant=variant.title,
        variant_key=variant.key,
        deal=f"#{result.deal_number}" if result.deal_number else "custom",
        deal_link=deal_link(result.deal_number, variant.goal.value, variant.passes),
        status=status, result=text, games=result.games,
        cleared=f"{result.best_cleared}/{variant.to_clear}",
        replay=f"/games/{result.last_game_id}/replay" if result.last_game_id else None,
    )


def days_text(count: int) -> str:
    return f"{count} day{'s' if count != 1 else ''}"


def daily_figures(streak) -> list[Figure]:
    """The daily streak (``app.store.stats.DailyStreak``) as figures."""
    return [
        Figure("daily-streak", "Daily streak", days_text(streak.current)),
        Figure("daily-longest", "Longest daily streak", days_text(streak.longest)),
        Figure("daily-days-won", "Days with a daily win", str(streak.days_won)),
        Figure("daily-last-won", "Last daily win",
               format_day(streak.last_won) if streak.last_won else "–"),
    ]


# --- the odds chart (/odds) ---------------------------------------------------------------------
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
    return "–" if share is None else f"{100 * share:.{places}f}%"


def points(difference: float) -> str:
    """A difference of two shares in percentage points: ``0.42 points``."""
    value = abs(100 * difference)
    return f"{value:.2f} point{'s' if f'{value:.2f}' != '1.00' else ''}"


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
    text = (f"{Variant(row.goal, row.passes).title}: {row.wins:,} of {row.decided:,} "
            f"deals winnable, {pct(row.rate)} (95% interval {pct(low)} to {pct(high)})")
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
        timing = (f"{row.seconds:,.0f} s with {workers} worker{'s' if workers != 1 else ''}")
    else:
        timing = ""
    return OddsLine(
        key=row.key, rules=Variant(row.goal, row.passes).title,
        deals=f"{row.decided:,}", range=f"{row.start:,} to {row.last:,}",
        wins=f"{row.wins:,}", rate=pct(row.rate), interval=f"{pct(low)} – {pct(high)}",
        greedy="not measured yet" if greedy is None else pct(greedy),
        worth="–" if greedy is None else f"+{100 * (row.rate - greedy):.2f} points",
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
        theirs_detail = f"{published.wins:,} of {published.deals:,} deals"
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
        ratio = f"{ours.rate / published.rate:.1f}" if published.rate else "–"
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
        ours_rules=Variant(ours.goal, ours.passes).title,
        ours=pct(ours.rate),
        ours_detail=f"{ours.wins:,} of {ours.decided:,} deals; 95% interval {ours_interval}",
        verdict=comparison.verdict, verdict_label=labels[comparison.verdict],
        finding=finding, note=published.note,
        differs_note=published.differs_note if comparison.verdict == "differs" else "")

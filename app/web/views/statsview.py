"""What the statistics page shows: figures as text, the results chart's geometry, history rows.

Pure functions from the store's rows to plain data, so the templates only lay things out and
the chart is drawn server-side as inline SVG (readable with JavaScript off).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from app import odds
from app.engine import GameStatus, Variant
from app.web.core import dates
from app.web.core.dates import iso
from app.web.core.i18n import gettext as _
from app.web.core.i18n import ngettext, pgettext
from app.web.core.names import status_label, variant_title
from app.web.core.numbers import format_number

from .view import format_duration


def format_when(moment: datetime | None) -> str:
    """A UTC time as the player's language writes it: ``Nov 30, 2026, 2:05 PM``."""
    if moment is None:
        return "–"
    return dates.format_moment(moment)


def percent(share: float | None) -> str:
    return format_number(share, percent=True)


def streak_text(count: int, kind: GameStatus | str | None) -> str:
    """The current run as what it holds (``Figures.current_streak_kind``): ``3 wins``, ``2
    losses``, ``1 game abandoned``, ``3 games not won``. Abandoning is no loss."""
    if not count or kind is None:
        return "–"
    shown = format_number(count)
    if kind == GameStatus.WON:
        return ngettext("%(num)s win", "%(num)s wins", count, num=shown)
    if kind == GameStatus.LOST:
        return ngettext("%(num)s loss", "%(num)s losses", count, num=shown)
    if kind == GameStatus.ABANDONED:
        return ngettext("%(num)s game abandoned", "%(num)s games abandoned", count, num=shown)
    return ngettext("%(num)s game not won", "%(num)s games not won", count, num=shown)


@dataclass(frozen=True, slots=True)
class Figure:
    key: str
    label: str
    value: str
    note: str = ""


def figure_list(figures) -> list[Figure]:
    """The figures of one variant (or the total), a ``store.stats.Figures``, in the order the
    page shows them."""
    if figures.variant is not None:
        average = figures.average_cleared
        cleared = format_number(average, 1)
        # TRANSLATORS: after the average of cards cleared, e.g. "20.5 of 28".
        cleared_note = (_("of %(cards)s", cards=format_number(figures.variant.to_clear))
                        if average is not None else "")
    else:
        # TRANSLATORS: after the average share of cards cleared, e.g. "83% of the goal's cards".
        cleared, cleared_note = percent(figures.average_share), _("of the goal's cards")
    return [
        Figure("played", pgettext("figure", "Played"), format_number(figures.played)),
        Figure("won", pgettext("figure", "Won"), format_number(figures.won)),
        Figure("win-rate", _("Win rate"), percent(figures.win_rate)),
        Figure("current-streak", _("Current streak"),
               streak_text(figures.current_streak, figures.current_streak_kind)),
        Figure("longest-winning", _("Longest winning streak"),
               format_number(figures.longest_winning)),
        Figure("longest-losing", _("Longest run without a win"),
               format_number(figures.longest_losing)),
        Figure("best-time", _("Best time"),
               format_duration(figures.best_seconds) if figures.best_seconds is not None
               else "–"),
        Figure("fewest-moves", _("Fewest moves to win"),
               format_number(figures.fewest_moves)),
        Figure("best-score", _("Best score"),
               format_number(figures.best_score)),
        Figure("wins-at-par", _("Wins at par"), format_number(figures.wins_at_par),
               _("in the fewest moves possible")),
        Figure("average-cleared", _("Average cards cleared"), cleared, cleared_note),
        Figure("last-played", _("Last played"), format_when(figures.last_played)),
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
    status: GameStatus
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
    counts = dict.fromkeys((GameStatus.WON, GameStatus.LOST, GameStatus.ABANDONED), 0)
    cleared_total = 0
    for index, point in enumerate(points):
        counts[point.status] += 1
        cleared_total += point.cleared
        height = max(CHART_MIN_BAR, CHART_HEIGHT * point.cleared / variant.to_clear)
        values = {"result": status_label(point.status),
                  "cleared": format_number(point.cleared),
                  "to_clear": format_number(variant.to_clear),
                  "when": format_when(point.finished_at)}
        if point.deal_number:
            # TRANSLATORS: one bar of the results chart, e.g. "Won, 28 of 28 cleared (deal
            # #1234, Nov 30, 2026, 2:05 PM)".
            text = _("%(result)s, %(cleared)s of %(to_clear)s cleared (deal #%(number)s, "
                     "%(when)s)", number=point.deal_number, **values)
        else:
            text = _("%(result)s, %(cleared)s of %(to_clear)s cleared (custom deal, %(when)s)",
                     **values)
        bars.append(Bar(x=round(index * slot, 2), y=round(CHART_TOP + CHART_HEIGHT - height, 1),
                        width=round(slot * (1 - CHART_GAP), 2), height=round(height, 1),
                        status=point.status, title=text))
        items.append(text)
    n = len(points)
    title = variant_title(variant)
    summary = (ngettext(
        "%(rules)s: the last %(num)s game, oldest first. %(won)s won, %(lost)s lost, %(abandoned)s "
        "abandoned; on average %(cleared)s of %(to_clear)s cards cleared.",
        "%(rules)s: the last %(num)s games, oldest first. %(won)s won, %(lost)s lost, "
        "%(abandoned)s abandoned; on average %(cleared)s of %(to_clear)s cards cleared.",
        n, num=format_number(n), rules=title, won=format_number(counts[GameStatus.WON]),
        lost=format_number(counts[GameStatus.LOST]),
        abandoned=format_number(counts[GameStatus.ABANDONED]),
        cleared=format_number(cleared_total / n, 1), to_clear=format_number(variant.to_clear))
        if n else _("%(rules)s: no games yet.", rules=title))
    return Chart(key=variant.key, bars=bars, width=CHART_WIDTH,
                 height=CHART_TOP + CHART_HEIGHT + 2, summary=summary, items=items)


# --- the history table -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class HistoryRow:
    id: str
    when: str
    when_iso: str
    deal: str
    deal_number: str | None
    rules: Variant
    variant: str
    status: GameStatus
    result: str
    cleared: str
    moves: int
    hints: int
    time: str
    score: str
    par: str
    race: str | None = None
    """The key of the race the game was played in (its link), None for any other game."""


def history_row(row) -> HistoryRow:
    variant = Variant(row.goal, row.passes)
    return HistoryRow(
        id=row.id,
        when=format_when(row.finished_at),
        when_iso=iso(row.finished_at),
        deal=f"#{row.deal_number}" if row.deal_number else pgettext("deal", "custom"),
        deal_number=row.deal_number,
        rules=variant,
        variant=variant_title(variant),
        status=row.status,
        result=status_label(row.status),
        cleared=f"{row.cleared}/{variant.to_clear}",
        moves=row.move_count,
        hints=row.hints_used or 0,
        time=format_duration(row.seconds or 0),
        score=format_number(row.score),
        par=format_number(row.par),
        race=getattr(row, "race", None),
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
    deal_number: str | None
    rules: Variant
    status: GameStatus
    result: str
    games: int
    cleared: str
    last_game_id: str | None


def format_day(day: date) -> str:
    """A UTC date as the player's language writes it: ``Mon, Nov 30, 2026``."""
    return dates.format_day(day, "weekday_medium")


def daily_row(result) -> DailyRow:
    """One (day, rules) row of the daily results (``app.store.stats.DailyResult``)."""
    variant = result.variant
    if result.won:
        status, text = GameStatus.WON, status_label(GameStatus.WON)
    else:
        status = result.last_status or GameStatus.LOST
        text = (status_label(status)
                if result.games == 1 and status in (GameStatus.LOST, GameStatus.ABANDONED)
                else _("Not won"))
    return DailyRow(
        day=format_day(result.day), day_iso=result.day.isoformat(),
        variant=variant_title(variant), variant_key=variant.key,
        deal=f"#{result.deal_number}" if result.deal_number else pgettext("deal", "custom"),
        deal_number=result.deal_number, rules=variant,
        status=status, result=text, games=result.games,
        cleared=f"{result.best_cleared}/{variant.to_clear}",
        last_game_id=result.last_game_id,
    )


def days_text(count: int) -> str:
    return ngettext("%(num)s day", "%(num)s days", count, num=format_number(count))


def daily_figures(streak) -> list[Figure]:
    """The daily streak (``app.store.stats.DailyStreak``) as figures."""
    return [
        Figure("daily-streak", _("Daily streak"), days_text(streak.current)),
        Figure("daily-longest", _("Longest daily streak"), days_text(streak.longest)),
        Figure("daily-days-won", _("Days with a daily win"), format_number(streak.days_won)),
        Figure("daily-last-won", _("Last daily win"),
               format_day(streak.last_won) if streak.last_won else "–"),
    ]


# --- wins by difficulty -----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class WinsByDifficulty:
    """A rule set's counted wins of numbered deals, by the deal's committed difficulty."""

    counts: dict[str, int]
    """Difficulty value -> wins, in the buckets' order (easy first), every bucket present."""
    unrated: int
    """Wins of deals the committed difficulty data does not cover yet."""

    @property
    def total(self) -> int:
        return sum(self.counts.values()) + self.unrated


def wins_by_difficulty(wins: list[tuple[int, Variant]]) -> dict[Variant, WinsByDifficulty]:
    """Each rule set's wins (from ``won_deals``) counted by the deal's difficulty."""
    counts = {variant: dict.fromkeys((d.value for d in odds.DIFFICULTIES), 0)
              for _, variant in wins}
    unrated = dict.fromkeys(counts, 0)
    for number, variant in wins:
        facts = odds.deal_facts(number, variant)
        if facts is None:
            unrated[variant] += 1
        else:
            counts[variant][facts.difficulty.value] += 1
    return {variant: WinsByDifficulty(counts[variant], unrated[variant]) for variant in counts}


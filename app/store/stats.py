"""Statistics, history, export and reset: every query about a player's ended games.

Each figure is computed by the database (aggregates and LIMITed look-ups) over the indexes on
(player_id, goal, passes, finished_at, ...), (player_id, seq) and (player_id, goal, passes, seq);
Python only ever sees a handful of rows per variant, so a player with 100,000 games costs no
more memory than one with ten (see bench/stats.py).

What counts (docs/statistics.md): a game is in the statistics once it has ended (won, lost or
abandoned) and had at least one move. Abandoned counts as played and not won. Results run in
the order they were recorded (``seq``, given as each game ends); a streak is a run of wins, or
of games not won (lost or abandoned: the figures say which the current run holds).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from itertools import pairwise
from typing import Any, Literal

from sqlalchemy import ColumnElement, Row, and_, case, delete, func, select
from sqlalchemy.orm import Session

from app.engine import VARIANTS, GameStatus, Variant

from .models import ENDED, GameRecord, Player, rows_changed, utcnow
from .players import player_row

G = GameRecord
HISTORY_PAGE_SIZE = 20
CHART_SIZE = 50
DISPLAY_NAME_MAX = 40


@dataclass(slots=True)
class Figures:
    """The figures of one variant, or of all of them (``variant`` None)."""

    variant: Variant | None = None
    played: int = 0
    won: int = 0
    lost: int = 0
    abandoned: int = 0
    best_seconds: int | None = None
    fewest_moves: int | None = None
    best_score: int | None = None
    # Wins in as few moves as the deal's par (of the wins whose par is known).
    wins_at_par: int = 0
    # Sum of each game's share of its goal's cards cleared (cleared / to_clear).
    cleared_share_sum: float = 0.0
    cleared_sum: int = 0
    last_played: datetime | None = None
    current_streak: int = 0
    current_streak_won: bool | None = None
    longest_winning: int = 0
    longest_losing: int = 0
    # The order (seq) of the latest win, loss and abandoned game: what the current run holds.
    last_won_seq: int | None = None
    last_lost_seq: int | None = None
    last_abandoned_seq: int | None = None

    @property
    def current_streak_kind(self) -> GameStatus | Literal["not won"] | None:
        """What the current run is made of: ``won``, ``lost``, ``abandoned``, or ``not won``
        (losses and abandoned games both); None with no games."""
        if self.current_streak_won is None or not self.current_streak:
            return None
        if self.current_streak_won:
            return GameStatus.WON
        since = self.last_won_seq or 0
        lost = (self.last_lost_seq or 0) > since
        abandoned = (self.last_abandoned_seq or 0) > since
        if lost and abandoned:
            return "not won"
        return GameStatus.LOST if lost else GameStatus.ABANDONED

    @property
    def win_rate(self) -> float | None:
        """Won / played, None with no games (never 0% or NaN for nothing)."""
        return self.won / self.played if self.played else None

    @property
    def average_cleared(self) -> float | None:
        """Cards cleared per game (one variant only: 28 and 52 do not add up)."""
        if not self.played or self.variant is None:
            return None
        return self.cleared_sum / self.played

    @property
    def average_share(self) -> float | None:
        """The average game's share of its goal's cards cleared, 0..1."""
        return self.cleared_share_sum / self.played if self.played else None


@dataclass(slots=True)
class Statistics:
    total: Figures = field(default_factory=Figures)
    variants: dict[Variant, Figures] = field(default_factory=dict)

    def __iter__(self) -> Iterator[Figures]:
        return iter(self.variants.values())


def counted(player_id: str) -> ColumnElement[bool]:
    """The games in a player's statistics: ended, with at least one move, and rated (not
    played "not counted")."""
    return and_(G.player_id == player_id, G.status.in_(ENDED), G.move_count > 0,
                G.rated.is_(True))


def _flag(status: GameStatus) -> ColumnElement[int]:
    return case((G.status == status, 1), else_=0)


def statistics(session: Session, player_id: str) -> Statistics:
    """Every figure of the statistics page, per variant and in total.

    One aggregate over the covering index gives the counts, times, moves, cards and longest
    streaks (each game carries the streak it ends, see places.record_result); then one
    single-row look-up per played variant, and one overall, give the current streaks.
    """
    stats = Statistics(variants={v: Figures(variant=v) for v in VARIANTS})
    won = G.status == GameStatus.WON
    query = (
        select(
            G.goal, G.passes, func.count(), func.sum(_flag(GameStatus.WON)),
            func.sum(_flag(GameStatus.LOST)),
            func.sum(_flag(GameStatus.ABANDONED)),
            func.min(case((won & G.ranked.is_(True), G.seconds))),
            func.min(case((won, G.move_count))), func.sum(G.cleared), func.max(G.finished_at),
            func.max(case((won, G.streak))), func.max(case((~won, G.streak))),
            func.max(case((won, G.streak_all))), func.max(case((~won, G.streak_all))),
            func.max(case((G.ranked.is_(True), G.score))),
            func.sum(case((won & (G.move_count <= G.par), 1), else_=0)),
            func.max(case((won, G.seq))), func.max(case((G.status == GameStatus.LOST, G.seq))),
            func.max(case((G.status == GameStatus.ABANDONED, G.seq))))
        .where(counted(player_id))
        .group_by(G.goal, G.passes)
    )
    total = stats.total
    for (goal, passes, played, n_won, n_lost, n_abandoned, best, fewest, cleared, last,
         win_run, loss_run, win_run_all, loss_run_all, best_score,
         at_par, *last_seqs) in session.execute(query):
        figures = stats.variants.get(Variant(goal, passes))
        if figures is None or figures.variant is None:  # pragma: no cover - the schema
            continue  # allows only these rules, and each has its variant
        figures.played, figures.won, figures.lost, figures.abandoned = (
            played, n_won, n_lost, n_abandoned)
        figures.best_seconds, figures.fewest_moves = best, fewest
        figures.best_score, figures.wins_at_par = best_score, int(at_par or 0)
        figures.cleared_sum = int(cleared or 0)
        figures.cleared_share_sum = figures.cleared_sum / figures.variant.to_clear
        figures.last_played = last
        figures.longest_winning, figures.longest_losing = win_run or 0, loss_run or 0
        figures.last_won_seq, figures.last_lost_seq, figures.last_abandoned_seq = last_seqs
        total.last_won_seq, total.last_lost_seq, total.last_abandoned_seq = (
            _most(a, b) for a, b in zip(
                (total.last_won_seq, total.last_lost_seq, total.last_abandoned_seq), last_seqs,
                strict=True))
        figures.current_streak, figures.current_streak_won = _current(
            session, player_id, figures.variant)
        total.played += played
        total.won += n_won
        total.lost += n_lost
        total.abandoned += n_abandoned
        total.cleared_share_sum += figures.cleared_share_sum
        total.best_seconds = _least(total.best_seconds, best)
        total.fewest_moves = _least(total.fewest_moves, fewest)
        total.best_score = max(total.best_score or 0, best_score or 0) if (
            best_score is not None or total.best_score is not None) else None
        total.wins_at_par += figures.wins_at_par
        total.last_played = last if total.last_played is None else max(total.last_played, last)
        total.longest_winning = max(total.longest_winning, win_run_all or 0)
        total.longest_losing = max(total.longest_losing, loss_run_all or 0)
    if total.played:
        total.current_streak, total.current_streak_won = _current(session, player_id, None)
    return stats


def _least(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else min(a, b)


def _most(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else max(a, b)


def _current(session: Session, player_id: str, variant: Variant | None) -> tuple[int, bool]:
    """The streak the player's latest result ends (in ``variant``, or over all)."""
    run = G.streak if variant is not None else G.streak_all
    query = select(G.status, run).where(counted(player_id))
    if variant is not None:
        query = query.where(G.goal == variant.goal.value, G.passes == variant.passes)
    status, length = session.execute(query.order_by(G.seq.desc()).limit(1)).one()
    return length or 0, status == GameStatus.WON


@dataclass(frozen=True, slots=True)
class ChartPoint:
    game_id: str
    deal_number: str | None
    status: GameStatus
    cleared: int
    finished_at: datetime | None


def recent_results(session: Session, player_id: str, variant: Variant,
                   limit: int = CHART_SIZE) -> list[ChartPoint]:
    """The variant's last ``limit`` results, oldest first (one index range scan)."""
    query = (
        select(G.id, G.deal_number, G.status, G.cleared, G.finished_at)
        .where(counted(player_id), G.goal == variant.goal.value, G.passes == variant.passes)
        .order_by(G.seq.desc())
        .limit(limit)
    )
    return [ChartPoint(*row) for row in reversed(session.execute(query).all())]


HISTORY_COLUMNS = (G.id, G.deal_number, G.goal, G.passes, G.status, G.cleared, G.move_count,
                   G.seconds, G.finished_at, G.hints_used, G.score, G.par)


def history(session: Session, player_id: str, page: int,
            per_page: int = HISTORY_PAGE_SIZE) -> list[Row[*tuple[Any, ...]]]:
    """One page of the player's ended games, newest first (page 1 is the newest), each with
    the race it was played in (``race``: its key, or None)."""
    query = (
        select(*HISTORY_COLUMNS, G.race)
        .where(counted(player_id))
        .order_by(G.seq.desc())
        .offset((page - 1) * per_page)
        .limit(per_page)
    )
    return list(session.execute(query))


def history_size(session: Session, player_id: str) -> int:
    """How many games the history has (for its page count), without the whole aggregate."""
    return session.scalar(select(func.count()).select_from(G).where(counted(player_id))) or 0


def export_rows(session: Session, player_id: str) -> Iterator[Row[*tuple[Any, ...]]]:
    """Every game in the statistics, oldest first, streamed in batches (with move lists)."""
    query = (
        select(*HISTORY_COLUMNS, G.moves, G.deal_text, G.created_at, G.started_at)
        .where(counted(player_id))
        .order_by(G.seq)
        .execution_options(yield_per=1000)
    )
    yield from session.execute(query)


def reset_statistics(session: Session, player_id: str) -> int:
    """Delete the player's ended games (their history and replays go too). Games still in
    progress stay, and count once they end. Returns how many games were deleted. The moment
    is kept: an export made before it does not import (``imports.claim_export``)."""
    player_row(session, player_id).stats_reset_at = utcnow()
    return rows_changed(session.execute(
        delete(G).where(G.player_id == player_id, G.status.in_(ENDED)),
        execution_options={"synchronize_session": False}))


# --- the deal of the day ---------------------------------------------------------------------
DAILY_ROWS = 30


@dataclass(frozen=True, slots=True)
class DailyResult:
    """The player's results on one day's deal of the day under one set of rules (a player may
    play it more than once: each game counts, and one win makes the day won)."""

    day: date
    variant: Variant
    deal_number: str | None
    games: int
    won: int
    best_cleared: int
    last_game_id: str | None
    last_status: GameStatus | None


@dataclass(frozen=True, slots=True)
class DailyStreak:
    """The daily streak: consecutive UTC dates, each with at least one of that date's deals of
    the day won (any rules), ending today or yesterday (so a streak is not lost before the
    day is over). The date is the deal's date (``games.daily``), not when the game ended."""

    current: int = 0
    longest: int = 0
    days_won: int = 0
    last_won: date | None = None


def daily_results(session: Session, player_id: str, limit: int = DAILY_ROWS
                  ) -> list[DailyResult]:
    """The player's deal-of-the-day results, newest day first, one row per (day, rules): the
    counted games only (ended, with a move), like every other figure."""
    won = func.sum(_flag(GameStatus.WON))
    query = (
        select(G.daily, G.goal, G.passes, func.max(G.deal_number), func.count(), won,
               func.max(G.cleared), func.max(G.seq))
        .where(counted(player_id), G.daily.is_not(None))
        .group_by(G.daily, G.goal, G.passes)
        .order_by(G.daily.desc(), G.goal, G.passes)
        .limit(limit)
    )
    rows = session.execute(query).all()
    # The latest game of each row (for its replay and result): one look-up by (player, seq).
    last = {seq: (game_id, status) for seq, game_id, status in session.execute(
        select(G.seq, G.id, G.status).where(
            G.player_id == player_id, G.seq.in_([row[-1] for row in rows])))} if rows else {}
    return [
        DailyResult(day=day, variant=Variant(goal, passes), deal_number=deal, games=games,
                    won=int(n_won or 0), best_cleared=int(cleared or 0),
                    last_game_id=last.get(seq, (None, None))[0],
                    last_status=last.get(seq, (None, None))[1])
        for day, goal, passes, deal, games, n_won, cleared, seq in rows
        if day is not None  # the query's own condition
    ]


def daily_streak(session: Session, player_id: str, today: date) -> DailyStreak:
    """The daily streak (see ``DailyStreak``) on ``today`` (a UTC date). Reads the distinct
    days with a daily win, newest first: one a day at most, a few hundred a year."""
    days = [day for day in session.scalars(
        select(G.daily).where(counted(player_id), G.daily.is_not(None), G.status == GameStatus.WON,
                              G.daily <= today)
        .group_by(G.daily).order_by(G.daily.desc())) if day is not None]
    if not days:
        return DailyStreak()
    longest = run = 1
    for newer, older in pairwise(days):
        run = run + 1 if newer - older == timedelta(days=1) else 1
        longest = max(longest, run)
    current = 0
    if today - days[0] <= timedelta(days=1):
        current = 1
        while current < len(days) and days[current - 1] - days[current] == timedelta(days=1):
            current += 1
    return DailyStreak(current=current, longest=longest, days_won=len(days),
                       last_won=days[0])


# --- the display name ------------------------------------------------------------------------
def display_name(session: Session, player_id: str) -> str | None:
    return session.scalar(select(Player.display_name).where(Player.id == player_id))


def set_display_name(session: Session, player_id: str, name: str | None,
                     now: datetime | None = None) -> None:
    """Set (or, with None, clear) the name; the caller has already checked it."""
    now = now or utcnow()
    player = player_row(session, player_id, now)
    player.display_name = name
    player.updated_at = now
    session.flush()


def won_deals(session: Session, player_id: str) -> list[tuple[int, Variant]]:
    """The deal and rules of each counted win of a numbered deal: the web layer sorts them by
    the committed difficulty of the deal (which the database does not hold)."""
    rows = session.execute(select(G.deal_number, G.goal, G.passes).where(
        counted(player_id), G.status == GameStatus.WON, G.deal_number.is_not(None)))
    return [(int(number), Variant(goal, passes)) for number, goal, passes in rows
            if number is not None]


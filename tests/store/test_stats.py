"""Each statistics figure on hand-built histories, against SQLite (and PostgreSQL in CI); the
deal of the day's results and streak.

Rows are inserted as the game code would leave them once ended (status, finished_at, moves,
cards cleared, seconds), so every figure can be checked against a history worked out by hand.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest

from app.engine import Deal, Goal, Move, Variant
from app.store import (
    GameEnded,
    abandon_in_progress,
    create_game,
    daily_results,
    daily_streak,
    display_name,
    export_rows,
    get_game,
    history,
    load_game,
    recent_results,
    reset_statistics,
    save_position,
    set_display_name,
    statistics,
)
from app.store.games import record_result
from app.store.models import GameRecord
from app.web.views.statsview import figure_list, page_numbers, results_chart

from .store_helpers import TODAY, add_daily

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
_ids = itertools.count()
STD3 = Variant(Goal.STANDARD, 3)
STD1 = Variant(Goal.STANDARD, 1)
WD1 = Variant(Goal.WHOLE_DECK, 1)


def add(session, player: str, status: str, minute: int, *, goal: str = "standard",
        passes: int = 3, moves: int = 30, cleared: int | None = None,
        seconds: int = 100, game_id: str | None = None) -> str:
    """One game as the app stores it, finished ``minute`` minutes after T0."""
    full = 52 if goal == "wholedeck" else 28
    if cleared is None:
        cleared = full if status == "won" else 10
    finished = T0 + timedelta(minutes=minute) if status != "playing" else None
    record = GameRecord(
        id=game_id or f"g{next(_ids):06d}", player_id=player, deal_number=str(100 + minute),
        deal_text=None, goal=goal, passes=passes, moves=" ".join(["draw"] * moves),
        move_count=moves, undo_count=0, status=status, cleared=cleared,
        seconds=seconds if status != "playing" else None,
        created_at=T0, updated_at=finished or T0, finished_at=finished)
    session.add(record)
    session.flush()
    record_result(session, record)  # as the game code does when a game ends
    session.flush()
    return record.id


def figures_of(stats, variant=None):
    return stats.total if variant is None else stats.variants[variant]


def test_no_games_at_all(db):
    with db.session() as session:
        stats = statistics(session, "nobody")
    for figures in [stats.total, *stats]:
        assert figures.played == figures.won == 0
        assert figures.win_rate is None and figures.average_share is None
        assert figures.current_streak == 0 and figures.current_streak_won is None
        assert figures.longest_winning == figures.longest_losing == 0
        assert figures.best_seconds is None and figures.fewest_moves is None
        assert figures.last_played is None
    shown = {f.key: f.value for f in figure_list(stats.total)}
    assert shown["win-rate"] == "–" and shown["current-streak"] == "–"
    assert "NaN" not in str(shown) and "0%" not in str(shown)
    assert len(stats.variants) == 6


def test_every_figure_of_one_variant(db):
    # In finishing order: W W L A W W W L  (A = abandoned: played, not won).
    with db.session() as session:
        add(session, "p", "won", 1, moves=40, seconds=300)
        add(session, "p", "won", 2, moves=35, seconds=250)
        add(session, "p", "lost", 3, moves=12, seconds=50, cleared=8)
        add(session, "p", "abandoned", 4, moves=5, seconds=20, cleared=2)
        add(session, "p", "won", 5, moves=38, seconds=200)
        add(session, "p", "won", 6, moves=50, seconds=400)
        add(session, "p", "won", 7, moves=45, seconds=260)
        add(session, "p", "lost", 8, moves=20, seconds=90, cleared=14)
        stats = statistics(session, "p")
    f = stats.variants[STD3]
    assert (f.played, f.won, f.lost, f.abandoned) == (8, 5, 2, 1)
    assert f.win_rate == pytest.approx(5 / 8)
    assert f.longest_winning == 3
    assert f.longest_losing == 2  # the loss and the abandoned game in a row
    assert (f.current_streak, f.current_streak_won) == (1, False)
    assert f.best_seconds == 200  # the lost games were quicker, but only wins count
    assert f.fewest_moves == 35
    assert f.average_cleared == pytest.approx((28 * 5 + 8 + 2 + 14) / 8)
    assert f.last_played.replace(tzinfo=UTC) == T0 + timedelta(minutes=8)
    shown = {x.key: x.value for x in figure_list(f)}
    assert shown["win-rate"] == "62%" and shown["current-streak"] == "1 loss"
    assert shown["best-time"] == "3:20" and shown["average-cleared"] == "20.5"
    # The other variants are empty, and the total equals this variant.
    assert all(stats.variants[v].played == 0 for v in stats.variants if v != STD3)
    t = stats.total
    assert (t.played, t.won, t.longest_winning, t.longest_losing) == (8, 5, 3, 2)


@pytest.mark.parametrize(("results", "current", "won", "longest_win", "longest_loss"), [
    ("W", 1, True, 1, 0),
    ("L", 1, False, 0, 1),
    ("A", 1, False, 0, 1),
    ("WWWW", 4, True, 4, 0),
    ("LWWW", 3, True, 3, 1),
    ("WWWL", 1, False, 3, 1),
    ("WLWLW", 1, True, 1, 1),
    ("LLALWLL", 2, False, 1, 4),
    ("WWLLLWW", 2, True, 2, 3),
])
def test_streak_edges(db, results, current, won, longest_win, longest_loss):
    status = {"W": "won", "L": "lost", "A": "abandoned"}
    with db.session() as session:
        for minute, letter in enumerate(results):
            add(session, "p", status[letter], minute)
        f = statistics(session, "p").variants[STD3]
    assert (f.current_streak, f.current_streak_won) == (current, won)
    assert (f.longest_winning, f.longest_losing) == (longest_win, longest_loss)


def test_streaks_per_variant_and_in_total_run_in_finishing_order(db):
    with db.session() as session:
        add(session, "p", "won", 1)                                   # standard 3
        add(session, "p", "lost", 2, goal="wholedeck", passes=1)      # whole deck 1
        add(session, "p", "won", 3)                                   # standard 3
        add(session, "p", "won", 4, passes=1)                         # standard 1
        stats = statistics(session, "p")
    assert (stats.variants[STD3].current_streak, stats.variants[STD3].longest_winning) == (2, 2)
    assert stats.variants[WD1].current_streak_won is False
    assert stats.variants[STD1].current_streak == 1
    # Over all games: W L W W
    assert (stats.total.current_streak, stats.total.current_streak_won) == (2, True)
    assert (stats.total.longest_winning, stats.total.longest_losing) == (2, 1)


def test_results_run_in_the_order_they_were_recorded_even_at_equal_times(db):
    with db.session() as session:
        first = add(session, "p", "lost", 1, game_id="b1")
        second = add(session, "p", "won", 1, game_id="a1")
        f = statistics(session, "p").variants[STD3]
        assert [r.id for r in history(session, "p", 1)] == [second, first]
    assert (f.current_streak, f.current_streak_won) == (1, True)


def test_what_does_not_count(db):
    """No moves, still playing, or someone else's: none of it is in the statistics."""
    with db.session() as session:
        add(session, "p", "lost", 1, moves=0)       # a deal lost before any move
        add(session, "p", "abandoned", 2, moves=0)  # an old empty game left behind
        add(session, "p", "playing", 3, moves=12)   # in progress
        add(session, "someone-else", "won", 4)
        add(session, "p", "won", 5)
        stats = statistics(session, "p")
        rows = history(session, "p", 1)
    assert (stats.total.played, stats.total.won) == (1, 1)
    assert [row.status for row in rows] == ["won"]


def test_the_total_averages_shares_of_each_goal(db):
    with db.session() as session:
        add(session, "p", "lost", 1, cleared=14)                          # half of 28
        add(session, "p", "won", 2, goal="wholedeck", passes=1)           # all of 52
        add(session, "p", "won", 3, goal="wholedeck", passes=1, moves=60, seconds=50)
        stats = statistics(session, "p")
    assert stats.total.average_share == pytest.approx((0.5 + 1 + 1) / 3)
    assert stats.total.average_cleared is None  # 28s and 52s do not add up
    assert stats.variants[WD1].average_cleared == 52
    assert stats.total.best_seconds == 50 and stats.total.fewest_moves == 30
    assert {f.key: f.value for f in figure_list(stats.total)}["average-cleared"] == "83%"


def test_chart_keeps_the_last_50_results_oldest_first(db):
    with db.session() as session:
        for minute in range(60):
            add(session, "p", "won" if minute % 3 == 0 else "lost", minute, cleared=None)
        add(session, "p", "abandoned", 70, cleared=0, passes=1)
        points = recent_results(session, "p", STD3)
        other = recent_results(session, "p", STD1)
    assert len(points) == 50
    assert [p.finished_at.replace(tzinfo=UTC) for p in points] == [
        T0 + timedelta(minutes=m) for m in range(10, 60)]
    chart = results_chart(STD3, points)
    assert len(chart.bars) == 50 and chart.width == 500
    assert chart.bars[0].x == 0 and chart.bars[-1].x == 490 and chart.bars[0].width == 8
    won_bar = next(b for b in chart.bars if b.status == "won")
    assert won_bar.height == 100 and "Won, 28 of 28" in won_bar.title
    assert "16 won, 34 lost, 0 abandoned" in chart.summary  # minutes 12, 15 .. 57
    empty = results_chart(STD1, other)
    assert empty.bars[0].status == "abandoned" and empty.bars[0].height > 0
    assert empty.bars[0].width == 20  # one game: a bar 1/20 of the width, not a sliver


def test_history_pages_newest_first(db):
    with db.session() as session:
        ids = [add(session, "p", "won", minute) for minute in range(45)]
        first = history(session, "p", 1)
        third = history(session, "p", 3)
        beyond = history(session, "p", 4)
    assert [r.id for r in first] == ids[::-1][:20]
    assert [r.id for r in third] == ids[::-1][40:]
    assert beyond == []
    assert page_numbers(1, 3) == [1, 2, 3]
    assert page_numbers(10, 40) == [1, None, 8, 9, 10, 11, 12, None, 40]


def test_export_reset_and_display_name(db):
    with db.session() as session:
        add(session, "p", "won", 1)
        add(session, "p", "lost", 2)
        add(session, "p", "playing", 3)
        add(session, "q", "won", 4)
        rows = list(export_rows(session, "p"))
        assert [r.status for r in rows] == ["won", "lost"]
        assert rows[0].moves.startswith("draw")
        assert reset_statistics(session, "p") == 2
        assert statistics(session, "p").total.played == 0
        assert statistics(session, "q").total.played == 1
        assert session.query(GameRecord).filter_by(player_id="p").count() == 1  # in progress
        assert display_name(session, "p") is None
        set_display_name(session, "p", "<b>Ada</b>")
        assert display_name(session, "p") == "<b>Ada</b>"
        set_display_name(session, "p", None)
        assert display_name(session, "p") is None


def test_leaving_games_abandons_only_those_with_moves_exactly_once(db):
    with db.session() as session:
        empty = create_game(session, "p", Deal.from_number(1), "standard", 3, now=T0)
        started = create_game(session, "p", Deal.from_number(2), "standard", 3, now=T0)
        game = load_game(started)
        game.play(Move.draw())
        save_position(session, started, game, now=T0 + timedelta(seconds=5))
        kept = create_game(session, "p", Deal.from_number(3), "standard", 3, now=T0)
        game = load_game(kept)
        game.play(Move.draw())
        save_position(session, kept, game, now=T0 + timedelta(seconds=6))
        theirs = create_game(session, "q", Deal.from_number(2), "standard", 3, now=T0)
        game = load_game(theirs)
        game.play(Move.draw())
        save_position(session, theirs, game)
        assert abandon_in_progress(session, "p", keep=kept.id,
                                   now=T0 + timedelta(seconds=40)) == 1
        assert abandon_in_progress(session, "p", keep=kept.id) == 0
        assert (empty.status, started.status, kept.status, theirs.status) == (
            "playing", "abandoned", "playing", "playing")
        assert started.seconds == 35 and started.cleared == 0  # timed from its first move
        stats = statistics(session, "p")
        assert (stats.total.played, stats.total.abandoned, stats.total.won) == (1, 1, 0)
        # Abandoned is final: no more moves can be saved into it.
        record = get_game(session, started.id)
        game = load_game(record)
        game.play(Move.draw())
        with pytest.raises(GameEnded):
            save_position(session, record, game)


def test_the_migration_fills_in_games_stored_before_it(database_url):
    """Games from revision 0001 get cards cleared, seconds, and their order and streaks."""
    from alembic import command
    from sqlalchemy import text

    from app.prestart import alembic_config
    from app.store import Database

    config = alembic_config(database_url)
    command.downgrade(config, "0001")
    database = Database(database_url)
    insert = text(
        "INSERT INTO games (id, player_id, deal_number, goal, passes, moves, move_count, "
        "undo_count, status, created_at, updated_at, finished_at, version) VALUES "
        "(:id, 'old', '3', 'standard', 3, :moves, :count, 0, :status, :created, :updated, "
        ":finished, 1)")
    with database.engine.begin() as connection:
        connection.execute(insert, {"id": "w1", "moves": "KS draw", "count": 2,
                                    "status": "lost", "created": T0,
                                    "updated": T0 + timedelta(seconds=50),
                                    "finished": T0 + timedelta(seconds=50)})
        connection.execute(insert, {"id": "a1", "moves": "KS", "count": 1,
                                    "status": "abandoned", "created": T0,
                                    "updated": T0 + timedelta(seconds=80), "finished": None})
    database.dispose()
    command.upgrade(config, "head")
    database = Database(database_url)
    try:
        with database.session() as session:
            lost, left = session.get(GameRecord, "w1"), session.get(GameRecord, "a1")
            assert (lost.cleared, lost.seconds, lost.seq, lost.streak) == (1, 50, 1, 1)
            assert (left.cleared, left.seconds, left.seq, left.streak) == (1, 80, 2, 2)
            assert left.finished_at is not None
            stats = statistics(session, "old")
            assert (stats.total.played, stats.total.longest_losing) == (2, 2)
    finally:
        database.dispose()


# --- the deal of the day: its results and streak -----------------------------------------------
@pytest.mark.parametrize(("won_days_ago", "current", "longest"), [
    ([], 0, 0),
    ([0], 1, 1),
    ([1], 1, 1),                  # yesterday still counts: today is not over
    ([2], 0, 1),                  # a missed day ends the streak
    ([0, 1, 2, 4, 5], 3, 3),
    ([1, 2, 3, 5, 6, 7, 8], 3, 4),
    ([3, 4, 5, 6], 0, 4),
])
def test_the_daily_streak(db, won_days_ago, current, longest):
    with db.session() as session:
        for ago in won_days_ago:
            add_daily(session, "p", TODAY - timedelta(days=ago), "won")
        streak = daily_streak(session, "p", TODAY)
        assert (streak.current, streak.longest, streak.days_won) == (
            current, longest, len(won_days_ago))
        assert streak.last_won == (TODAY - timedelta(days=min(won_days_ago))
                                   if won_days_ago else None)


def test_what_counts_for_the_daily_streak(db):
    with db.session() as session:
        add_daily(session, "p", TODAY, "won", goal="wholedeck", passes=1)
        add_daily(session, "p", TODAY, "won")  # two wins on one day: still one day
        add_daily(session, "p", TODAY - timedelta(days=1), "lost")
        add_daily(session, "p", TODAY - timedelta(days=1), "abandoned")
        add_daily(session, "p", None, "won")  # not a deal of the day
        add_daily(session, "p", TODAY - timedelta(days=1), "won", moves=0)  # no moves
        add_daily(session, "q", TODAY - timedelta(days=1), "won")  # another player
        streak = daily_streak(session, "p", TODAY)
        assert (streak.current, streak.longest, streak.days_won) == (1, 1, 1)


def test_daily_results_one_row_per_day_and_rules_newest_first(db):
    with db.session() as session:
        yesterday = TODAY - timedelta(days=1)
        add_daily(session, "p", yesterday, "lost", deal=11)
        add_daily(session, "p", yesterday, "won", deal=11)
        last = add_daily(session, "p", yesterday, "abandoned", deal=11)
        add_daily(session, "p", yesterday, "lost", goal="wholedeck", passes=2, deal=12)
        add_daily(session, "p", TODAY, "won", passes=1, deal=13)
        add_daily(session, "p", None, "won")
        rows = daily_results(session, "p")
        assert [(r.day, r.variant.key, r.games, r.won) for r in rows] == [
            (TODAY, "standard-1", 1, 1),
            (yesterday, "standard-3", 3, 1),
            (yesterday, "wholedeck-2", 1, 0),
        ]
        assert rows[1].deal_number == "11" and rows[1].last_game_id == last
        assert rows[1].best_cleared == 28 and rows[2].last_status == "lost"
        assert daily_results(session, "p", limit=1) == rows[:1]

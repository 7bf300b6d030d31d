"""Moves known before they are played, in the store, SQLite always and
PostgreSQL too when TEST_DATABASE_URL is set: a winning line shown is kept in one write, a page
seen again writes nothing, and which moves of a game were given or shown outside it (to its
player anywhere, to anyone at its address; 0010's rows, without a game, as then)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import event, func, select

from app.store import moves_known_elsewhere, note_given_hint, note_shown_line
from app.store.models import GivenHint

NOW = datetime(2026, 12, 7, tzinfo=UTC)
FORGET = NOW - timedelta(days=9)
LINE = [(f"p{k:02d}".ljust(64, "x"), f"m{k}") for k in range(100)]


def inserts(db):
    """A list that fills with each INSERT the engine runs (one per statement, not per row)."""
    seen: list[str] = []

    @event.listens_for(db.engine, "before_cursor_execute")
    def watch(conn, cursor, statement, parameters, context, executemany):
        if statement.lstrip().upper().startswith("INSERT"):
            seen.append(statement)

    return seen


def test_a_line_shown_is_kept_in_one_write_and_once(db):
    seen = inserts(db)
    with db.session() as session:
        written = note_shown_line(session, LINE, address="a1", player_id="viewer",
                                  game_id="g-analysed", now=NOW, forget_before=FORGET)
    assert written == 100 and len(seen) == 1
    with db.session() as session:  # the page again: nothing new
        assert note_shown_line(session, LINE[:40], address="a1", player_id="viewer",
                               game_id="g-analysed", now=NOW, forget_before=FORGET) == 0
    assert len(seen) == 1
    with db.sessions() as session:
        assert session.scalar(select(func.count()).select_from(GivenHint)) == 100


def test_which_moves_were_known_elsewhere(db):
    with db.session() as session:
        note_shown_line(session, LINE[:3], address="home", player_id="bob",
                        game_id="bob-lost", now=NOW, forget_before=FORGET)
        note_given_hint(session, position=LINE[3][0], move=LINE[3][1], address="home",
                        player_id="bob", game_id="bob-answer", now=NOW, forget_before=FORGET)
        note_shown_line(session, LINE[4:6], address="home", player_id="throwaway",
                        game_id="t-lost", now=NOW, forget_before=FORGET)
        note_shown_line(session, LINE[6:7], address="elsewhere", player_id="stranger",
                        game_id="s-lost", now=NOW, forget_before=FORGET)
        session.add(GivenHint(position=LINE[7][0], move=LINE[7][1], address="home",
                              player_id="throwaway", given_at=NOW))  # a row from 0010
        session.add(GivenHint(position=LINE[8][0], move=LINE[8][1], address="home",
                              player_id="bob", given_at=NOW))  # 0010: his own, not matched
    with db.sessions() as session:
        known = moves_known_elsewhere(session, LINE[:10], address="home", player_id="bob",
                                      game_id="bob-answer")
        # His own lines from another game and the throwaway's at his address count; the hint
        # asked in this game itself, a stranger's elsewhere, and another move do not.
        assert known == {*LINE[:3], *LINE[4:6], LINE[7]}
        # From another address, Bob's own knowledge still follows him; the throwaway's not.
        away = moves_known_elsewhere(session, LINE[:10], address="cafe", player_id="bob",
                                     game_id="bob-answer")
        assert away == set(LINE[:3])
        # A move known at a position is not another move there.
        other = [(LINE[0][0], "draw")]
        assert moves_known_elsewhere(session, other, address="home", player_id="bob",
                                     game_id="bob-answer") == set()


def test_rows_older_than_kept_go_when_a_line_is_written(db):
    with db.session() as session:
        session.add(GivenHint(position="old".ljust(64, "x"), move="draw", address="a",
                              player_id="p", game_id="g", given_at=FORGET - timedelta(hours=1)))
    with db.session() as session:
        note_shown_line(session, LINE[:2], address="a", player_id="p", game_id="g2", now=NOW,
                        forget_before=FORGET)
    with db.sessions() as session:
        assert sorted(session.scalars(select(GivenHint.move))) == ["m0", "m1"]

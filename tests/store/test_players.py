"""A player's choices in the store (``app.store.players``, the display name in
``app.store.stats``), against SQLite and, in CI, PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import event, text

from app.store import (
    display_name,
    remember_winnable_only,
    set_display_name,
    wants_winnable_only,
)


@pytest.mark.parametrize("choose", [
    lambda session, player: remember_winnable_only(session, player, True),
    lambda session, player: set_display_name(session, player, "Ada"),
], ids=["winnable-only", "display-name"])
def test_a_players_first_choices_made_at_once_both_stick(db, choose):
    """Two tabs of a new player: the other tab's row appears between this request's look for
    a row and its insert. Neither request fails, and the row holds this request's choice."""
    raced: list[str] = []

    def other_tab_first(_conn, _cursor, statement, *_args) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO PLAYERS") and not raced:
            raced.append(statement)
            with db.engine.connect() as other:  # a connection of its own: the other tab
                other.execute(text("INSERT INTO players (id, winnable_only, created_at, "
                                   "updated_at) VALUES ('p1', false, :now, :now)"),
                              {"now": datetime.now(UTC)})
                other.commit()

    event.listen(db.engine, "before_cursor_execute", other_tab_first)
    try:
        with db.session() as session:
            choose(session, "p1")
    finally:
        event.remove(db.engine, "before_cursor_execute", other_tab_first)
    assert raced
    with db.session() as session:
        assert wants_winnable_only(session, "p1") or display_name(session, "p1") == "Ada"

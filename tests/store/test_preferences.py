"""A player's preferences in the store (``app.store.players``): a small flat JSON object, a row
only once the player chooses something, read back forgivingly; against SQLite and, in CI,
PostgreSQL. Which keys and values exist is the web layer's (tests/web/test_preferences.py)."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select, update

from app.store import page_facts, preferences_of, save_preferences
from app.store.models import Player
from tests.store.store_helpers import add_daily


def rows(session) -> int:
    return session.scalar(select(func.count()).select_from(Player))


def test_saved_choices_read_back_and_replace_the_earlier_ones(db):
    with db.session() as session:
        save_preferences(session, "p1", {"theme": "dark", "sound": False})
    with db.session() as session:
        assert preferences_of(session, "p1") == {"theme": "dark", "sound": False}
        save_preferences(session, "p1", {"felt": "blue"})
    with db.session() as session:
        assert preferences_of(session, "p1") == {"felt": "blue"}


def test_a_player_needs_no_row_until_they_choose_something(db):
    with db.session() as session:
        assert preferences_of(session, "nobody") == {}
        save_preferences(session, "nobody", {})
        assert rows(session) == 0
        save_preferences(session, "p1", {"theme": "dark"})
        save_preferences(session, "p1", {})  # back to the defaults: the row stays, emptied
        assert rows(session) == 1
        assert session.get(Player, "p1").preferences is None


@pytest.mark.parametrize("choices", [
    {"theme": ["dark"]}, {"theme": {"a": 1}}, {"theme": 3}, {"theme": None},
    {"theme": "x" * 33}, {"": True}, {"k" * 33: True},
])
def test_values_that_are_not_a_short_name_or_a_switch_are_refused(db, choices):
    with db.session() as session:
        with pytest.raises(ValueError):
            save_preferences(session, "p1", choices)
        assert rows(session) == 0


@pytest.mark.parametrize("stored", ["not json", "[1, 2]", '"dark"', '{"theme": [1], "sound": 0}'])
def test_a_column_holding_something_else_reads_as_no_choices(db, stored):
    with db.session() as session:
        save_preferences(session, "p1", {"theme": "dark"})
        session.execute(update(Player).where(Player.id == "p1").values(preferences=stored))
        assert preferences_of(session, "p1") == {}
        assert page_facts(session, "p1").choices == {}


def test_another_players_preferences_are_untouched(db):
    with db.session() as session:
        save_preferences(session, "p1", {"theme": "dark"})
        save_preferences(session, "p2", {"theme": "contrast", "sound": False})
        save_preferences(session, "p1", {"felt": "red"})
    with db.session() as session:
        assert preferences_of(session, "p2") == {"theme": "contrast", "sound": False}


def test_page_facts_say_whether_a_game_of_the_player_has_ended(db):
    with db.session() as session:
        assert page_facts(session, "p1") == page_facts(session, "nobody")
        assert not page_facts(session, "p1").played
        save_preferences(session, "p1", {"back": "rosette"})
        add_daily(session, "p2", None, "won")  # someone else's game
        facts = page_facts(session, "p1")
        assert facts.choices == {"back": "rosette"} and not facts.played
        add_daily(session, "p1", None, "abandoned")
        assert page_facts(session, "p1").played

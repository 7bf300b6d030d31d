"""What a player chose to remember between games (the display name is in stats.py, with the
statistics it is shown on), and the player's row that holds it."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import exists, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from .models import ENDED, GameRecord, Player, utcnow

log = logging.getLogger("pyramid.store")

Choice = str | bool
"""A stored preference's value: the settings page offers only choices among names, and
switches."""


def player_row(session: Session, player_id: str, now: datetime | None = None) -> Player:
    """The player's row, made on first use.

    ``INSERT ... ON CONFLICT DO NOTHING`` rather than look-then-add: a player's first two
    choices made at once (two tabs) would both find no row and both add one, and the second
    would break the primary key. Both SQLite and PostgreSQL take this form.
    """
    player = session.get(Player, player_id)
    if player is not None:
        return player
    now = now or utcnow()
    insert = postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert
    session.execute(insert(Player).values(id=player_id, created_at=now, updated_at=now)
                    .on_conflict_do_nothing(index_elements=[Player.id]))
    player = session.get(Player, player_id)
    assert player is not None
    return player


def wants_winnable_only(session: Session, player_id: str) -> bool:
    """The player's last choice of "Winnable deals only" on the new-game form."""
    return bool(session.scalar(select(Player.winnable_only).where(Player.id == player_id)))


def remember_winnable_only(session: Session, player_id: str, value: bool) -> None:
    """Keep the choice (a player needs a row only once they choose something)."""
    player = session.get(Player, player_id)
    if player is None:
        if not value:
            return
        player = player_row(session, player_id)
    if player.winnable_only != value:
        player.winnable_only = value
        player.updated_at = utcnow()
    session.flush()


# --- preferences: the settings page's choices --------------------------------------------------
def _read_choices(text: str | None, player_id: str) -> dict[str, Choice]:
    """The JSON object in ``text``, its string and boolean values only; {} when there is none.

    A value the column should never hold (text that is not JSON, a list) is logged and
    skipped rather than raised: a page must never fail because of a player's theme."""
    if not text:
        return {}
    try:
        data = json.loads(text)
    except ValueError:
        log.warning("Player %s: preferences are not JSON; using the defaults", player_id)
        return {}
    if not isinstance(data, dict):
        log.warning("Player %s: preferences are not a JSON object; using the defaults",
                    player_id)
        return {}
    return {key: value for key, value in data.items()
            if isinstance(key, str) and isinstance(value, str | bool)}


def preferences_of(session: Session, player_id: str) -> dict[str, Choice]:
    """The choices the player has saved (only those differing from the defaults); {} when
    none. Which keys and values exist is the web layer's ``Preferences``."""
    text = session.scalar(select(Player.preferences).where(Player.id == player_id))
    return _read_choices(text, player_id)


def save_preferences(session: Session, player_id: str, choices: Mapping[str, Choice]) -> None:
    """Keep ``choices`` as the player's whole set of saved preferences (replacing any before).

    Refuses (ValueError) a key that is not a short name or a value that is neither a short
    string nor a boolean, so the column only ever holds a small flat JSON object. Saving no
    choices for a player without a row makes none: players need a row only once they choose.
    """
    for key, value in choices.items():
        if not (isinstance(key, str) and 0 < len(key) <= 32):
            raise ValueError(f"not a preference name: {key!r}")
        if not (isinstance(value, bool) or (isinstance(value, str) and len(value) <= 32)):
            raise ValueError(f"not a preference value for {key}: {value!r}")
    text = json.dumps(dict(sorted(choices.items())), separators=(",", ":")) if choices else None
    player = session.get(Player, player_id)
    if player is None:
        if text is None:
            return
        player = player_row(session, player_id)
    if player.preferences != text:
        player.preferences = text
        player.updated_at = utcnow()
    session.flush()


@dataclass(frozen=True, slots=True)
class PageFacts:
    """What every page needs to know about its player before drawing anything."""

    choices: dict[str, Choice] = field(default_factory=dict)
    played: bool = False
    """Whether any of the player's games has ended (won, lost or abandoned)."""


def page_facts(session: Session, player_id: str) -> PageFacts:
    """The player's saved preferences and whether they have finished a game, in one round
    trip (every page asks, before its first paint)."""
    stored = select(Player.preferences).where(Player.id == player_id).scalar_subquery()
    ended = exists().where(GameRecord.player_id == player_id, GameRecord.status.in_(ENDED))
    text, played = session.execute(select(stored, ended)).one()
    return PageFacts(_read_choices(text, player_id), bool(played))

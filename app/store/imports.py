"""Importing a player's exported games (``/stats/export.json``) into another browser's player.

Only a file this server exported is taken: the export is signed (an HMAC over its games, keyed
by SECRET_KEY; checked by ``app.web.services.gamesfile``), so nobody can import a result they
did not play. Each game is replayed through the engine all the same (``prepare_game``), and must
end as the file says. A game already here (the same deal, rules, moves and end) is skipped
(``store_games``), so importing twice adds nothing. Imported games are appended to the player's
results in the file's order, oldest first.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.engine import Deal, Game, GameStatus, Move, Refusal, Refused

from .clock import as_utc
from .games import ResultPlaces, lock_player_results, new_game_id
from .models import GameRecord, ImportedExport, ImportProgress, Player, utcnow
from .refusals import StoreCode

IMPORT_LIMIT = 20_000
"""Games one import may hold."""


class ImportRefused(ValueError):
    """The file is not a whole, unedited export of this server: ``refusal`` says why (a
    ``StoreCode``'s), the message in English."""

    def __init__(self, message: str, refusal: Refusal | None = None) -> None:
        super().__init__(message)
        self.refusal = refusal


@dataclass(frozen=True, slots=True)
class Imported:
    added: int
    skipped: int


def _when(text: str | None) -> datetime | None:
    if not text:
        return None
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def prepare_game(player_id: str, game: dict[str, Any]) -> dict[str, Any]:
    """The row's values for one exported game, after replaying it through the engine (raises
    ImportRefused): pure work, no database, so a whole file is checked before any is stored."""
    try:
        deal = (Deal.from_number(int(game["deal"])) if game.get("deal") is not None
                else Deal.from_text(game["custom_deal"]))
        moves = [Move.from_text(text) for text in (game.get("move_list") or "").split()]
        replayed = Game.replay(deal, game["goal"], int(game["passes"]), moves)
        status = GameStatus(game["result"])
        finished = _when(game.get("finished_at")) or utcnow()
        started = _when(game.get("started_at")) or finished
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        why = exc.refusal.to_dict() if isinstance(exc, Refused) else None
        raise ImportRefused(f"Game {str(game.get('id'))[:40]!r} cannot be read: "
                            f"{str(exc)[:200]}",
                            Refusal(StoreCode.IMPORT_UNREADABLE,
                                    {"game": str(game.get("id"))[:40], "why": why})) from None
    ended = replayed.status if replayed.is_over() else GameStatus.ABANDONED
    if ended != status or not status.ended or not moves:
        raise ImportRefused(f"Game {str(game.get('id'))[:40]!r} does not end as the file says.",
                            Refusal(StoreCode.IMPORT_WRONG_END,
                                    {"game": str(game.get("id"))[:40]}))
    return dict(
        id=str(game.get("id"))[:24], player_id=player_id,
        deal_number=str(deal.number) if deal.number is not None else None,
        deal_text=None if deal.number is not None else deal.to_text(),
        goal=replayed.goal.value, passes=replayed.passes,
        moves=" ".join(move.to_text() for move in moves), move_count=len(moves),
        undo_count=0, status=status, cleared=replayed.cards_cleared,
        seconds=_whole(game.get("seconds")), started_at=started,
        hints_used=_whole(game.get("hints")) or 0, score=_whole(game.get("score")),
        par=_whole(game.get("par")), rated=True, paused_seconds=0, timed=False, ranked=False,
        unranked_why="untimed",
        created_at=started, updated_at=finished, finished_at=finished)


def _whole(value: Any) -> int | None:
    """A whole number the file gives (seconds, hints, score, par), or None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _identity(values: Mapping[Any, Any]) -> tuple[Any, ...]:
    """What makes two rows the same game: the same deal, rules, moves and end."""
    finished = values["finished_at"]
    if finished is not None and finished.tzinfo is not None:  # SQLite's are naive, and UTC
        finished = finished.astimezone(UTC).replace(tzinfo=None)
    return (values["deal_number"], values["deal_text"], values["goal"], values["passes"],
            values["moves"], values["status"], finished)


def store_games(session: Session, player_id: str, prepared: list[dict[str, Any]]) -> Imported:
    """Add ``prepared`` games (``prepare_game``'s, of an export already checked as signed) to
    the player's games, skipping those already here (its own, or imported before). Two
    queries for the piece, then one insert each; the caller commits."""
    lock_player_results(session, player_id)
    G = GameRecord
    deals = {values["deal_number"] for values in prepared}
    here = {_identity(row._mapping) for row in session.execute(
        select(G.deal_number, G.deal_text, G.goal, G.passes, G.moves, G.status,
               G.finished_at).where(G.player_id == player_id,
                                    or_(G.deal_number.in_(deals - {None}),
                                        G.deal_text.is_not(None))))}
    taken = set(session.scalars(select(G.id).where(G.id.in_([v["id"] for v in prepared]))))
    places = ResultPlaces(session, player_id)
    added = skipped = 0
    for values in prepared:
        identity = _identity(values)
        if identity in here:
            skipped += 1
            continue
        here.add(identity)
        record = GameRecord(**{**values, "id": new_game_id() if values["id"] in taken
                               or not values["id"] else values["id"]})
        taken.add(record.id)
        places.place(record)
        session.add(record)
        added += 1
    session.flush()
    return Imported(added, skipped)


# --- an export imports once, into its own player ------------------------------------------------
@dataclass(frozen=True, slots=True)
class ExportClaim:
    """What an import of a checked export claims: the export's id, the player it belongs to
    (the file says so, signed) and when it was made."""

    export_id: str
    player_id: str
    made_at: datetime


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)  # SQLite's are naive UTC


def claim_export(session: Session, claim: ExportClaim) -> str | None:
    """Take the export for its player, once: None, or why not (``"already_imported"``, or
    ``"before_reset"``: made before the player's statistics were reset, whose games the reset
    deleted). Nothing is written when it is refused; the caller commits with the games."""
    if session.get(ImportedExport, claim.export_id) is not None:
        return "already_imported"
    reset = session.scalar(select(Player.stats_reset_at).where(Player.id == claim.player_id))
    if reset is not None and _aware(claim.made_at) <= _aware(reset):
        return "before_reset"
    try:
        with session.begin_nested():
            session.add(ImportedExport(export_id=claim.export_id, player_id=claim.player_id,
                                       imported_at=utcnow()))
    except IntegrityError:  # the same export, imported at the same moment elsewhere
        return "already_imported"
    return None


# --- an import's progress ---------------------------------------------------------------------
RUNNING_FOR_AT_MOST = timedelta(minutes=15)
"""An import still "running" after this long was cut off (its process stopped): it is shown
as not finished, and another may begin."""


def begin_import(session: Session, player_id: str, now: datetime) -> bool:
    """Note that the player's import begins now; False (nothing written) when one is running
    already, in any process. The caller commits."""
    row = session.get(ImportProgress, player_id, with_for_update=True)
    if row is None:
        session.add(ImportProgress(player_id=player_id, state="running", started_at=now))
        session.flush()
        return True
    if row.state == "running" and as_utc(row.started_at) > now - RUNNING_FOR_AT_MOST:
        return False
    row.state, row.added, row.skipped = "running", 0, 0
    row.refused = row.refused_values = None
    row.started_at, row.finished_at = now, None
    return True


def end_import(session: Session, player_id: str, now: datetime, *, added: int = 0,
               skipped: int = 0, refused: str | None = None,
               values: dict[str, Any] | None = None) -> None:
    """Note how the player's import ended. The caller commits."""
    row = session.get(ImportProgress, player_id)
    if row is None:
        row = ImportProgress(player_id=player_id, started_at=now)
        session.add(row)
    row.state = "refused" if refused else "done"
    row.added, row.skipped, row.refused = added, skipped, refused
    row.refused_values = json.dumps(values or {}, default=str) if refused else None
    row.finished_at = now


def import_progress(session: Session, player_id: str) -> ImportProgress | None:
    """The player's last import, if any."""
    return session.get(ImportProgress, player_id)

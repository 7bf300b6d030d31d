"""Importing a player's exported games (``/stats/export.json``) into another browser's player.

Only a file this server exported is taken: the export is signed (an HMAC over its games, keyed
by SECRET_KEY), so nobody can import a result they did not play. Each game is replayed through
the engine all the same, and must end as the file says. A game already here (the same deal,
rules, moves and end) is skipped, so importing twice adds nothing. Imported games are appended
to the player's results in the file's order, oldest first.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.engine import Deal, Game, GameStatus, Move

from .games import lock_player_results, new_game_id, record_result
from .models import GameRecord, utcnow

IMPORT_LIMIT = 20_000
"""Games one import may hold."""


class ImportRefused(ValueError):
    """The file is not a whole, unedited export of this server: the message says why."""


@dataclass(frozen=True, slots=True)
class Imported:
    added: int
    skipped: int


def _when(text: str | None) -> datetime | None:
    if not text:
        return None
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _record(player_id: str, game: dict, taken: bool) -> GameRecord:
    """The row for one exported game, after replaying it (raises ImportRefused)."""
    try:
        deal = (Deal.from_number(int(game["deal"])) if game.get("deal") is not None
                else Deal.from_text(game["custom_deal"]))
        moves = [Move.from_text(text) for text in (game.get("move_list") or "").split()]
        replayed = Game.replay(deal, game["goal"], int(game["passes"]), moves)
        status = GameStatus(game["result"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ImportRefused(f"Game {game.get('id')!r} cannot be read: {exc}") from None
    ended = replayed.status if replayed.is_over() else GameStatus.ABANDONED
    if ended != status or not status.ended or not moves:
        raise ImportRefused(f"Game {game.get('id')!r} does not end as the file says.")
    finished = _when(game.get("finished_at")) or utcnow()
    started = _when(game.get("started_at")) or finished
    return GameRecord(
        id=new_game_id() if taken else game["id"], player_id=player_id,
        deal_number=str(deal.number) if deal.number is not None else None,
        deal_text=None if deal.number is not None else deal.to_text(),
        goal=replayed.goal.value, passes=replayed.passes,
        moves=" ".join(move.to_text() for move in moves), move_count=len(moves),
        undo_count=0, status=status.value, cleared=replayed.cards_cleared,
        seconds=game.get("seconds"), started_at=started, hints_used=int(game.get("hints") or 0),
        score=game.get("score"), par=game.get("par"), rated=True, paused_seconds=0,
        created_at=started, updated_at=finished, finished_at=finished)


def _already_here(session: Session, record: GameRecord) -> bool:
    """Whether the player has this game already (its own, or imported before): the same deal,
    rules, moves and end."""
    G = GameRecord
    return session.scalar(
        select(G.id).where(G.player_id == record.player_id, G.deal_number == record.deal_number,
                           G.deal_text == record.deal_text if record.deal_text else
                           G.deal_text.is_(None),
                           G.goal == record.goal, G.passes == record.passes,
                           G.moves == record.moves, G.status == record.status,
                           G.finished_at == record.finished_at).limit(1)) is not None


def import_games(session: Session, player_id: str, games: list[dict]) -> Imported:
    """Add ``games`` (an export's list, already checked as signed) to the player's games. The
    caller commits."""
    if len(games) > IMPORT_LIMIT:
        raise ImportRefused(f"An import holds at most {IMPORT_LIMIT:,} games.")
    lock_player_results(session, player_id)
    added = skipped = 0
    for game in games:
        existing = session.get(GameRecord, str(game.get("id")))
        record = _record(player_id, game, taken=existing is not None)
        if _already_here(session, record):
            skipped += 1
            continue
        session.add(record)
        session.flush()
        record_result(session, record)
        added += 1
    session.flush()
    return Imported(added, skipped)

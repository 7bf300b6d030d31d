"""How people did on one deal, and on one challenge: the queries behind a deal page's results
and a finished game's challenge, and the player's choice to be named on them.

Only counted games count (ended, with moves, not played "not counted"). A player is named
only when they chose to be (``players.listed``, with a display name); everyone else is
counted, never named. A challenge is found by the key its link carries
(``games.challenge_key``); its answers are other players' games played from the link to the
end, under their own display names unless someone else on the challenge had that name first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, and_, case, func, select
from sqlalchemy.orm import Session

from app.engine import GameStatus, Variant

from .models import ENDED, GameRecord, Player, utcnow
from .players import player_row

G = GameRecord
LISTED_ROWS = 10


@dataclass(frozen=True, slots=True)
class Result:
    """One finished game as others see it: no moves, nothing that spoils the deal."""

    game_id: str
    name: str | None
    won: bool
    moves: int
    seconds: int | None
    score: int | None
    cleared: int
    finished_at: datetime | None
    ranked: bool = True
    """False for a game whose time and score are not ranked (``games.ranked``: not timed by
    the server, or it played moves known beforehand): its time and score are None."""


@dataclass(slots=True)
class DealResults:
    played: int = 0
    players: int = 0
    won: int = 0
    fewest_moves: int | None = None
    best_seconds: int | None = None
    best_score: int | None = None
    listed: list[Result] = field(default_factory=list)
    """The best results of players who chose to be named: wins first, fewest moves, fastest."""


def _counted_on(number: int, variant: Variant) -> ColumnElement[bool]:
    return and_(G.deal_number == str(number), G.goal == variant.goal.value,
                G.passes == variant.passes, G.status.in_(ENDED), G.move_count > 0,
                G.rated.is_(True))


def deal_results(session: Session, number: int, variant: Variant,
                 limit: int = LISTED_ROWS) -> DealResults:
    """How everyone did on deal ``number`` with these rules: counts and bests over every
    counted game (one aggregate over ``ix_games_deal_variant``), and the named players' best
    games."""
    won = G.status == GameStatus.WON
    ranked = G.ranked.is_(True)  # time and score only where they can be trusted
    row = session.execute(
        select(func.count(), func.count(func.distinct(G.player_id)),
               func.sum(case((won, 1), else_=0)), func.min(case((won, G.move_count))),
               func.min(case((won & ranked, G.seconds))), func.max(case((ranked, G.score))))
        .where(_counted_on(number, variant))).one()
    results = DealResults(played=row[0], players=row[1], won=int(row[2] or 0),
                          fewest_moves=row[3], best_seconds=row[4], best_score=row[5])
    if results.played:
        named = (
            select(G.id, Player.display_name, G.status, G.move_count,
                   case((ranked, G.seconds)), case((ranked, G.score)), G.cleared,
                   G.finished_at, G.ranked)
            .join(Player, and_(Player.id == G.player_id, Player.listed.is_(True),
                               Player.display_name.is_not(None)))
            .where(_counted_on(number, variant))
            .order_by(case((won, 0), else_=1), G.cleared.desc(), G.move_count,
                      case((ranked, 0), else_=1), G.seconds, G.finished_at)
            .limit(limit * 4))
        seen: set[str] = set()
        for game_id, name, status, moves, seconds, score, cleared, finished, is_ranked in \
                session.execute(named):
            if name in seen:  # one row a player: their best
                continue
            seen.add(name)
            results.listed.append(Result(game_id, name, status == GameStatus.WON, moves,
                                         seconds, score, cleared, finished,
                                         ranked=is_ranked is not False))
            if len(results.listed) == limit:
                break
    return results


def result_of(session: Session, record: GameRecord) -> Result:
    """An ended game as a challenge shows it, under its player's display name (if any)."""
    name = session.scalar(select(Player.display_name).where(Player.id == record.player_id))
    ranked = record.ranked is not False  # an unranked game's time and score are not shown
    return Result(record.id, name, record.status == GameStatus.WON, record.move_count,
                  record.seconds if ranked else None, record.score if ranked else None,
                  record.cleared, record.finished_at, ranked=ranked)


def challenged_game(session: Session, key: str) -> GameRecord | None:
    """The game whose challenge link carries ``key`` (None for a key no game has)."""
    return session.scalar(select(G).where(G.challenge_key == key))


ANSWERED = (GameStatus.WON, GameStatus.LOST)
"""An answer is a game played from the link to its end: won or lost, never abandoned."""


def challenge_being_answered(session: Session, number: int, since: datetime) -> bool:
    """Whether a game answering a challenge on deal ``number`` (any rules) is being played:
    it has moves, has not ended, and moved since ``since``."""
    return session.scalar(select(G.id).where(
        G.deal_number == str(number), G.status == GameStatus.PLAYING,
        G.challenge.is_not(None), G.move_count > 0, G.updated_at >= since).limit(1)) is not None


def _name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def answers_to(session: Session, sent: GameRecord, limit: int = LISTED_ROWS,
               claims: int = 1000) -> list[Result]:
    """The answers to game ``sent``'s challenge, newest first: games other players started
    from its link and played to the end (won or lost; abandoned games are none), one row a
    player (their best). Each answer shows its player's display name, unless someone else on
    this challenge went by that name first (the sender, or an earlier answer; names compared
    without case or extra spaces): then no name at all, so nobody answers as someone else."""
    answered = and_(G.challenge == sent.id, G.status.in_(ANSWERED), G.move_count > 0,
                    G.player_id != sent.player_id)
    claimed: dict[str, str] = {}
    sender_name = session.scalar(select(Player.display_name)
                                 .where(Player.id == sent.player_id))
    if sender_name:
        claimed[_name_key(sender_name)] = sent.player_id
    first_answer = func.min(G.finished_at)
    for player_id, name in session.execute(
            select(G.player_id, Player.display_name)
            .join(Player, and_(Player.id == G.player_id, Player.display_name.is_not(None)))
            .where(answered).group_by(G.player_id, Player.display_name)
            .order_by(first_answer, G.player_id).limit(claims)):
        if name is not None:  # the join's own condition
            claimed.setdefault(_name_key(name), player_id)
    rows = session.execute(
        select(G.player_id, G.id, Player.display_name, G.status, G.move_count,
               case((G.ranked.is_(True), G.seconds)), case((G.ranked.is_(True), G.score)),
               G.cleared, G.finished_at, G.ranked)
        .outerjoin(Player, Player.id == G.player_id)
        .where(answered).order_by(G.finished_at.desc(), G.id).limit(limit * 4))
    best: dict[str, tuple[int, Result]] = {}  # a player's best row, and its place (newest 0)
    for place, (player_id, game_id, name, status, moves, seconds, score, cleared,
                finished, ranked) in enumerate(rows):
        shown = name if name and claimed.get(_name_key(name)) == player_id else None
        result = Result(game_id, shown, status == GameStatus.WON, moves, seconds, score,
                        cleared, finished, ranked=ranked is not False)
        if player_id not in best or rank_of(result) > rank_of(best[player_id][1]):
            best[player_id] = (place, result)
    return [result for _, result in sorted(best.values(), key=lambda kept: kept[0])][:limit]


def rank_of(result: Result) -> tuple[Any, ...]:
    """Better is bigger: a win; then a ranked result before one not ranked (whose moves
    may have been known beforehand: it never beats a ranked win, or a ranked loss when it
    lost too); then fewer moves (or more cards cleared); then less time (a time not ranked
    is no time: after every ranked one)."""
    return (result.won, result.ranked, -result.moves if result.won else result.cleared,
            -(result.seconds if result.seconds is not None else UNRANKED_SECONDS))


UNRANKED_SECONDS = 10**9
"""The time a result whose time is not ranked (``games.ranked``) is compared as."""


def is_listed(session: Session, player_id: str) -> bool:
    return bool(session.scalar(select(Player.listed).where(Player.id == player_id)))


def set_listed(session: Session, player_id: str, listed: bool,
               now: datetime | None = None) -> None:
    """Opt in to (or out of) being named on deals' results."""
    player = session.get(Player, player_id)
    if player is None:
        if not listed:
            return
        player = player_row(session, player_id, now)
    player.listed = listed
    player.updated_at = now or utcnow()
    session.flush()

"""Hints used through another player are counted in the game they are used in (issue 34, item 6).

The finding: a throwaway player (a fresh cookie, or a second browser) starts the deal of the day,
replays the real game's moves and asks for hints; the real game plays them and wins with 0
hints, its time and score ranked. Hints are kept private to nobody (a hint is the asker's own),
so what is counted is their use:

- When the solver answers a hint in a game of a deal still in play for a shared result
  (``spoilers.kept_private``: a deal of the day from yesterday's to the last one told ahead),
  the answer is written down (``given_hints``): the position (deal, rules, cards left, stock,
  waste and pass: any order of moves that reaches it), the move, who asked, and a hash of the
  address they asked from, the address the budget keys a client by (``budget.current_client``).
- When a game of such a deal plays, from such a position, the very move a *different* player
  was given there from the *same* address, the game counts one more hint and is no longer
  ranked (``games.ranked``): it counts for its player, its time and score are not compared
  with others'. The player's own hints are counted as they are asked, as ever.

Why the same address: a player's own cookie says nothing about who sits behind another cookie,
and two players who share a deal of the day's line from two networks cannot be told from two
players who found it. The same address is what a throwaway cookie cannot shed (the budget keys
it the same way). docs/players.md says what this catches and what it cannot.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

from sqlalchemy.orm import Session

from app import odds
from app.engine import Game, Move
from app.store import GameRecord, hints_given_to_others, note_given_hint
from app.store.models import utcnow
from app.web.core.budget import current_client
from app.web.services import spoilers

KEPT_DAYS = odds.DAYS_TOLD_AHEAD + 2
"""How long a hint given is kept: a deal is in play from the day it is told ahead to the day
after its own (``odds.in_play``); after that no game of it is watched."""


def position_key(game: Game) -> str:
    """The position as the solver sees it (what the solver's own cache keys it by), hashed:
    the same for every order of moves that reaches it."""

    def cards(row) -> str:
        return ",".join(card.name if card is not None else "-" for card in row)

    text = "|".join((game.goal.value, str(game.passes), str(game.pass_number),
                     cards(game.pyramid), cards(game.stock), cards(game.waste)))
    return hashlib.sha256(text.encode()).hexdigest()


def address_key() -> str | None:
    """The asking client's address as the budget keys it, hashed (no address is stored), or
    None outside a request."""
    client = current_client.get()
    if client is None:
        return None
    return hashlib.sha256(b"pyramid.address:" + client.address.encode()).hexdigest()[:64]


def _watched(game: Game) -> bool:
    return spoilers.kept_private(game)


def note_hint(session: Session, record: GameRecord, game: Game, move: Move | None) -> None:
    """Write down a hint the solver gave in ``game`` (before it is played), when its deal is
    still in play for a shared result. The caller commits."""
    address = address_key()
    if move is None or address is None or not _watched(game):
        return
    now = utcnow()
    note_given_hint(session, position=position_key(game), move=move.to_text(), address=address,
                    player_id=record.player_id, now=now,
                    forget_before=now - timedelta(days=KEPT_DAYS))


def count_borrowed_hints(session: Session, record: GameRecord, game: Game) -> int:
    """Before ``game`` (``record``'s position after new moves) is saved: the moves it plays
    beyond what ``record`` holds that another player from this address was given as hints in
    the same position; each counts as a hint of this game, and makes it not ranked. Returns
    how many."""
    address = address_key()
    if address is None or not game.moves or not _watched(game):
        return 0
    stored = record.moves.split() if record.moves else []
    texts = [move.to_text() for move in game.moves]
    common = 0
    while common < min(len(stored), len(texts)) and stored[common] == texts[common]:
        common += 1
    if common == len(texts):
        return 0
    position = Game.replay(game.deal, game.goal, game.passes, list(game.moves[:common]))
    asked: list[tuple[str, str]] = []
    for move in game.moves[common:]:
        asked.append((position_key(position), move.to_text()))
        position.play(move)
    given = hints_given_to_others(session, [key for key, _ in asked], address,
                                  record.player_id)
    borrowed = sum(1 for pair in asked if pair in given)
    if borrowed:
        record.hints_used = (record.hints_used or 0) + borrowed
        record.ranked = False
    return borrowed

"""Positions of stored games: a stored game is its deal, rules and move list; its position is
the engine's replay of them, kept per process so a request need not replay the whole list."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from functools import lru_cache

from app.engine import Deal, Game, Move

from .models import GameRecord


def deal_of(record: GameRecord) -> Deal:
    if record.deal_number is not None:
        return Deal.from_number(int(record.deal_number))
    assert record.deal_text is not None
    return Deal.from_text(record.deal_text)


_move_from_text = lru_cache(maxsize=1024)(Move.from_text)
"""A stored move list holds the same few texts again and again (52 Kings and pairs, draw,
recycle): each is read once. Moves are immutable, so they are shared."""


def moves_of(record: GameRecord) -> list[Move]:
    return [_move_from_text(text) for text in record.moves.split()]


class Positions:
    """The positions of recently loaded or saved games, so a request need not replay a game's
    whole move list through the engine again (the move path's main cost, growing with every
    move). Per process, bounded, and safe to share between request threads.

    A position is a pure function of what it is filed under: the game's deal, goal, passes and
    stored move text (``Game.replay`` of them). So an entry can never be stale, whichever
    process or tab moved last: a game whose stored moves differ from the entry's is simply
    not found, and is replayed. Callers get a copy, so they may play and undo on it freely.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._games: OrderedDict[str, tuple[Hashable, Game]] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def key(record: GameRecord) -> Hashable:
        return record.deal_number, record.deal_text, record.goal, record.passes, record.moves

    def get(self, record: GameRecord) -> Game | None:
        with self._lock:
            found = self._games.get(record.id)
            if found is None or found[0] != self.key(record):
                return None
            self._games.move_to_end(record.id)
        return found[1].copy()

    def put(self, record: GameRecord, game: Game) -> None:
        """File ``game`` as the position of ``record`` as it is now (one entry per game)."""
        entry = (self.key(record), game.copy())
        with self._lock:
            self._games[record.id] = entry
            self._games.move_to_end(record.id)
            while len(self._games) > self.size:
                self._games.popitem(last=False)


POSITIONS_KEPT = 512
"""Games whose position each process keeps: a few times the games played at once by the
players one process serves (an entry is a few kB to a few tens of kB, with its undo steps)."""

positions = Positions(POSITIONS_KEPT)


def load_game(record: GameRecord) -> Game:
    """The stored game's position: the engine's replay of its moves (kept in ``positions``
    for the next request about the same game)."""
    game = positions.get(record)
    if game is None:
        game = Game.replay(deal_of(record), record.goal, record.passes, moves_of(record))
        positions.put(record, game)
    return game

"""Moves known before they are played count as hints in a game whose result others see, so
that its result is not ranked.

What this closes: a throwaway player (a fresh cookie, or a second browser) starts the deal of the
day, replays the real game's moves and asks for hints; the real game plays them and wins with
0 hints, its time and score ranked. A challenge is a shared result too, on any deal at any
date: a throwaway game of the challenged deal, ended, gives its analysis (the solver's whole
line), a replay's ``win_from`` line or hints, and the answer plays them and beats the sender
with 0 hints. Neither hints nor analyses are kept from anyone (a hint is the asker's own; an
analysis of a deal not in play is anyone's), so what is counted is their use:

- **Written down, on any deal:** every hint the solver gives (``note_hint``), and every move
  of a winning line shown (``note_line``: an analysis's solution and better move, a replay's
  ``win_from`` line, a retry's better move), each with the position it is played from (its
  cards alone: the pyramid, the stock and the waste, so any order of moves that reaches it,
  under any rules: hints given under 2 passes won a 3-pass daily), who was shown it, a hash
  of the address they asked from (the address the budget keys a client by:
  ``scope.current_client``) and the game it came from (``given_hints``, kept ``KEPT_DAYS``).
- **Watched:** a game whose result others see: one answering a challenge (``games.challenge``)
  or of a numbered deal (on "How others did on this deal", the daily's among them). When it
  plays, from such a position, a move written down there from *another game*, for *its
  player* (from anywhere) or for *anyone at the same address*, it counts one more hint for
  each such move and is no longer ranked (``games.ranked``): it counts for its player, its time and
  score are not compared with others'. Hints asked in the game itself count as they are
  asked, as ever.

Why the same address for other players: a player's own cookie says nothing about who sits
behind another cookie, and two players who share a line from two networks cannot be told from
two players who found it. The same address is what a throwaway cookie cannot shed (the budget
keys it the same way). docs/players.md says what this catches and what it cannot.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from app import odds
from app.engine import Game, Move
from app.store import GameRecord, moves_known_elsewhere, note_given_hint, note_shown_line
from app.store.models import utcnow
from app.store.pace import not_ranked
from app.web.core.scope import current_client

KEPT_DAYS = odds.DAYS_TOLD_AHEAD + 2
"""How long a move given or shown is kept: a deal is in play from the day it is told ahead to
the day after its own (``odds.in_play``); a challenge is answered, most often, within days."""


def position_key(game: Game) -> str:
    """The position by its cards alone (the pyramid, the stock, the waste), hashed: the same
    for every order of moves that reaches it, and under every rule set (a line found with
    fewer passes also wins with more, a whole-deck line's first part wins the standard goal:
    a move shown under some rules is known under the others)."""

    def cards(row) -> str:
        return ",".join(card.name if card is not None else "-" for card in row)

    text = "|".join(("cards", cards(game.pyramid), cards(game.stock), cards(game.waste)))
    return hashlib.sha256(text.encode()).hexdigest()


def address_key() -> str | None:
    """The asking client's address as the budget keys it, hashed (no address is stored), or
    None outside a request."""
    client = current_client.get()
    if client is None:
        return None
    return hashlib.sha256(b"pyramid.address:" + client.address.encode()).hexdigest()[:64]


def watched(record: GameRecord) -> bool:
    """Whether ``record``'s result is one others see: it answers a challenge, or it is on a
    numbered deal's results ("How others did on this deal", the deal of the day's among
    them)."""
    return bool(record.challenge) or record.deal_number is not None


def _window() -> tuple[datetime, datetime]:
    """Now, and the time before which written-down moves are forgotten."""
    now = utcnow()
    return now, now - timedelta(days=KEPT_DAYS)


def note_hint(session: Session, record: GameRecord, game: Game, move: Move | None) -> None:
    """Write down a hint the solver gave in ``game`` (before it is played), on any deal. The
    caller commits."""
    address = address_key()
    if move is None or address is None:
        return
    now, forget_before = _window()
    note_given_hint(session, position=position_key(game), move=move.to_text(), address=address,
                    player_id=record.player_id, game_id=record.id, now=now,
                    forget_before=forget_before)


def line_pairs(position: Game, line) -> list[tuple[str, str]]:
    """Each move of ``line`` with the position it is played from, ``position`` first."""
    walked = position.copy()
    pairs: list[tuple[str, str]] = []
    for move in line:
        pairs.append((position_key(walked), move.to_text()))
        walked.play(move)
    return pairs


def note_line(session: Session, player_id: str, game_id: str, position: Game, line) -> int:
    """Write down a winning line (or one move of one) shown to ``player_id`` from game
    ``game_id``'s analysis or replay, from ``position`` on: one row a move, at most one write.
    A GET that shows a line writes here: a log of what was shown, no game's state. Returns how
    many rows were written; commits them."""
    address = address_key()
    line = list(line or ())
    if address is None or not line:
        return 0
    now, forget_before = _window()
    written = note_shown_line(session, line_pairs(position, line), address=address,
                              player_id=player_id, game_id=game_id, now=now,
                              forget_before=forget_before)
    session.commit()
    return written


def count_borrowed_hints(session: Session, record: GameRecord, game: Game,
                         hinted: Sequence[tuple[Game, Move | None]] = ()) -> int:
    """Before ``game`` (``record``'s position after new moves) is saved: the moves it plays
    beyond what ``record`` holds that were given or shown outside it (``moves_known_elsewhere``)
    in the same position, when its result is one others see (``watched``); each counts as a
    hint of this game, and makes it not ranked. A move this game's own hint gave (``hinted``:
    the device's hints of these steps, each with its position) is counted once, as that hint.
    Returns how many."""
    address = address_key()
    if address is None or not game.moves or not watched(record):
        return 0
    stored = record.moves.split() if record.moves else []
    texts = [move.to_text() for move in game.moves]
    common = 0
    while common < min(len(stored), len(texts)) and stored[common] == texts[common]:
        common += 1
    if common == len(texts):
        return 0
    position = Game.replay(game.deal, game.goal, game.passes, list(game.moves[:common]))
    own = {(position_key(where), move.to_text()) for where, move in hinted if move is not None}
    asked = [pair for pair in line_pairs(position, game.moves[common:]) if pair not in own]
    if not asked:
        return 0
    known = moves_known_elsewhere(session, asked, address=address, player_id=record.player_id,
                                  game_id=record.id)
    borrowed = sum(1 for pair in asked if pair in known)
    if borrowed:
        record.hints_used = (record.hints_used or 0) + borrowed
        not_ranked(record, "known")
    return borrowed


def note_better_move(session: Session, player_id: str, loaded, lost_at: int | None,
                     better: Move | None) -> int:
    """The move that would have kept the win, shown (an analysis, a retry's notice) from the
    position before move ``lost_at`` of ``loaded``'s game."""
    if better is None or not lost_at:
        return 0
    game = loaded.game
    position = Game.replay(game.deal, game.goal, game.passes, list(game.moves[:lost_at - 1]))
    return note_line(session, player_id, loaded.record.id, position, [better])


def note_analysis(session: Session, player_id: str, loaded, found, *,
                  solution: bool = True) -> int:
    """What an analysis showed ``player_id``: its winning line from the deal (the API's
    ``solution``, unless ``solution`` is false: the page shows none) and its better move."""
    written = note_better_move(session, player_id, loaded, found.lost_at, found.better_move)
    if solution and found.solution:
        game = loaded.game
        written += note_line(session, player_id, loaded.record.id,
                             Game(game.deal, game.goal, game.passes), found.solution)
    return written

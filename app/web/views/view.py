"""What the pages show of a game, in pieces and in words: plain data built from the engine's
state (the pyramid's places, the cards leaving, the moves and hints said).

Pure functions with no I/O and no database, so the templates stay free of game logic. The
board's whole context (``boardpage.board_context``) and the JSON API's state
(``apimodels.api_state``) are built from them and read a game's status in one place
(``boardpage.status_of``), so the API and the board can never disagree about a position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from app.engine import Card, CardError, Game, GameStatus, Move, Op, ended_reason
from app.engine.deal import COVERED_BY, PYRAMID_SIZE, row_col
from app.engine.refusals import ENDED
from app.engine.solver import Hint
from app.web.core.i18n import gettext as _
from app.web.core.i18n import ngettext, pgettext
from app.web.core.names import card_name
from app.web.core.ranked import unranked_why
from app.web.core.refusals import ending, say

_CARD_NAME = re.compile(r"\b([A2-9TJQK])([CDHS])\b")


def with_symbols(text: str) -> str:
    """Write the card names in an engine message as the player sees them: ``TD`` -> ``10♦``."""

    def symbol(match: re.Match[str]) -> str:
        try:
            return Card.parse(match.group(0)).symbol
        except CardError:  # pragma: no cover - the pattern only matches card names
            return match.group(0)

    return _CARD_NAME.sub(symbol, text)


def _removal(move: Move) -> tuple[str, str] | str:
    """A removal's cards as the player sees them: one (a King), or the pair."""
    symbols = [card.symbol for card in move.cards]
    return symbols[0] if len(symbols) == 1 else (symbols[0], symbols[1])


def describe_move(move: Move) -> str:
    """What a move did, for the live region: ``Removed 5♥ and 8♣.``"""
    if move.op is Op.DRAW:
        return _("Drew a card onto the waste.")
    if move.op is Op.RECYCLE:
        return _("Turned the waste over: next pass.")
    cards = _removal(move)
    if isinstance(cards, str):
        return _("Removed %(a)s.", a=cards)
    return _("Removed %(a)s and %(b)s.", a=cards[0], b=cards[1])


def describe_played(move: Move, game: Game) -> str:
    """What the move just played did, and, when it ended the game, how it ended:
    ``Removed K♠. You won! The pyramid is cleared.``"""
    said = describe_move(move)
    outcome = game.outcome()
    if outcome is not None:
        said += " " + (_("You won!") if outcome.won else _("Game over."))
        said += " " + (ending(outcome.status, outcome) or "")
    return said


def say_move(move: Move, drawn: Card | None = None) -> str:
    """A move in a sentence's middle: ``remove 5♥ and 8♣``, ``draw 8♠ from the stock``."""
    if move.op is Op.DRAW:
        if drawn:
            # TRANSLATORS: a move in the middle of a sentence, as in "Hint: draw 8♠ from the
            # stock." (and "Your move 12, draw 8♠ from the stock, left no way to win").
            return _("draw %(card)s from the stock", card=drawn.symbol)
        # TRANSLATORS: a move in the middle of a sentence, as in "Hint: draw a card from the
        # stock."
        return _("draw a card from the stock")
    if move.op is Op.RECYCLE:
        # TRANSLATORS: a move in the middle of a sentence, as in "Hint: turn the waste over for
        # the next pass."
        return _("turn the waste over for the next pass")
    cards = _removal(move)
    if isinstance(cards, str):
        # TRANSLATORS: a move in the middle of a sentence, as in "Hint: remove K♠."
        return _("remove %(a)s", a=cards)
    # TRANSLATORS: a move in the middle of a sentence, as in "Hint: remove 5♥ and 8♣."
    return _("remove %(a)s and %(b)s", a=cards[0], b=cards[1])


def kept_the_win(move: Move) -> str:
    """The coach's sentence after a loss, whole: ``Removing K♠ instead would have kept the
    win.`` (one message a move kind: a translation puts the move where its language wants)."""
    if move.op is Op.DRAW:
        return _("Drawing a card from the stock instead would have kept the win.")
    if move.op is Op.RECYCLE:
        return _("Turning the waste over for the next pass instead would have kept the win.")
    cards = _removal(move)
    if isinstance(cards, str):
        return _("Removing %(a)s instead would have kept the win.", a=cards)
    return _("Removing %(a)s and %(b)s instead would have kept the win.", a=cards[0],
             b=cards[1])


def back_before(move: Move, number: int) -> str:
    """What "Try again from move ``number``" says on the board, ``move`` being the one that
    keeps the win: ``Back before move 12, the move that lost the win. Removing K♠ keeps it:
    the board marks it.``"""
    if move.op is Op.DRAW:
        return _("Back before move %(number)s, the move that lost the win. Drawing a card from "
                 "the stock keeps it: the board marks it.", number=number)
    if move.op is Op.RECYCLE:
        return _("Back before move %(number)s, the move that lost the win. Turning the waste "
                 "over for the next pass keeps it: the board marks it.", number=number)
    cards = _removal(move)
    if isinstance(cards, str):
        return _("Back before move %(number)s, the move that lost the win. Removing %(a)s keeps "
                 "it: the board marks it.", number=number, a=cards)
    return _("Back before move %(number)s, the move that lost the win. Removing %(a)s and "
             "%(b)s keeps it: the board marks it.", number=number, a=cards[0], b=cards[1])


def describe_hint(hint: Hint, winnable_until: int | None = None) -> str:
    """A hint for the live region: the move in words, then the solver's verdict.

    ``Hint: remove 5♥ and 8♣. This deal can still be won.`` A lost position says so first:
    ``This deal can no longer be won. Hint: draw a card from the stock, which leaves the most
    cards you can still remove.``, then how far back it could still be won.
    """
    move = hint.move
    if move is None:
        return with_symbols(say(hint.refusal)) if hint.refusal else hint.message
    step = say_move(move)
    if hint.winnable is False:
        # TRANSLATORS: %(move)s is a move as in "draw a card from the stock".
        said = _("This deal can no longer be won. Hint: %(move)s, which leaves the most cards "
                 "you can still remove.", move=step)
        if winnable_until:
            said += " " + ngettext("Undo %(num)s move to get back to a winnable position.",
                                   "Undo %(num)s moves to get back to a winnable position.",
                                   winnable_until)
        return said
    if hint.winnable is True:
        verdict = _("This deal can still be won.")
    else:
        verdict = _("The solver could not decide this position in time.")
    # TRANSLATORS: %(move)s is a move as in "remove 5♥ and 8♣" or "draw a card from the stock".
    return _("Hint: %(move)s.", move=step) + " " + verdict


def format_duration(seconds: int) -> str:
    minutes, secs = divmod(max(0, seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@dataclass(frozen=True, slots=True)
class Slot:
    """One pyramid position as drawn: its card (None once removed) and whether it is free."""

    index: int
    row: int
    col: int
    card: Card | None
    free: bool


def pyramid_slots(game: Game) -> list[Slot]:
    slots = []
    for index in range(PYRAMID_SIZE):
        row, col = row_col(index)
        card = game.pyramid[index]
        free = card is not None and all(game.pyramid[i] is None for i in COVERED_BY[index])
        slots.append(Slot(index, row, col, card, free))
    return slots


def pyramid_rows(slots: list[Slot]) -> list[list[Slot]]:
    """The pyramid's places row by row, from the apex (a screen reader reads rows as rows)."""
    rows: list[list[Slot]] = [[] for _row in range(7)]
    for slot in slots:
        rows[slot.row].append(slot)
    return rows


@dataclass(frozen=True, slots=True)
class Leaving:
    """A card the last move removed, drawn once more where it was so it can fade out on the new
    board (the redraw never waits for an animation)."""

    card: Card
    row: int | None  # its pyramid place; None for a stock or waste card
    col: int | None
    pile: str | None  # "stock" or "waste"


def leaving_cards(game: Game, removed: tuple[str, ...]) -> list[Leaving]:
    """Where each card of the move just played was, from the deal (pyramid cards never move)."""
    leaving = []
    for card in map(Card.parse, removed):
        if card in game.deal.pyramid:
            row, col = row_col(game.deal.pyramid.index(card))
            leaving.append(Leaving(card, row, col, None))
        else:
            leaving.append(Leaving(card, None, None, "stock" if game.stock_top is None
                                   or game.waste_top is not None else "waste"))
    return leaving


def describe_step(move: Move, drawn: Card | None = None) -> str:
    """A move in a replay's move list: ``5♥ + 8♣``, ``K♠``, ``Draw 8♠`` (the card drawn, when
    known), ``Recycle``."""
    if move.op is Op.DRAW:
        if drawn:
            # TRANSLATORS: a draw in a replay's list of moves, with the card it drew.
            return _("Draw %(card)s", card=drawn.symbol)
        return pgettext("a move in a replay's list", "Draw")
    if move.op is Op.RECYCLE:
        return pgettext("a move in a replay's list", "Recycle")
    return " + ".join(card.symbol for card in move.cards)


def described_steps(game: Game) -> list[str]:
    """Each of ``game``'s moves in words, a draw with the card it drew (the game is replayed
    from its deal to see each draw's card)."""
    position = Game(game.deal, game.goal, game.passes)
    steps = []
    for move in game.moves:
        steps.append(describe_step(move, position.stock_top))
        position.play(move)
    return steps


def drawn_by(game: Game, number: int) -> Card | None:
    """The card move ``number`` (1-based) of ``game`` drew, when it is a draw."""
    position = Game(game.deal, game.goal, game.passes)
    for move in game.moves[:number - 1]:
        position.play(move)
    return position.stock_top if game.moves[number - 1].op is Op.DRAW else None


def covered_by(game: Game) -> dict[str, list[str]]:
    """For each covered pyramid card, the cards covering it now, by name in the player's
    language (``3 of spades``)."""
    found = {}
    for index, card in enumerate(game.pyramid):
        over = [card_name(c) for i in COVERED_BY[index] if (c := game.pyramid[i]) is not None]
        if card is not None and over:
            found[card.name] = over
    return found


def tips_done(game: Game) -> dict[str, bool]:
    """The first game's tips that are done or no longer of use (static/js/board/assist.js
    tipsDone says the same): "make 13" after a pair, "Kings" after a King or when none is left,
    the stock's once a card is drawn or the stock is empty."""
    removals = [move for move in game.moves if move.cards]
    kings_left = any(card is not None and card.is_king
                     for card in (*game.pyramid, *game.stock, *game.waste))
    return {"pairs": any(len(move.cards) == 2 for move in removals),
            "kings": any(len(move.cards) == 1 for move in removals) or not kings_left,
            "stock": any(move.op is Op.DRAW for move in game.moves) or not game.stock}


def discard_top(game: Game) -> Card | None:
    """The card on top of the removed cards: the last one the last removal took."""
    for move in reversed(game.moves):
        if move.cards:
            return move.cards[-1]
    return None


def api_state(record: Any, game: Game, *, elapsed: int, paused: int) -> dict[str, Any]:
    """The JSON form of a game for ``/api/games/{id}`` (``elapsed``: its time; ``paused``: what
    its pauses leave out of it, both from the store's clock).

    Once the game is over (won, lost or abandoned) nothing is free and no move is legal.
    """
    status = record.status_of(game)
    playing = status is GameStatus.PLAYING
    return {
        "id": record.id,
        "version": record.version,
        "deal": int(record.deal_number) if record.deal_number is not None else None,
        "custom_deal": record.deal_text,
        "goal": game.goal.value,
        "passes": game.passes,
        "status": status.value,
        "reason": ENDED["time_up"] if record.lost_by_time(game.is_over())
        else ended_reason(status, game.outcome()),
        "pyramid": [card.name if card else None for card in game.pyramid],
        "stock": {"top": game.stock_top.name if game.stock_top else None,
                  "count": len(game.stock)},
        "waste": {"top": game.waste_top.name if game.waste_top else None,
                  "count": len(game.waste)},
        "pass": game.pass_number,
        "passes_left": game.passes_left,
        "free": [card.name for card in game.free_cards()] if playing else [],
        "legal_moves": [move.to_dict() for move in game.legal_moves] if playing else [],
        "moves": [move.to_dict() for move in game.moves],
        "cards_removed": game.cards_removed,
        "cards_cleared": game.cards_cleared,
        "hints_used": record.hints_used or 0,
        "paused_seconds": paused,
        "score": record.score_of(game).total,
        "par": record.par,
        "winnable_only": bool(record.winnable_only),
        "daily": record.daily.isoformat() if record.daily else None,
        "counted": bool(record.rated),
        "ranked": getattr(record, "ranked", True) is not False,
        "unranked_why": unranked_why(record),
        "timed_by": "server" if getattr(record, "timed", True) is not False else "player",
        "elapsed_seconds": elapsed,
        "started_at": record.created_at.isoformat(),
        "finished_at": record.finished_at.isoformat() if record.finished_at else None,
    }

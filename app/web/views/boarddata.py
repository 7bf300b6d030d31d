"""The game as the board's script reads it: plain data, on the page and in every answer.

The page plays with its own engine (static/js/engine, held to app/engine by one shared suite),
so it needs the deal's cards and the moves, not a drawing: ``page_data`` goes on the board
page as JSON (``<script type="application/json" id="game-data">``), and ``answer_data`` is
what a batch, a hint or an undo answers the script with (``Accept: application/json``). The
server stays the only judge: the script compares its moves with ``moves`` and, where they
differ, takes the server's.

Deal numbers go up to 10**20 - 1, past what a JavaScript number holds exactly, so they travel
as digit strings.
"""

from __future__ import annotations

from typing import Any

from app.engine import Game
from app.web.core.notice import Notice
from app.web.views.view import status_of


def deal_data(game: Game) -> dict[str, Any]:
    """The deal's cards (pyramid from the apex, stock from the top) and its number."""
    deal = game.deal
    return {"number": str(deal.number) if deal.number is not None else None,
            "pyramid": [card.name for card in deal.pyramid],
            "stock": [card.name for card in deal.stock]}


def answer_data(record: Any, game: Game, *, elapsed: int, running: bool,
                said: Notice | None = None) -> dict[str, Any]:
    """What the server holds of the game now, and what it says about the last input."""
    said = said or Notice()
    return {
        "id": record.id,
        "version": record.version,
        "status": status_of(record, game).value,
        "moves": [move.to_text() for move in game.moves],
        "last_input": record.last_input,
        "hints": record.hints_used or 0,
        "undos": record.undo_count or 0,
        "elapsed": elapsed,
        "running": running,
        "timed": getattr(record, "timed", True) is not False,
        "score": record.score_of(game).total,
        "message": said.message,
        "refused": said.refused,
        "hinted": list(said.hinted) + ([said.hinted_action] if said.hinted_action else []),
    }


def page_data(record: Any, game: Game, *, elapsed: int, running: bool, paused: bool,
              can_play: bool, urls: dict[str, str | None],
              said: Notice | None = None, learn: bool = False) -> dict[str, Any]:
    """Everything the board's script starts from: the deal, the rules, the moves, the clock and
    where each input goes (``urls``: play, hint, undo, pause, resume, restart, the page); and
    what the page says, with the cards it marks (``said``: a try again's better move)."""
    return {
        **answer_data(record, game, elapsed=elapsed, running=running, said=said),
        "deal": deal_data(game),
        "goal": game.goal.value,
        "passes": game.passes,
        "paused": paused,
        "can_play": can_play,
        "learn": learn,  # a guided game played on the page alone, never stored
        "daily": record.daily.isoformat() if getattr(record, "daily", None) else None,
        "urls": urls,
    }

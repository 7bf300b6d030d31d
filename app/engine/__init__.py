"""The rules engine: cards, deals, moves, the game and the solver.

Pure Python with no I/O: the web server, the CLI and the tests all build on it.
"""

from .cards import FULL_DECK, Card, CardError
from .deal import MAX_DEAL_NUMBER, MIN_DEAL_NUMBER, Deal, DealError
from .game import (
    DEFAULT_PASSES,
    PASS_CHOICES,
    Game,
    GameSetupError,
    Goal,
    IllegalMove,
    Location,
    Outcome,
    Termination,
)
from .moves import Move, MoveError, Op

__all__ = [
    "DEFAULT_PASSES",
    "FULL_DECK",
    "MAX_DEAL_NUMBER",
    "MIN_DEAL_NUMBER",
    "PASS_CHOICES",
    "Card",
    "CardError",
    "Deal",
    "DealError",
    "Game",
    "GameSetupError",
    "Goal",
    "IllegalMove",
    "Location",
    "Move",
    "MoveError",
    "Op",
    "Outcome",
    "Termination",
]

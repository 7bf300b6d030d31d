"""The rules engine: cards, deals, moves, the game, the greedy player and the solver.

Pure Python with no I/O: the web server, the CLI and the tests all build on it. The solver
(``solver``) and the game analysis built on it (``analysis``) are imported from their own
modules, so that the C core loads only where it is used.
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
from .greedy import greedy_wins, play_greedy
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
    "greedy_wins",
    "play_greedy",
]

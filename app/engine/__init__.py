"""The rules engine: cards, deals, rule sets, moves, the game, the greedy player and the solver.

Pure Python with no I/O: the web server, the CLI and the tests all build on it. The solver
(``solver``) and the game analysis built on it (``analysis``) are imported from their own
modules, so that the C core loads only where it is used.
"""

from .cards import FULL_DECK, Card, CardError
from .deal import MAX_DEAL_NUMBER, MIN_DEAL_NUMBER, Deal, DealError
from .game import Game, IllegalMove, Location
from .greedy import greedy_wins, play_greedy
from .moves import Move, MoveError, Op
from .outcome import ABANDONED_REASON, GameStatus, Outcome, Termination, ended_reason, game_over
from .refusals import Code, Refusal, Refused
from .score import Score, score
from .variant import (
    DEFAULT_GOAL,
    DEFAULT_PASSES,
    DEFAULT_VARIANT,
    MAX_PASSES,
    PASS_CHOICES,
    VARIANTS,
    GameSetupError,
    Goal,
    Variant,
    parse_goal,
    parse_passes,
    passes_text,
)

__all__ = [
    "ABANDONED_REASON",
    "DEFAULT_GOAL",
    "DEFAULT_PASSES",
    "DEFAULT_VARIANT",
    "FULL_DECK",
    "MAX_DEAL_NUMBER",
    "MAX_PASSES",
    "MIN_DEAL_NUMBER",
    "PASS_CHOICES",
    "VARIANTS",
    "Card",
    "CardError",
    "Code",
    "Deal",
    "DealError",
    "Game",
    "GameSetupError",
    "GameStatus",
    "Goal",
    "IllegalMove",
    "Location",
    "Move",
    "MoveError",
    "Op",
    "Outcome",
    "Refusal",
    "Refused",
    "Score",
    "Termination",
    "Variant",
    "ended_reason",
    "game_over",
    "greedy_wins",
    "parse_goal",
    "parse_passes",
    "passes_text",
    "play_greedy",
    "score",
]

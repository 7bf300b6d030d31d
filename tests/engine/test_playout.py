"""Random playouts in C (``app.engine.playout``): only legal moves, the game's own end, the
same games for the same seed, and win rates and first moves that agree with random play on
``Game`` in Python."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from app.engine import Deal, Game, Goal, Move, play_greedy
from app.engine.playout import playout_lines, playout_wins, playouts, random_playout

from .engine_helpers import play

VARIANTS = [(goal, passes) for goal in ("standard", "wholedeck") for passes in (1, 2, 3)]


def goal_left(game: Game) -> int:
    left = game.pyramid_left
    return left + len(game.stock) + len(game.waste) if game.goal is Goal.WHOLE_DECK else left


@pytest.mark.parametrize(("goal", "passes"), VARIANTS)
def test_every_playout_replays_through_the_game_and_ends_where_the_game_ends(goal, passes):
    for number in (1, 2, 3, 617):
        game = Game(Deal.from_number(number), goal, passes)
        for won, moves in playout_lines(game, 15, seed=number):
            replay = Game(game.deal, goal, passes)
            for move in moves:
                assert not replay.is_over()
                replay.play(move)  # raises IllegalMove on an illegal move
            assert replay.is_over() and replay.outcome().won == won


def test_a_playout_from_a_position_in_the_second_pass_replays_from_there():
    game = Game(Deal.from_number(2), "wholedeck", 3)
    play(game, ["draw"] * 24 + ["recycle", "draw"])
    lines = playout_lines(game, 30, seed=7)
    stats = playouts(game, 30, seed=7)
    assert stats.wins == sum(won for won, _ in lines)
    left = 0
    for won, moves in lines:
        replay = game.copy()
        for move in moves:
            replay.play(move)
        assert replay.is_over() and replay.outcome().won == won
        left += goal_left(replay)
    assert stats.cards_left == left


def test_the_same_seed_plays_the_same_games():
    game = Game(Deal.from_number(5), "standard", 3)
    assert playout_lines(game, 10, seed=42) == playout_lines(game, 10, seed=42)
    assert playout_lines(game, 10, seed=42) != playout_lines(game, 10, seed=43)
    assert playout_wins(game, 200, seed=42) == playout_wins(game, 200, seed=42)
    assert playouts(game, 0, seed=1).wins == 0


def test_an_ended_game_plays_no_move():
    lost = play_greedy(Game(Deal.from_number(1), "standard", 1))
    assert lost.is_over() and not lost.outcome().won
    assert playout_lines(lost, 3) == [(False, ())] * 3
    won = play_greedy(Game(Deal.from_number(3), "standard", 3))
    assert won.outcome().won
    assert playout_lines(won, 2) == [(True, ())] * 2 and playouts(won, 2).cards_left == 0


def two_proportion_z(wins_a: int, n_a: int, wins_b: int, n_b: int) -> float:
    pooled = (wins_a + wins_b) / (n_a + n_b)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    return (wins_a / n_a - wins_b / n_b) / spread


@pytest.mark.parametrize(("number", "goal", "passes"), [(2, "standard", 3), (3, "standard", 3)])
def test_the_win_rate_agrees_with_random_play_on_the_python_engine(number, goal, passes):
    game = Game(Deal.from_number(number), goal, passes)
    c_games = playouts(game, 4000, seed=1)
    rng = random.Random(1)
    python_wins = sum(random_playout(game, rng) for _ in range(500))
    assert 0 < c_games.wins < 4000 and 0 < python_wins < 500
    assert abs(two_proportion_z(c_games.wins, 4000, python_wins, 500)) < 4


def test_the_first_move_is_chosen_uniformly_among_the_legal_moves():
    game = Game(Deal.from_number(2), "standard", 3)
    legal = game.legal_moves
    assert len(legal) >= 4
    firsts = Counter(moves[0] for _, moves in playout_lines(game, 4000, seed=3))
    assert set(firsts) == set(legal)
    expected = 4000 / len(legal)
    chi2 = sum((firsts[m] - expected) ** 2 / expected for m in legal)
    assert chi2 < 25  # far beyond the 99.99th percentile for a handful of degrees of freedom
    assert all(isinstance(m, Move) for m in firsts)

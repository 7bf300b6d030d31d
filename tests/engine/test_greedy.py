"""The greedy player: its policy on built positions, whole games, and the fast version."""

from __future__ import annotations

import pytest

from app.engine import Deal, Game, Goal, Move, Op
from app.engine.greedy import _simulate, choose_move, greedy_wins, play_greedy

from .engine_helpers import DEAL_A, DEAL_B, deal_with, play

VARIANTS = [(goal, passes) for goal in ("standard", "wholedeck") for passes in (1, 2, 3)]
ROW6 = range(21, 28)


def bottom_row(names: str, stock_top: str) -> Game:
    """A game whose free cards are the seven named bottom-row cards and the stock top."""
    return Game(deal_with(dict(zip(ROW6, names.split(), strict=True)), stock_top))


# --- the policy, one position at a time ------------------------------------------------------
def test_a_free_king_goes_first():
    game = bottom_row("5D 8D 2C 3C AC QC KC", "6H")
    assert choose_move(game) == Move.from_text("KC")


def test_a_pyramid_king_before_the_stock_top_king_then_the_waste_king():
    game = Game(DEAL_B)  # KC in the bottom row, KS on the stock
    assert choose_move(game) == Move.from_text("KC")
    play(game, "KC, draw")  # KS is the waste top now; no pyramid King is free
    assert choose_move(game) == Move.from_text("KS")


def test_the_pair_that_uncovers_most_pyramid_cards_beats_the_engine_order():
    # AC+QC (slots 21 and 23) comes first in the engine's order but uncovers nothing: slot 15
    # and 16 stay covered by 2C. 5D+8D (slots 25, 26) uncovers slot 19.
    game = bottom_row("AC 2C QC 3C 5D 8D 4C", "6H")
    assert game.legal_moves[0] == Move.from_text("AC+QC")
    assert choose_move(game) == Move.from_text("5D+8D")


def test_equal_pairs_go_by_the_engine_order():
    # 5D+8D (slots 21, 22) uncovers slot 15, AC+QC (25, 26) uncovers slot 19: a tie.
    game = bottom_row("5D 8D 2C 3C AC QC 4C", "6H")
    assert choose_move(game) == Move.from_text("5D+8D")
    game = bottom_row("AC QC 2C 3C 5D 8D 4C", "6H")
    assert choose_move(game) == Move.from_text("AC+QC")


def test_a_pair_with_the_stock_top_counts_what_it_uncovers():
    # QC+AH (slot 21 with the stock top) uncovers nothing; 5D+8D (23, 24) uncovers slot 17.
    game = bottom_row("QC 2C 5D 8D 3C 4C 6C", "AH")
    assert choose_move(game) == Move.from_text("5D+8D")


def test_draw_when_nothing_pairs_and_recycle_when_the_stock_is_empty():
    game = bottom_row("AC 2C 3C 4C 5C 6C AD", "2D")
    assert choose_move(game) == Move.draw()
    game = Game(Deal.from_number(1), "standard", 2)
    while game.stock or choose_move(game) != Move.recycle():
        assert not game.is_over()
        game.play(choose_move(game))
    assert game.stock == [] and game.passes_left == 1


def test_no_move_once_the_game_is_over():
    game = play_greedy(Game(DEAL_A))
    assert game.outcome().won and choose_move(game) is None


# --- whole games ---------------------------------------------------------------------------
def test_greedy_clears_the_obvious_deal():
    game = play_greedy(Game(DEAL_A, "wholedeck", 1))
    assert game.outcome().won and game.cards_removed == 52
    assert greedy_wins(DEAL_A, "wholedeck", 1)


@pytest.mark.parametrize(("goal", "passes"), VARIANTS)
def test_greedy_plays_to_the_end_within_the_rules(goal: str, passes: int):
    results = set()
    for number in range(1, 31):
        game = play_greedy(Game(Deal.from_number(number), goal, passes))
        assert game.is_over()
        assert sum(move.op is Op.RECYCLE for move in game.moves) <= passes - 1
        results.add(game.outcome().won)
    assert False in results


@pytest.mark.parametrize(("goal", "passes"), VARIANTS)
def test_the_fast_player_plays_the_same_moves_as_the_plain_one(goal: str, passes: int):
    wins = 0
    for number in range(1, 81):
        deal = Deal.from_number(number)
        game = play_greedy(Game(deal, goal, passes))
        moves: list[Move] = []
        won = _simulate(deal, Goal(goal), passes, moves)
        assert won is game.outcome().won is greedy_wins(deal, goal, passes), number
        # Game stops at a hopeless pyramid; the fast player plays on, and still loses.
        assert moves[: len(game.moves)] == game.moves, number
        assert won or len(moves) >= len(game.moves)
        wins += won
    if passes > 1:
        assert wins  # some deals are won, so both paths were exercised


def test_greedy_wins_checks_its_rules():
    with pytest.raises(ValueError, match="passes must be a whole number from 1 to 3") as refused:
        greedy_wins(DEAL_A, "standard", 4)
    assert refused.value.refusal.to_dict() == {"code": "unknown_passes",
                                               "fields": {"value": 4, "most": 3}}
    with pytest.raises(ValueError, match="goal must be"):
        greedy_wins(DEAL_A, "everything", 3)

"""The score: points for removals and cleared rows, the whole deck's bonus, a win's time bonus,
costs for hints and undos; never below 0; a pure function of the position and those facts."""

from __future__ import annotations

from app.engine import Deal, Game, Move, Op, score
from app.engine.score import (
    HINT_COST,
    POINTS_PER_REMOVAL,
    ROW_BONUS,
    TIME_BONUS_SECONDS,
    UNDO_COST,
    WHOLE_DECK_BONUS,
    rows_cleared,
)
from app.engine.solver import solve


def won(number: int, goal: str, passes: int = 3) -> Game:
    game = Game(Deal.from_number(number), goal, passes)
    for move in solve(game).moves:
        game.play(move)
    assert game.outcome().won
    return game


def test_a_new_game_scores_nothing():
    game = Game(Deal.from_number(1))
    assert score(game).total == 0 and rows_cleared(game) == []


def test_each_removal_scores_and_a_draw_does_not():
    game = Game(Deal.from_number(5))
    total = 0
    for move in solve(game).moves[:15]:
        before = score(game).total
        game.play(move)
        gained = score(game).total - before
        if move.op is Op.REMOVE:
            assert gained >= POINTS_PER_REMOVAL
            total += 1
        else:
            assert gained == 0
    assert score(game).removals == POINTS_PER_REMOVAL * total


def test_a_won_standard_game_has_every_row_and_no_deck_bonus():
    game = won(5, "standard")
    parts = score(game, seconds=100)
    assert rows_cleared(game) == [1, 2, 3, 4, 5, 6, 7]
    assert parts.rows == sum(ROW_BONUS) == 1150
    assert parts.whole_deck == 0
    assert parts.time_bonus == TIME_BONUS_SECONDS - 100
    removals = sum(m.op is Op.REMOVE for m in game.moves)
    assert parts.total == POINTS_PER_REMOVAL * removals + 1150 + TIME_BONUS_SECONDS - 100


def test_the_whole_deck_scores_more_than_the_pyramid_alone():
    number = next(n for n in range(1, 200)
                  if solve(Game(Deal.from_number(n), "wholedeck", 3)).winnable)
    deck = score(won(number, "wholedeck"), seconds=TIME_BONUS_SECONDS).total
    pyramid = score(won(number, "standard"), seconds=TIME_BONUS_SECONDS).total
    assert score(won(number, "wholedeck")).whole_deck == WHOLE_DECK_BONUS
    # 52 cards in 28 removals: 140 + 1150 + 500.
    assert deck == 28 * POINTS_PER_REMOVAL + 1150 + WHOLE_DECK_BONUS > pyramid


def test_hints_and_undos_cost_points_but_never_below_zero():
    game = won(5, "standard")
    plain = score(game, seconds=TIME_BONUS_SECONDS).total
    assert score(game, hints=2, undos=3, seconds=TIME_BONUS_SECONDS).total == (
        plain - 2 * HINT_COST - 3 * UNDO_COST)
    assert score(Game(Deal.from_number(1)), hints=5, undos=5).total == 0


def test_a_slow_win_gets_no_time_bonus_and_a_lost_game_none_at_all():
    game = won(5, "standard")
    assert score(game, seconds=TIME_BONUS_SECONDS + 50).time_bonus == 0
    lost = Game(Deal.from_number(1), "standard", 1)
    while not lost.is_over():
        lost.play(Move.draw() if Move.draw() in lost.legal_moves else lost.legal_moves[0])
    assert score(lost, seconds=10).time_bonus == 0


def test_the_score_depends_on_the_position_not_on_how_it_was_reached():
    game = Game(Deal.from_number(5))
    line = solve(game).moves
    for move in line[:10]:
        game.play(move)
    replayed = Game.replay(game.deal, game.goal, game.passes, game.moves)
    assert score(game) == score(replayed)

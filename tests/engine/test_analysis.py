"""Game analysis: where a game stopped being winnable, and the move that would have kept a win.

The games are built from known deals: follow the solver's winning line for a while, play a
move that loses, then play on (greedily) until the game ends.
"""

from __future__ import annotations

import math

import pytest

from app.engine import Deal, Game, analysis
from app.engine.analysis import analyse, winnable_until
from app.engine.greedy import play_greedy
from app.engine.solver import solve


def winnable(deal: Deal, goal: str, passes: int, moves) -> bool | None:
    return solve(Game.replay(deal, goal, passes, moves)).winnable


def lost_game(number: int, goal: str, passes: int, follow: int) -> tuple[Game, int]:
    """Deal ``number``'s winning line for at least ``follow`` moves, then the first legal move
    that loses, then greedy play to the end. Returns the game and the losing move's number."""
    game = Game(Deal.from_number(number), goal, passes)
    line = solve(game).moves
    assert line, f"deal {number} is not winnable in {goal} {passes}p"
    for k, move in enumerate(line):
        if k >= follow:
            for other in game.legal_moves:
                game.play(other)
                if solve(game).winnable is False:
                    return play_greedy(game), k + 1
                game.undo()
        game.play(move)
    raise AssertionError(f"no losing move on deal {number}'s line after move {follow}")


GAMES = [  # (deal, goal, passes, follow the line for at least this many moves)
    (1, "standard", 3, 20),
    (6, "wholedeck", 3, 30),
    (4, "standard", 2, 25),
    (5, "wholedeck", 2, 30),
    (3, "standard", 1, 10),
    (2, "wholedeck", 1, 5),
]


@pytest.mark.parametrize(("number", "goal", "passes", "follow"), GAMES)
def test_lost_at_is_the_losing_move_and_better_move_keeps_a_win(number, goal, passes, follow):
    game, losing = lost_game(number, goal, passes, follow)
    assert game.is_over() and not game.outcome().won
    result = analyse(game)
    assert result.winnable_at_start is True and not result.won and result.complete
    assert result.lost_at == losing and result.losing_move == game.moves[losing - 1]
    before, after = game.moves[: losing - 1], game.moves[:losing]
    assert winnable(game.deal, goal, passes, before) is True
    assert winnable(game.deal, goal, passes, after) is False
    # The better move is legal there and keeps a win.
    assert result.better_move != result.losing_move
    assert winnable(game.deal, goal, passes, [*before, result.better_move]) is True
    # The solution from the start is a winning line.
    won = Game.replay(game.deal, goal, passes, result.solution)
    assert won.outcome().won
    # A binary search, not a solve per move.
    assert result.solves <= 3 + math.ceil(math.log2(len(game.moves)))
    assert result.moves_played == len(game.moves) and result.nodes > 0


@pytest.mark.parametrize(("number", "goal", "passes", "follow"), GAMES[:3])
def test_lost_at_agrees_with_solving_every_position(number, goal, passes, follow):
    game, _ = lost_game(number, goal, passes, follow)
    verdicts = [winnable(game.deal, goal, passes, game.moves[:k])
                for k in range(len(game.moves) + 1)]
    first_lost = verdicts.index(False)
    assert all(verdicts[:first_lost]) and not any(verdicts[first_lost:])  # once lost, lost
    assert analyse(game).lost_at == first_lost


def test_a_game_lost_at_its_first_move():
    game, losing = lost_game(5, "standard", 3, 0)  # deal 5 has a losing first move
    assert losing == 1
    result = analyse(game)
    assert result.lost_at == 1 and result.better_move in Game(game.deal).legal_moves
    assert winnable(game.deal, "standard", 3, [result.better_move]) is True


@pytest.mark.parametrize(("number", "goal", "passes"), [(23, "standard", 1),
                                                        (1, "wholedeck", 1)])
def test_a_deal_never_winnable_says_so(number, goal, passes):
    game = play_greedy(Game(Deal.from_number(number), goal, passes))
    assert not game.outcome().won
    result = analyse(game)
    assert result.winnable_at_start is False and result.complete
    assert result.lost_at is None and result.better_move is None and result.solution is None
    assert result.solves == 1  # the start alone
    assert winnable_until(game) is None


def test_a_won_game_has_no_lost_at():
    deal = Deal.from_number(617)
    line = solve(Game(deal, "wholedeck", 3)).moves
    result = analyse(Game.replay(deal, "wholedeck", 3, line))
    assert result.won and result.winnable_at_start is True
    assert result.lost_at is None and result.better_move is None and result.losing_move is None
    assert result.solution == line and result.solves == 0
    assert winnable_until(Game.replay(deal, "wholedeck", 3, line)) == 0


def test_a_game_in_progress_that_can_still_be_won():
    deal = Deal.from_number(3)
    line = solve(Game(deal, "standard", 3)).moves
    result = analyse(Game.replay(deal, "standard", 3, line[:8]))
    assert result.winnable_at_start is True and result.lost_at is None and not result.won
    assert winnable_until(Game.replay(deal, "standard", 3, line[:8])) == 0
    assert analyse(Game.replay(deal, "standard", 3, [])).lost_at is None


@pytest.mark.parametrize(("number", "goal", "passes", "follow"), GAMES[:2])
def test_winnable_until_counts_the_moves_to_undo(number, goal, passes, follow):
    game, losing = lost_game(number, goal, passes, follow)
    undo = winnable_until(game)
    assert undo == len(game.moves) - losing + 1
    moves = game.moves
    assert winnable(game.deal, goal, passes, moves[: len(moves) - undo]) is True
    assert winnable(game.deal, goal, passes, moves[: len(moves) - undo + 1]) is False
    # Still in progress, a few moves after the losing one:
    partial = moves[: losing + 2]
    assert winnable_until(Game.replay(game.deal, goal, passes, partial)) == 3


def test_undecided_at_the_node_limit_is_none_not_a_guess():
    deal = Deal.from_number(1830)  # standard, 1 pass: needs some 34,000 nodes
    game = play_greedy(Game(deal, "standard", 1))
    result = analyse(Game.replay(deal, "standard", 1, game.moves), node_limit=50)
    assert result.winnable_at_start is None and result.lost_at is None
    assert result.solution is None and not result.complete
    assert winnable_until(Game.replay(deal, "standard", 1, game.moves), node_limit=50) is None


def test_analysis_leaves_the_game_as_it_was():
    game, _ = lost_game(*GAMES[0])
    before = (list(game.moves), list(game.pyramid), list(game.stock), list(game.waste))
    analyse(game)
    winnable_until(game)
    assert (list(game.moves), list(game.pyramid), list(game.stock), list(game.waste)) == before


def test_a_known_solve_of_the_position_is_not_searched_again():
    game, losing = lost_game(*GAMES[0])
    end = solve(game)
    assert end.winnable is False
    searched = []
    real = analysis.solve

    def counting(position, **options):
        searched.append(len(position.moves))
        return real(position, **options)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(analysis, "solve", counting)
        assert winnable_until(game, known=end) == len(game.moves) - losing + 1
    assert len(game.moves) not in searched

"""Par: the fewest moves that win, checked against a plain breadth-first search.

The breadth-first search here is written over ``Game.legal_moves``, ``Game.play`` and
``Game.undo`` alone: it shares no code with the C par search, so agreeing with it on many
positions of every variant says the C search's bound and prunings cut no shortest line. The
positions are late ones of real deals (a few moves before the end of a winning line, or after
random moves), small enough for the plain search to finish in a moment.
"""

from __future__ import annotations

import random
from collections import deque

import pytest

from app.engine import Deal, Game
from app.engine.solver import SearchLimitReached, par, solve

VARIANTS = [(goal, passes) for goal in ("standard", "wholedeck") for passes in (1, 2, 3)]
BFS_LIMIT = 60_000
"""Positions the plain search may visit before the test gives the position up as too big."""


def key(game: Game) -> tuple:
    return tuple(game.pyramid), tuple(game.stock), tuple(game.waste), game.pass_number


def bfs_par(game: Game) -> int | None:
    """Fewest moves to a win, by breadth-first search over every legal move; None when no
    position within reach wins. Raises OverflowError past BFS_LIMIT positions."""
    start = game.copy()
    if start.outcome() is not None:
        return 0 if start.outcome().won else None
    seen = {key(start)}
    frontier = deque([(tuple(start.moves), 0)])
    base = len(start.moves)
    while frontier:
        line, depth = frontier.popleft()
        probe = start.copy()
        for move in line[base:]:
            probe.play(move)
        for move in probe.legal_moves:
            probe.play(move)
            outcome = probe.outcome()
            if outcome is not None and outcome.won:
                return depth + 1
            k = key(probe)
            if outcome is None and k not in seen:
                seen.add(k)
                if len(seen) > BFS_LIMIT:
                    raise OverflowError("too big for the plain search")
                frontier.append((tuple(probe.moves), depth + 1))
            probe.undo()
    return None


def replays_to_win(game: Game, moves) -> bool:
    copy = game.copy()
    for move in moves:
        copy.play(move)
    outcome = copy.outcome()
    return outcome is not None and outcome.won


def late_positions(goal: str, passes: int, deals: range, before_end: int) -> list[Game]:
    """The position ``before_end`` moves before the end of the decision search's winning line,
    for each winnable deal."""
    found = []
    for number in deals:
        game = Game(Deal.from_number(number), goal, passes)
        line = solve(game).moves
        if not line:
            continue
        for move in line[: max(0, len(line) - before_end)]:
            game.play(move)
        found.append(game)
    return found


def random_positions(goal: str, passes: int, deals: range, depth: int) -> list[Game]:
    """Each deal after ``depth`` random legal moves, when still in play."""
    found = []
    for number in deals:
        rng = random.Random(number * 31 + passes)
        game = Game(Deal.from_number(number), goal, passes)
        for _ in range(depth):
            if game.is_over():
                break
            game.play(rng.choice(game.legal_moves))
        if not game.is_over():
            found.append(game)
    return found


@pytest.mark.parametrize(("goal", "passes"), VARIANTS)
def test_par_is_the_plain_breadth_first_distance(goal: str, passes: int):
    checked = wins = 0
    deals = range(1, 150 if passes == 1 else 20)  # one pass: few deals are winnable
    positions = late_positions(goal, passes, deals, before_end=14)
    positions += random_positions(goal, passes, range(1, 40 if passes == 1 else 16),
                                  depth=30 + 6 * passes)
    for game in positions:
        try:
            expected = bfs_par(game)
        except OverflowError:
            continue
        checked += 1
        solution = solve(game, shortest=True)
        assert solution.par == expected, game
        if expected is None:
            assert solution.winnable is False
            continue
        assert solution.shortest and replays_to_win(game, solution.moves)
        assert len(solution.moves) <= len(solve(game).moves)
        wins += 1
    assert checked >= 15 and wins >= 5  # enough positions were small enough to check


@pytest.mark.parametrize(("goal", "passes"), VARIANTS)
def test_par_lines_of_whole_deals_replay_and_never_exceed_the_decision_line(goal, passes):
    wins = shorter = 0
    for number in range(1, 7):
        game = Game(Deal.from_number(number), goal, passes)
        decision = solve(game)
        shortest = solve(game, shortest=True)
        assert shortest.verdict == decision.verdict
        if not decision.winnable:
            assert shortest.moves is None and par(game) is None
            continue
        wins += 1
        assert replays_to_win(game, shortest.moves)
        assert shortest.par == len(shortest.moves) <= len(decision.moves)
        shorter += shortest.par < len(decision.moves)
        assert par(game) == shortest.par
    assert wins


def test_par_of_a_won_position_is_zero_and_one_move_from_it_is_one():
    game = Game(Deal.from_number(3), "standard", 3)
    line = solve(game, shortest=True).moves
    for move in line[:-1]:
        game.play(move)
    assert par(game) == 1
    game.play(line[-1])
    assert game.outcome().won
    assert par(game) == 0 and solve(game, shortest=True).moves == ()


def test_par_along_a_shortest_line_counts_down_by_one():
    game = Game(Deal.from_number(5), "standard", 3)
    line = solve(game, shortest=True).moves
    for done, move in enumerate(line[:6]):
        assert par(game) == len(line) - done
        game.play(move)


def test_a_node_limit_stops_par_with_an_error_not_a_wrong_answer():
    game = Game(Deal.from_number(2), "standard", 3)
    with pytest.raises(SearchLimitReached):
        par(game, node_limit=100)
    assert solve(game, node_limit=100, shortest=True).winnable is None

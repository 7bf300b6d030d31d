"""The solver's rule options: unlimited passes and overlap pairs.

``Game`` plays neither, so this module has its own small model of the game under the options
(``Position``, written from RULES.md and the option's wording, sharing no code with the C
core): the solver's winning lines must replay through it to a win, and its verdicts and par
must agree with a plain search over it on positions small enough for that search.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, replace

import pytest

from app.engine import Card, Deal, Game, Move, Op
from app.engine.deal import COVERED_BY
from app.engine.solver import solve

OPTIONS = [(None, False), (None, True), (1, True), (2, True), (3, True)]
"""(passes, overlap) pairs: passes None is unlimited."""
GOALS = ["standard", "wholedeck"]
SEARCH_LIMIT = 12_000
"""Positions the plain searches may visit before a position is given up as too big."""


@dataclass(frozen=True)
class Position:
    """A position under the options: stock top first, waste top last."""

    pyramid: tuple[Card | None, ...]
    stock: tuple[Card, ...]
    waste: tuple[Card, ...]
    recycles: int
    wholedeck: bool
    passes: int | None
    overlap: bool

    @classmethod
    def of(cls, game: Game, passes: int | None, overlap: bool) -> Position:
        recycles = 0 if passes is None else game.pass_number - 1
        return cls(tuple(game.pyramid), tuple(game.stock), tuple(game.waste), recycles,
                   game.goal == "wholedeck", passes, overlap)

    def present(self, slot: int) -> bool:
        return self.pyramid[slot] is not None

    def free_slots(self) -> list[int]:
        return [i for i in range(28) if self.present(i)
                and not any(self.present(j) for j in COVERED_BY[i])]

    def free_cards(self) -> list[Card]:
        cards = [self.pyramid[i] for i in self.free_slots()]
        return cards + [pile for pile in (self.stock[:1] + self.waste[-1:])]

    def moves(self) -> list[Move]:
        if self.won:
            return []
        free = self.free_cards()
        found = [Move(Op.REMOVE, (card,)) for card in free if card.rank == 13]
        found += [Move(Op.REMOVE, (a, b)) for i, a in enumerate(free) for b in free[i + 1:]
                  if a.rank + b.rank == 13]
        if self.overlap:
            free_slots = set(self.free_slots())
            for x in range(28):
                covers = [j for j in COVERED_BY[x] if self.present(j)]
                if self.present(x) and len(covers) == 1 and covers[0] in free_slots:
                    card, cover = self.pyramid[x], self.pyramid[covers[0]]
                    if card.rank + cover.rank == 13:
                        found.append(Move(Op.REMOVE, (card, cover)))
        if self.stock:
            found.append(Move(Op.DRAW))
        elif self.waste and (self.passes is None or self.recycles < self.passes - 1):
            found.append(Move(Op.RECYCLE))
        return found

    def play(self, move: Move, check: bool = True) -> Position:
        """The position after ``move``; ValueError when it is not legal here (``check``)."""
        if check and move not in self.moves():
            raise ValueError(f"illegal move {move}")
        pyramid, stock, waste = list(self.pyramid), list(self.stock), list(self.waste)
        recycles = self.recycles
        if move.op is Op.DRAW:
            waste.append(stock.pop(0))
        elif move.op is Op.RECYCLE:
            stock, waste = waste, []
            recycles += self.passes is not None
        else:
            for card in move.cards:
                if card in pyramid:
                    pyramid[pyramid.index(card)] = None
                elif stock and stock[0] == card:
                    stock.pop(0)
                else:
                    waste.pop()
        return Position(tuple(pyramid), tuple(stock), tuple(waste), recycles, self.wholedeck,
                        self.passes, self.overlap)

    @property
    def won(self) -> bool:
        cleared = all(card is None for card in self.pyramid)
        return cleared and (not self.wholedeck or not (self.stock or self.waste))


def plain_par(start: Position) -> int | None:
    """Fewest moves to a win by breadth-first search (None: no win); OverflowError when too big.
    Positions repeat with unlimited passes: the seen set is all the search needs."""
    if start.won:
        return 0
    seen = {start}
    frontier = deque([(start, 0)])
    while frontier:
        position, depth = frontier.popleft()
        for move in position.moves():
            after = position.play(move, check=False)
            if after.won:
                return depth + 1
            if after not in seen:
                seen.add(after)
                if len(seen) > SEARCH_LIMIT:
                    raise OverflowError("too big for the plain search")
                frontier.append((after, depth + 1))
    return None


def replays_to_win(start: Position, moves) -> bool:
    position = start
    for move in moves:
        position = position.play(move)
    return position.won


def late_positions(goal: str, passes: int, deals: range, depth: int) -> list[Game]:
    """Deals after ``depth`` random legal moves of the game's own rules, and 14 moves before
    the end of a winning line under them (so that some positions are winnable)."""
    found = []
    for number in deals:
        rng = random.Random(number * 13 + depth)
        game = Game(Deal.from_number(number), goal, passes)
        line = solve(game).moves
        for move in line[: max(0, len(line) - 14)] if line and number % 2 else ():
            game.play(move)
        for _ in range(0 if line and number % 2 else depth):
            if game.is_over():
                break
            game.play(rng.choice(game.legal_moves))
        found.append(game)
    return found


@pytest.mark.parametrize("goal", GOALS)
@pytest.mark.parametrize(("passes", "overlap"), OPTIONS)
def test_verdicts_and_par_agree_with_the_plain_search(goal, passes, overlap):
    checked = {True: 0, False: 0}
    for game in late_positions(goal, passes or 3, range(1, 40), depth=30 + 6 * (passes or 3)):
        start = Position.of(game, passes, overlap)
        try:
            expected = plain_par(start)
        except OverflowError:
            continue
        solution = solve(game, shortest=True, passes=passes, overlap=overlap)
        assert solution.par == expected
        assert solve(game, passes=passes, overlap=overlap).winnable == (expected is not None)
        if expected is not None:
            assert replays_to_win(start, solution.moves)
        checked[expected is not None] += 1
    assert checked[True] >= 3 and checked[False] >= 3, checked


@pytest.mark.parametrize("goal", GOALS)
@pytest.mark.parametrize(("passes", "overlap"), OPTIONS)
def test_winning_lines_of_whole_deals_replay_under_the_options(goal, passes, overlap):
    wins = 0
    for number in range(1, 16):
        game = Game(Deal.from_number(number), goal, 3)
        solution = solve(game, passes=passes, overlap=overlap)
        assert solution.winnable is not None
        if solution.winnable:
            wins += 1
            assert replays_to_win(Position.of(game, passes, overlap), solution.moves)
    assert wins


def test_more_rules_never_lose_a_win():
    """Unlimited passes only add recycles, overlap pairs only add removals: what the game's
    rules win, the options win too."""
    for number in range(1, 41):
        for goal in GOALS:
            game = Game(Deal.from_number(number), goal, 1)
            plain = solve(game).winnable
            unlimited = solve(game, passes=None).winnable
            both = solve(game, passes=None, overlap=True).winnable
            overlap_3 = solve(game, passes=3, overlap=True).winnable
            assert plain <= unlimited <= both
            assert solve(game, passes=3).winnable <= overlap_3 <= both


def test_overlap_pairs_are_used_and_are_what_the_option_says():
    """Some deal needs an overlap pair to be won, and every overlap pair in a line pairs a card
    with the one card still covering it."""
    used = 0
    for number in range(1, 60):
        game = Game(Deal.from_number(number), "standard", 1)
        if solve(game).winnable:
            continue
        solution = solve(game, overlap=True)
        if not solution.winnable:
            continue
        position = Position.of(game, 1, True)
        for move in solution.moves:
            if move not in replace(position, overlap=False).moves():  # an overlap pair
                low, high = sorted(position.pyramid.index(card) for card in move.cards)
                assert high in COVERED_BY[low]
                used += 1
            position = position.play(move)
        assert position.won
    assert used


def test_passes_out_of_range_are_refused():
    game = Game(Deal.from_number(1), "standard", 3)
    with pytest.raises(ValueError):
        solve(game, passes=4)
    for _ in range(24):
        game.play(Move(Op.DRAW))
    game.play(Move(Op.RECYCLE))
    with pytest.raises(ValueError):
        solve(game, passes=1)  # already in pass 2

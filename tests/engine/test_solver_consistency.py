"""The solver's verdicts checked against facts of the rules, not against itself.

- A winning line replays through ``Game.play`` to a win.
- A whole-deck win clears the pyramid on the way, so it is a standard win too.
- One more pass only adds choices: what is winnable with P passes is winnable with P + 1.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import MAX_DEAL_NUMBER, Deal, Game
from app.engine.solver import solve

deal_numbers = st.one_of(st.integers(1, 31999), st.integers(32000, MAX_DEAL_NUMBER))


def verdict(deal: Deal, goal: str, passes: int) -> bool:
    game = Game(deal, goal, passes)
    solution = solve(game)
    assert solution.winnable is not None
    if solution.winnable:
        assert solution.moves is not None
        won = Game.replay(deal, goal, passes, solution.moves)
        assert won.outcome() is not None and won.outcome().won
    else:
        assert solution.moves is None
    return solution.winnable


@settings(max_examples=8, deadline=None)
@given(number=deal_numbers)
def test_verdicts_agree_with_the_rules(number: int):
    deal = Deal.from_number(number)
    standard = [verdict(deal, "standard", p) for p in (1, 2, 3)]
    whole = verdict(deal, "wholedeck", 1)
    assert standard == sorted(standard)  # False before True: more passes never lose a win
    assert standard[0] or not whole

"""Property tests: random deals (numbered and shuffled custom ones) and random legal play.

Each example plays a random line (a list of choices, so Hypothesis can shrink it) and checks
the invariants after every move. Example counts are kept modest so the module stays quick.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import (
    FULL_DECK,
    MAX_DEAL_NUMBER,
    Card,
    Deal,
    Game,
    Goal,
    IllegalMove,
    Move,
    Termination,
)

from .engine_helpers import removed_cards, state

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

numbered_deals = st.one_of(
    st.integers(1, 31999),  # the Microsoft generator
    st.integers(32000, MAX_DEAL_NUMBER),  # the Mersenne Twister
).map(Deal.from_number)
custom_deals = st.permutations(FULL_DECK).map(lambda cs: Deal(tuple(cs[:28]), tuple(cs[28:])))
deals = st.one_of(numbered_deals, custom_deals)
goals = st.sampled_from(list(Goal))
passes = st.sampled_from([1, 2, 3])
# A line of play: a seed for the random choices and how many moves to play at most (a game
# lasts at most 52 removals + 72 draws + 2 recycles, so 200 plays most games to the end).
lines = st.tuples(st.integers(0, 2**32 - 1), st.integers(0, 200))

ALL_REMOVALS = [Move.remove(c) for c in FULL_DECK] + [
    Move.remove(a, b) for i, a in enumerate(FULL_DECK) for b in FULL_DECK[i + 1 :]
]
ALL_MOVES = [*ALL_REMOVALS, Move.draw(), Move.recycle()]


def play_line(game: Game, line: tuple[int, int], check=None) -> None:
    seed, length = line
    rng = random.Random(seed)
    for _ in range(length):
        legal = game.legal_moves
        if not legal:
            break
        game.play(rng.choice(legal))
        if check:
            check(game)


def check_cards_accounted_for(game: Game) -> None:
    on_table = [c for c in game.pyramid if c is not None] + game.stock + game.waste
    gone = removed_cards(game)
    assert sorted(on_table + gone, key=lambda c: c.index) == list(FULL_DECK)
    assert game.cards_removed == len(gone) and game.pyramid_left + len(game.stock) + len(
        game.waste) == len(on_table)


def check_values_balance(game: Game) -> None:
    """Every removal is a King or two values that make 13, so what is left holds as many
    cards of value v as of 13 - v. (This is why DECK_STUCK can never happen in play.)"""
    left = Counter(c.rank for c in game.pyramid if c is not None)
    left.update(c.rank for c in game.stock + game.waste)
    assert all(left[v] == left[13 - v] for v in range(1, 7))


@SETTINGS
@given(deal=deals, goal=goals, passes=passes, line=lines)
def test_random_play_keeps_every_card_and_the_balance(deal, goal, passes, line):
    game = Game(deal, goal, passes)

    def check(g: Game) -> None:
        check_cards_accounted_for(g)
        check_values_balance(g)
        outcome = g.outcome()
        assert outcome is None or outcome.termination is not Termination.DECK_STUCK
        assert 1 <= g.pass_number <= passes and g.passes_left == passes - g.pass_number
        assert (g.legal_moves == []) == g.is_over()

    check(game)
    play_line(game, line, check)


@SETTINGS
@given(deal=deals, goal=goals, passes=passes, line=lines)
def test_every_legal_move_plays_and_undo_restores_exactly(deal, goal, passes, line):
    game = Game(deal, goal, passes)

    def check(g: Game) -> None:
        legal = g.legal_moves
        assert len(set(legal)) == len(legal)
        before = state(g)
        for move in legal:
            assert g.is_legal(move)
            g.play(move)
            assert g.moves[-1] == move
            assert g.undo() == move
            assert state(g) == before

    check(game)
    play_line(game, line, check)


@settings(max_examples=25, deadline=None)
@given(deal=deals, goal=goals, passes=passes, line=lines)
def test_every_move_not_legal_is_refused_and_changes_nothing(deal, goal, passes, line):
    game = Game(deal, goal, passes)
    play_line(game, line)
    legal = set(game.legal_moves)
    before = state(game)
    for move in ALL_MOVES:
        assert game.is_legal(move) == (move in legal)
        if move in legal:
            continue
        try:
            game.play(move)
        except IllegalMove as exc:
            message = str(exc)
            assert message.endswith(".") and "Card.parse" not in message
        else:
            raise AssertionError(f"{move} is not in legal_moves but played")
        assert state(game) == before


@SETTINGS
@given(deal=deals, goal=goals, passes=passes, line=lines)
def test_replay_rebuilds_the_same_game(deal, goal, passes, line):
    game = Game(deal, goal, passes)
    play_line(game, line)
    again = Game.replay(deal, goal, passes, list(game.moves))
    assert again == game and state(again) == state(game)
    assert (again.pyramid, again.stock, again.waste) == (game.pyramid, game.stock, game.waste)
    # Through the move texts and JSON, as a saved game would go.
    from_text = Game.replay(
        Deal.from_text(deal.to_text()), goal.value, passes,
        [Move.from_text(m.to_text()) for m in game.moves],
    )
    from_json = Game.replay(
        Deal.from_json(deal.to_json()), goal, passes,
        [Move.from_json(m.to_json()) for m in game.moves],
    )
    assert state(from_text) == state(game) == state(from_json)
    # Undoing everything gets back to the start.
    while game.moves:
        game.undo()
    assert state(game) == state(Game(deal, goal, passes))


@settings(max_examples=60, deadline=None)
@given(deal=deals)
def test_deal_json_and_text_round_trip(deal):
    assert Deal.from_json(deal.to_json()) == deal
    assert Deal.from_json(deal.to_json()).number == deal.number
    assert Deal.from_dict(deal.to_dict()) == deal
    assert Deal.from_text(deal.to_text()) == deal
    assert sorted(deal.pyramid + deal.stock, key=lambda c: c.index) == list(FULL_DECK)


@settings(max_examples=100, deadline=None)
@given(card=st.sampled_from(FULL_DECK), other=st.sampled_from(FULL_DECK))
def test_card_and_move_forms_round_trip(card: Card, other: Card):
    assert Card.parse(card.name) == card and Card.parse(str(card).lower()) == card
    moves = [Move.remove(card), Move.draw(), Move.recycle()]
    if other != card:
        moves.append(Move.remove(card, other))
        assert Move.remove(card, other) == Move.remove(other, card)
    for move in moves:
        assert Move.from_text(move.to_text()) == move
        assert Move.from_json(move.to_json()) == move
        assert Move.from_dict(move.to_dict()) == move

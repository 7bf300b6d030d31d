"""Each rule of RULES.md, and each way a game ends, on small hand-built deals.

The deals live in ``engine_helpers`` with a comment saying why they are shaped as they are.
"""

from __future__ import annotations

import pytest

from app.engine import (
    FULL_DECK,
    MAX_PASSES,
    Card,
    Code,
    Deal,
    Game,
    GameSetupError,
    Goal,
    IllegalMove,
    Move,
    Refusal,
    Termination,
)
from app.engine.deal import COVERED_BY, position, row_col

from .engine_helpers import (
    ALL_BUT_APEX_B,
    CLEAR_PYRAMID_A,
    CLEAR_STOCK_A,
    DEAL_A,
    DEAL_B,
    DEAL_N,
    DEAL_S,
    deal_with,
    play,
    state,
)

GOALS = [Goal.STANDARD, Goal.WHOLE_DECK]
DRAW_ALL = ", ".join(["draw"] * 24)


def names(cards) -> list[str]:
    return [c.name for c in cards]


def texts(moves) -> set[str]:
    return {m.to_text() for m in moves}


# --- the deal and the pyramid's shape ---------------------------------------------------------
def test_pyramid_geometry():
    assert [row_col(i) for i in (0, 1, 2, 3, 27)] == [(0, 0), (1, 0), (1, 1), (2, 0), (6, 6)]
    assert all(position(*row_col(i)) == i for i in range(28))
    # (r, c) is covered by (r+1, c) and (r+1, c+1); the bottom row by nothing.
    assert COVERED_BY[0] == (1, 2)
    assert COVERED_BY[4] == (7, 8)  # (2, 1) covered by (3, 1) and (3, 2)
    assert all(COVERED_BY[i] == () for i in range(21, 28))


def test_new_game_layout():
    game = Game(DEAL_A)
    assert game.pyramid == list(DEAL_A.pyramid)
    assert game.stock == list(DEAL_A.stock)
    assert game.waste == []
    assert game.stock_top == Card.parse("AH") and game.waste_top is None
    assert (game.pass_number, game.passes, game.passes_left) == (1, 3, 2)
    assert game.goal is Goal.STANDARD and game.moves == [] and game.outcome() is None


def test_setup_choices():
    assert Game(DEAL_A, "wholedeck", 1).goal is Goal.WHOLE_DECK
    for bad_goal in ("relaxed", "", None):
        with pytest.raises(GameSetupError, match="goal must be 'standard' or 'wholedeck'"):
            Game(DEAL_A, bad_goal)
    for bad_passes in (0, 4, -1, 2.5, "two", True):
        with pytest.raises(GameSetupError, match="passes must be a whole number from 1 to 3"
                           ) as refused:
            Game(DEAL_A, "standard", bad_passes)
        assert refused.value.refusal == Refusal(Code.UNKNOWN_PASSES,
                                                {"value": bad_passes, "most": MAX_PASSES})


# --- free cards ---------------------------------------------------------------------------------
def test_free_cards_at_start_are_bottom_row_and_stock_top():
    game = Game(DEAL_A)
    assert names(game.free_cards()) == ["KC", "AC", "QC", "2C", "JC", "3C", "TC", "AH"]
    assert [i for i, _ in game.free_pyramid()] == list(range(21, 28))


def test_pyramid_card_is_free_only_when_both_covering_cards_are_gone():
    game = Game(DEAL_A)
    four_clubs = Card.parse("4C")  # (5, 0), covered by KC (6, 0) and AC (6, 1)
    play(game, "KC")
    assert four_clubs not in game.free_cards()  # AC still covers it
    play(game, "AC+QC")
    assert four_clubs in game.free_cards()
    # 9C (5, 1) was covered by AC and QC: both gone now, so it is free too.
    assert Card.parse("9C") in game.free_cards()
    assert Card.parse("5C") not in game.free_cards()  # (5, 2): 2C still there


def test_waste_top_is_free_but_not_the_card_under_it():
    game = play(Game(DEAL_A), "draw, draw")
    assert game.waste_top == Card.parse("QH") and game.stock_top == Card.parse("2H")
    assert Card.parse("QH") in game.free_cards()
    assert Card.parse("AH") not in game.free_cards()


# --- removals ------------------------------------------------------------------------------------
def test_pair_of_free_pyramid_cards_that_make_13():
    game = play(Game(DEAL_A), "AC+QC")
    assert game.pyramid[22] is None and game.pyramid[23] is None
    assert game.cards_removed == 2 and game.moves == [Move.from_text("AC+QC")]


def test_pairs_offered_are_exactly_those_that_make_13():
    game = Game(DEAL_A)
    # free: KC AC QC 2C JC 3C TC and stock top AH.
    assert texts(game.legal_moves) == {"KC", "AC+QC", "AH+QC", "2C+JC", "3C+TC", "draw"}


def test_king_removed_alone_from_the_pyramid():
    game = play(Game(DEAL_A), "KC")
    assert game.pyramid[21] is None and game.cards_removed == 1


def test_king_removed_alone_from_the_stock():
    game = Game(DEAL_B)
    assert Move.from_text("KS") in game.legal_moves
    play(game, "KS")
    assert game.stock_top == Card.parse("AH") and game.waste == [] and game.cards_removed == 1


def test_king_removed_alone_from_the_waste():
    game = play(Game(DEAL_B), "draw")
    assert game.waste_top == Card.parse("KS")
    play(game, "KS")
    assert game.waste == [] and game.stock_top == Card.parse("AH")


def test_stock_top_pairs_with_waste_top():
    game = play(Game(DEAL_A), "draw")
    assert (game.stock_top, game.waste_top) == (Card.parse("QH"), Card.parse("AH"))
    assert Move.from_text("AH+QH") in game.legal_moves
    play(game, "QH+AH")
    assert game.waste == [] and game.stock_top == Card.parse("2H")


def test_stock_top_pairs_with_pyramid_and_waste_top_with_pyramid():
    game = play(Game(DEAL_A), "AH+QC")  # stock top with a pyramid card
    assert game.stock_top == Card.parse("QH")
    play(game, "draw, AC+QH")  # waste top with a pyramid card
    assert game.waste == [] and game.pyramid[22] is None


def test_the_two_orders_of_a_pair_are_one_move():
    assert Move.from_text("QC+AC") == Move.from_text("AC+QC")
    assert hash(Move.from_text("QC+AC")) == hash(Move.from_text("AC+QC"))


# --- draw and recycle -----------------------------------------------------------------------------
def test_draw_moves_stock_top_onto_the_waste():
    game = play(Game(DEAL_A), "draw")
    assert game.waste == [Card.parse("AH")] and game.stock == list(DEAL_A.stock[1:])


def test_recycle_turns_the_waste_over_in_original_order():
    game = play(Game(DEAL_A, passes=2), "draw, draw, AC+QH, " + ", ".join(["draw"] * 22))
    assert game.stock == [] and len(game.waste) == 23
    assert Move.recycle() in game.legal_moves and Move.draw() not in game.legal_moves
    play(game, "recycle")
    # The card drawn first (AH) is the stock's top again; QH is gone; the order is the deal's.
    assert game.stock == [c for c in DEAL_A.stock if c.name != "QH"]
    assert game.stock_top == Card.parse("AH") and game.waste == []
    assert game.pass_number == 2 and game.passes_left == 0


def test_recycle_only_when_stock_is_empty():
    game = Game(DEAL_A)
    assert Move.recycle() not in game.legal_moves
    with pytest.raises(IllegalMove, match=r"^The stock still has 24 cards: recycle only when"):
        game.play(Move.recycle())


def test_no_recycle_of_an_empty_waste():
    # Deal A's stock pairs off completely: then stock and waste are both empty.
    game = play(Game(DEAL_A, "wholedeck"), CLEAR_STOCK_A)
    assert game.stock == [] and game.waste == [] and game.passes_left == 2
    assert Move.recycle() not in game.legal_moves
    with pytest.raises(IllegalMove, match=r"^The waste is empty: there is nothing to recycle"):
        game.play(Move.recycle())


@pytest.mark.parametrize("passes", [1, 2, 3])
def test_pass_counting(passes: int):
    """P passes allow P - 1 recycles; the pass number counts up, passes_left down."""
    game = Game(DEAL_A, passes=passes)
    for pass_number in range(1, passes + 1):
        assert (game.pass_number, game.passes_left) == (pass_number, passes - pass_number)
        play(game, DRAW_ALL)
        assert game.stock == [] and game.outcome() is None  # KC is still removable
        if pass_number < passes:
            assert Move.recycle() in game.legal_moves
            play(game, "recycle")
            assert game.stock == list(DEAL_A.stock)
    assert Move.recycle() not in game.legal_moves and Move.draw() not in game.legal_moves
    noun = "pass" if passes == 1 else "passes"
    with pytest.raises(IllegalMove, match=rf"^No passes left: this game allows {passes} {noun}."):
        game.play(Move.recycle())
    with pytest.raises(IllegalMove, match=r"^The stock is empty and no passes are left."):
        game.play(Move.draw())
    assert game.moves.count(Move.recycle()) == passes - 1


def test_draw_on_empty_stock_says_to_recycle_while_passes_are_left():
    game = play(Game(DEAL_A, passes=2), DRAW_ALL)
    with pytest.raises(IllegalMove, match=r"^The stock is empty: recycle the waste"):
        game.play(Move.draw())


# --- the player-readable IllegalMove messages ----------------------------------------------------
def test_message_when_values_do_not_make_13():
    game = Game(deal_with({21: "7H", 22: "5C"}))
    with pytest.raises(IllegalMove) as info:
        game.play(Move.from_text("7H+5C"))
    assert str(info.value) == "5C and 7H make 12, not 13."


def test_message_when_a_card_is_covered():
    # 9S at (5, 0) is covered by (6, 0) and (6, 1): 4D and 9D; once 4D+9D go it is free.
    game = Game(deal_with({15: "9S", 21: "KC", 22: "4D", 23: "4C"}, stock_top="9D"))
    with pytest.raises(IllegalMove) as info:
        game.play(Move.from_text("9S+4C"))
    assert str(info.value) == "9S is covered by KC and 4D."
    play(game, "KC")
    with pytest.raises(IllegalMove) as info:
        game.play(Move.from_text("9S+4C"))
    assert str(info.value) == "9S is covered by 4D."
    play(game, "4D+9D")
    assert Card.parse("9S") in game.free_cards()


def test_message_for_a_card_inside_the_stock_or_waste_does_not_say_where_it_is():
    game = Game(DEAL_A)
    hidden = "is not a free card: only the top cards of the stock and the waste can be played."
    with pytest.raises(IllegalMove) as info:
        game.play(Move.from_text("2H+JC"))
    assert str(info.value) == f"2H {hidden}"
    play(game, "draw, draw")
    with pytest.raises(IllegalMove) as info:
        game.play(Move.from_text("AH+QC"))
    assert str(info.value) == f"AH {hidden}"


def test_message_for_a_lone_card_that_is_not_a_king():
    with pytest.raises(IllegalMove, match=r"^AC is not a King: only a King is removed on its own"):
        Game(DEAL_A).play(Move.from_text("AC"))


def test_message_for_a_card_already_removed():
    game = play(Game(DEAL_A), "KC")
    with pytest.raises(IllegalMove, match=r"^KC has already been removed\.$"):
        game.play(Move.from_text("KC"))


def test_illegal_move_leaves_the_game_unchanged():
    game = play(Game(DEAL_A), "draw, KC")
    before = state(game)
    for text in ("7H+5C", "AC", "2H+JC", "KC", "recycle", "QS+AS", "4C+9C"):
        with pytest.raises(IllegalMove):
            game.play(Move.from_text(text))
        assert state(game) == before


def test_undo():
    game = play(Game(DEAL_A), "draw, KC")
    assert game.undo() == Move.from_text("KC")
    assert game.pyramid[21] == Card.parse("KC") and game.moves == [Move.draw()]
    assert game.undo() == Move.draw()
    assert state(game) == state(Game(DEAL_A))
    with pytest.raises(IllegalMove, match="no move to undo"):
        game.undo()


def test_undo_after_recycle_and_after_game_over():
    game = play(Game(DEAL_A, passes=2), DRAW_ALL)
    before = state(game)
    play(game, "recycle")
    game.undo()
    assert state(game) == before
    game = play(Game(DEAL_S), "KC")
    assert game.is_over()
    game.undo()
    assert game.outcome() is None and Move.from_text("KC") in game.legal_moves


# --- how a game ends ---------------------------------------------------------------------------
def test_standard_goal_is_won_when_the_pyramid_is_cleared():
    game = play(Game(DEAL_A, "standard"), CLEAR_PYRAMID_A)
    outcome = game.outcome()
    assert outcome is not None and outcome.won and outcome.status == "won"
    assert outcome.termination is Termination.PYRAMID_CLEARED
    assert outcome.reason == "The pyramid is cleared."
    assert len(game.stock) == 24  # whatever is left in stock and waste


def test_whole_deck_goal_goes_on_after_the_pyramid_and_is_won_with_all_52():
    game = play(Game(DEAL_A, "wholedeck"), CLEAR_PYRAMID_A)
    assert game.pyramid_left == 0 and game.outcome() is None
    play(game, CLEAR_STOCK_A.removesuffix(", draw, 6S+7S"))
    assert game.outcome() is None
    play(game, "draw, 6S+7S")
    outcome = game.outcome()
    assert outcome is not None and outcome.won
    assert outcome.termination is Termination.DECK_CLEARED
    assert game.cards_removed == 52


def test_whole_deck_goal_won_by_the_stock_first_then_the_pyramid():
    game = play(Game(DEAL_A, "wholedeck"), CLEAR_STOCK_A + ", " + CLEAR_PYRAMID_A)
    assert game.outcome().termination is Termination.DECK_CLEARED


@pytest.mark.parametrize("goal", GOALS)
def test_pyramid_stuck(goal: Goal):
    """Free pyramid cards left but none can ever go: the Aces' Queens and the 2s' Jacks are all
    buried in the pyramid, and no free card is a King."""
    game = Game(DEAL_S, goal)
    assert game.outcome() is None  # KC is free
    play(game, "KC")
    outcome = game.outcome()
    assert outcome is not None and not outcome.won and outcome.status == "lost"
    assert outcome.termination is Termination.PYRAMID_STUCK
    assert Move.draw() not in game.legal_moves  # drawing is possible on the table, but over


@pytest.mark.parametrize("goal", GOALS)
def test_a_partner_deep_in_the_waste_keeps_the_game_going(goal: Goal):
    """RULES.md: a stock or waste card at any depth, not just the tops, counts."""
    game = play(Game(DEAL_N, goal, passes=1), "KC, draw, draw, draw")
    assert game.waste[0] == Card.parse("QS") and game.outcome() is None


@pytest.mark.parametrize("goal", GOALS)
def test_no_moves_left(goal: Goal):
    """One pass: QS went by unpaired, is buried in the waste, and nothing else can move."""
    game = play(Game(DEAL_N, goal, passes=1), "KC, " + DRAW_ALL)
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_MOVES
    assert not outcome.won and outcome.reason == "No move is left."


@pytest.mark.parametrize("goal", GOALS)
def test_same_position_with_a_pass_left_is_not_over(goal: Goal):
    game = play(Game(DEAL_N, goal, passes=2), "KC, " + DRAW_ALL)
    assert game.outcome() is None and game.legal_moves == [Move.recycle()]
    play(game, "recycle, QS+AC")
    assert game.outcome() is None


def test_king_left_in_the_waste_keeps_the_whole_deck_from_being_won():
    # KS was drawn first and lies at the bottom of the waste under 22 cards when 7S clears
    # the pyramid; with one pass there is no way back to it.
    line = ALL_BUT_APEX_B + ", " + DRAW_ALL + ", 6S+7S"
    standard = play(Game(DEAL_B, "standard", passes=1), line)
    assert standard.outcome().termination is Termination.PYRAMID_CLEARED
    whole = play(Game(DEAL_B, "wholedeck", passes=1), line)
    assert whole.pyramid_left == 0 and whole.waste[0] == Card.parse("KS")
    assert whole.outcome().termination is Termination.NO_MOVES
    assert not whole.outcome().won
    # With a second pass the King comes back round as the stock's top.
    again = play(Game(DEAL_B, "wholedeck", passes=2), line)
    assert again.outcome() is None
    play(again, "recycle")
    assert again.stock_top == Card.parse("KS") and Move.from_text("KS") in again.legal_moves


def test_a_king_on_the_waste_top_must_still_be_removed():
    # Clear all but the apex, drop KS on the waste, pair the stock off, clear the pyramid.
    pairs = ", ".join(
        f"draw, {p}" for p in ("AH+QH", "2H+JH", "3H+TH", "4H+9H", "5H+8H", "6H+7H", "AS+QS",
                               "2S+JS", "3S+TS", "4S+9S", "5S+8S")
    )
    # After "draw" (KS to the waste), each "draw" covers the King and each pair uncovers it.
    game = play(Game(DEAL_B, "wholedeck", passes=1), ALL_BUT_APEX_B + ", draw, " + pairs)
    assert game.stock == [Card.parse("7S")] and game.waste == [Card.parse("KS")]
    play(game, "6S+7S")
    assert game.pyramid_left == 0 and game.stock == [] and game.waste == [Card.parse("KS")]
    assert game.outcome() is None and game.legal_moves == [Move.from_text("KS")]
    play(game, "KS")
    assert game.outcome().termination is Termination.DECK_CLEARED


def test_deck_stuck_check():
    """DECK_STUCK cannot be reached by legal play (see test_properties: every removal takes a
    King or a value v with 13 - v, so what is left of a full pack always holds as many cards of
    value v as of 13 - v, and once the pyramid is gone a non-empty remainder without a King
    holds a pair). The check still exists; exercise it on a position set up by hand.

    No deal reaches it (a deal is a full pack), so the piles are laid out by hand one draw
    short of the position, and a public ``play`` of that draw makes the engine judge it: the
    pyramid is gone, 5H 9C are left in the stock and 5S on the waste."""
    game = Game(DEAL_A, "wholedeck")
    game.pyramid = [None] * 28
    game.stock = [Card.parse("5S"), Card.parse("5H"), Card.parse("9C")]
    game.waste = []
    game.play(Move.draw())
    assert game.stock == [Card.parse("5H"), Card.parse("9C")]
    assert game.waste == [Card.parse("5S")]
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.DECK_STUCK
    assert not outcome.won and "no two of them make 13" in outcome.reason
    assert game.legal_moves == []


@pytest.mark.parametrize(
    ("deal", "goal", "passes", "line"),
    [
        (DEAL_A, "standard", 3, CLEAR_PYRAMID_A),
        (DEAL_A, "wholedeck", 3, CLEAR_PYRAMID_A + ", " + CLEAR_STOCK_A),
        (DEAL_S, "standard", 3, "KC"),
        (DEAL_S, "wholedeck", 3, "KC"),
        (DEAL_N, "standard", 1, "KC, " + DRAW_ALL),
        (DEAL_N, "wholedeck", 1, "KC, " + DRAW_ALL),
    ],
)
def test_no_move_is_legal_after_game_over(deal: Deal, goal: str, passes: int, line: str):
    game = play(Game(deal, goal, passes), line)
    assert game.is_over() and game.legal_moves == []
    before = state(game)
    candidates = [Move.draw(), Move.recycle()] + [
        Move.remove(a, b) for a in game.free_cards() for b in game.free_cards() if a != b
    ] + [Move.remove(c) for c in game.free_cards()]
    for move in candidates:
        assert not game.is_legal(move)
        with pytest.raises(IllegalMove, match=r"^The game is over: "):
            game.play(move)
        assert state(game) == before


def test_outcome_reasons_are_sentences():
    for termination in Termination:
        from app.engine import Outcome

        reason = Outcome(termination).reason
        assert reason[0].isupper() and reason.endswith(".")
    assert {t for t in Termination if Outcome(t).won} == {
        Termination.PYRAMID_CLEARED, Termination.DECK_CLEARED}


def test_location():
    game = play(Game(DEAL_A), "draw, draw")
    assert game.location(Card.parse("KS")) == ("pyramid", 0)
    assert game.location(Card.parse("2H")) == ("stock", 0)
    assert game.location(Card.parse("QH")) == ("waste", 0)
    assert game.location(Card.parse("AH")) == ("waste", 1)
    play(game, "KC")
    assert game.location(Card.parse("KC")) is None


def test_replay_names_the_illegal_move():
    with pytest.raises(IllegalMove, match=r"^move 2 \(AC\): AC is not a King"):
        Game.replay(DEAL_A, "standard", 3, [Move.draw(), Move.from_text("AC")])


def test_game_equality_is_deal_goal_passes_moves():
    a = play(Game(DEAL_A), "draw, KC")
    b = Game.replay(DEAL_A, "standard", 3, a.moves)
    assert a == b and a.copy() == a
    assert a != play(Game(DEAL_A, passes=2), "draw, KC")
    assert a != play(Game(DEAL_A, "wholedeck"), "draw, KC")
    assert a != play(Game(DEAL_A), "KC, draw")  # same position, different move list


def test_draw_with_stock_and_waste_both_empty_says_so():
    game = play(Game(DEAL_A, "wholedeck"), CLEAR_STOCK_A)
    assert game.stock == [] and game.waste == [] and game.passes_left == 2
    with pytest.raises(IllegalMove, match=r"^The stock and the waste are both empty"):
        game.play(Move.draw())


def test_copy_is_independent_and_keeps_the_moves_to_undo():
    game = play(Game(DEAL_A, "wholedeck"), "draw, KC, draw")
    copy = game.copy()
    assert copy == game and state(copy) == state(game)
    play(copy, "draw")
    assert len(copy.moves) == 4 and len(game.moves) == 3  # the original did not move
    assert copy.undo() == Move.draw() and state(copy) == state(game)
    while copy.moves:
        copy.undo()
    assert state(copy) == state(Game(DEAL_A, "wholedeck")) and len(game.moves) == 3


def test_a_numbered_deal_is_the_same_every_time_it_is_dealt():
    first = Deal.from_number(617)
    for number in range(1, 1500):  # more deals than are kept dealt
        Deal.from_number(number)
    again = Deal.from_number(617)
    assert again == first and again.number == 617
    assert again.to_text() == first.to_text()


def test_a_refusal_reads_the_same_whatever_is_asked():
    """``play`` finds the cards of a removal by a quick look-up; every refusal still comes from
    ``why_illegal`` with its wording, for cards covered, removed, deep in a pile or free."""
    game = play(Game(DEAL_A), "draw, draw, KC")
    free = game.free_cards()
    candidates = [Move.remove(a, b) for a in FULL_DECK for b in FULL_DECK if a.index < b.index]
    candidates += [Move.remove(card) for card in FULL_DECK] + [Move.draw(), Move.recycle()]
    for move in candidates:
        reason = game.why_illegal(move)
        if reason is None:
            assert all(card in free for card in move.cards)
            continue
        before = state(game)
        with pytest.raises(IllegalMove) as refused:
            game.play(move)
        assert refused.value.refusal == reason and state(game) == before

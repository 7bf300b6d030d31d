"""Refusals as values: every "no" of the engine is a code and its fields (``app.engine.refusals``),
carried by the exception it raises; its English is for logs, never to be parsed. The one limit
on passes (``MAX_PASSES``) is what the rule sets, the refusal and the solver's C core use."""

from __future__ import annotations

import pytest

from app.engine import (
    MAX_PASSES,
    PASS_CHOICES,
    VARIANTS,
    Card,
    CardError,
    Code,
    Deal,
    DealError,
    Game,
    GameSetupError,
    GameStatus,
    IllegalMove,
    Move,
    MoveError,
    Refusal,
    Refused,
    Variant,
    game_over,
)
from app.engine.refusals import ENGLISH

from .engine_helpers import DEAL_A, play

DRAW_ALL = ", ".join(["draw"] * 24)


def refused(game: Game, text: str) -> dict:
    """What ``play`` refuses ``text`` with, as a dict; the same as ``why_illegal`` says."""
    move = Move.from_text(text)
    with pytest.raises(IllegalMove) as info:
        game.play(move)
    assert game.why_illegal(move) == info.value.refusal or game.is_over()
    return info.value.refusal.to_dict()


def test_every_code_has_its_english_and_no_other():
    assert set(ENGLISH) == set(Code)
    assert all(code.value == code.value.lower() and " " not in code.value for code in Code)


def test_every_engine_error_is_a_value_error_with_a_refusal():
    for kind in (IllegalMove, MoveError, DealError, CardError, GameSetupError):
        assert issubclass(kind, Refused) and issubclass(kind, ValueError)


def test_the_three_refusals_a_player_meets_most_have_three_codes():
    game = Game(DEAL_A)
    assert refused(game, "4C+9C") == {"code": "covered",
                                       "fields": {"card": "4C", "by": ["KC", "AC"]}}
    assert refused(game, "AC+TC") == {"code": "not_thirteen",
                                       "fields": {"a": "AC", "b": "TC", "total": 11}}
    assert refused(game, "recycle") == {"code": "stock_not_empty", "fields": {"count": 24}}


def test_each_move_refusal_has_its_code_and_fields():
    game = play(Game(DEAL_A), "KC")
    assert refused(game, "4C+9C") == {"code": "covered", "fields": {"card": "4C", "by": ["AC"]}}
    assert refused(game, "KC") == {"code": "already_removed", "fields": {"card": "KC"}}
    assert refused(game, "AC") == {"code": "not_a_king", "fields": {"card": "AC"}}
    assert refused(game, "2H+JC") == {"code": "not_free", "fields": {"card": "2H"}}
    one = play(Game(DEAL_A, passes=1), DRAW_ALL)
    assert refused(one, "recycle") == {"code": "no_passes_left", "fields": {"passes": 1}}
    assert refused(one, "draw") == {"code": "stock_exhausted", "fields": {}}
    two = play(Game(DEAL_A, passes=2), DRAW_ALL)
    assert refused(two, "draw") == {"code": "recycle_first", "fields": {}}
    with pytest.raises(IllegalMove) as info:
        Game(DEAL_A).undo()
    assert info.value.refusal == Refusal(Code.NOTHING_TO_UNDO)


def test_an_ended_game_refuses_with_its_status_and_termination():
    game = play(Game(DEAL_A), "KC, AC+QC, 2C+JC, 3C+TC, 4C+9C, 5C+8C, 6C+7C, KD, AD+QD, 2D+JD, "
                              "3D+TD, 4D+9D, KH, 5D+8D, 6D+7D, KS")
    assert game.status is GameStatus.WON
    assert refused(game, "draw") == {"code": "game_over",
                                     "fields": {"status": "won", "termination": "pyramid_cleared"}}
    assert str(game_over(GameStatus.ABANDONED, game.outcome())).startswith(
        "The game is over: The player left this game")
    assert game_over(GameStatus.ABANDONED, game.outcome()).fields["termination"] is None


def test_replay_says_which_move_and_keeps_its_refusal():
    with pytest.raises(IllegalMove, match=r"^move 2 \(AC\): AC is not a King") as info:
        Game.replay(DEAL_A, "standard", 3, [Move.draw(), Move.from_text("AC")])
    assert info.value.number == 2
    assert info.value.refusal == Refusal(Code.NOT_A_KING, {"card": "AC"})


@pytest.mark.parametrize(("call", "expected"), [
    (lambda: Card.parse("XX"), ("not_a_card", {"text": "XX"})),
    (lambda: Card.parse(7), ("card_not_text", {"value": 7})),
    (lambda: Card(14, "S"), ("no_such_card", {"rank": 14, "suit": "S"})),
    (lambda: Move.from_text("5H+"), ("not_a_move", {"text": "5H+"})),
    (lambda: Move.from_text("XX"), ("not_a_move", {"text": "XX"})),
    (lambda: Move.from_dict({"op": "jump"}), ("unknown_op", {"op": "jump"})),
    (lambda: Move.from_dict({"op": "remove", "cards": ["1S"]}), ("not_a_card", {"text": "1S"})),
    (lambda: Move.from_dict({"op": "draw", "b": 1, "a": 2}),
     ("unexpected_fields", {"fields": ["a", "b"]})),
    (lambda: Move.remove("5H", "5H"), ("same_card_twice", {"card": "5H"})),
    (lambda: Deal.parse_number("0"),
     ("deal_out_of_range", {"number": 0, "first": 1, "last": 10**20 - 1})),
    (lambda: Deal.parse_number("abc"),
     ("not_a_deal_number", {"text": "abc", "first": 1, "last": 10**20 - 1})),
    (lambda: Deal.parse_canonical_number("01"),
     ("not_plain_digits", {"text": "01", "first": 1, "last": 10**20 - 1})),
    (lambda: Deal.from_dict({"pyramid": []}), ("deal_missing", {"parts": ["stock"]})),
    (lambda: Deal.from_text("KS"), ("deal_text_shape", {})),
    (lambda: Variant("standard", MAX_PASSES + 1),
     ("unknown_passes", {"value": MAX_PASSES + 1, "most": MAX_PASSES})),
    (lambda: Variant("sideways", 3), ("unknown_goal", {"value": "sideways"})),
    (lambda: Variant.from_key("standard"), ("not_a_rule_set_key", {"key": "standard"})),
])
def test_notation_and_setup_refusals_have_codes_and_fields(call, expected):
    with pytest.raises(Refused) as info:
        call()
    assert (info.value.code.value, dict(info.value.refusal.fields)) == expected
    assert str(info.value)  # an English sentence, for logs


def test_the_pass_limit_is_defined_once():
    """The rule sets, the refusal of another number and the solver's C core all follow
    ``MAX_PASSES``; the C source keeps its own #define, held equal to it here."""
    from app.engine import _solver

    assert tuple(range(1, MAX_PASSES + 1)) == PASS_CHOICES
    assert {variant.passes for variant in VARIANTS} == set(PASS_CHOICES)
    assert _solver.MAX_PASSES == MAX_PASSES
    with pytest.raises(GameSetupError) as info:
        Game(DEAL_A, "standard", MAX_PASSES + 1)
    assert info.value.refusal.fields["most"] == MAX_PASSES


def test_the_stores_check_on_passes_follows_the_limit():
    from app.store.models import GameRecord

    checks = {c.name: str(c.sqltext) for c in GameRecord.__table__.constraints
              if c.name == "games_passes"}
    assert checks == {"games_passes": f"passes BETWEEN 1 AND {MAX_PASSES}"}

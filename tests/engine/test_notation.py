"""Cards, deals and moves as text and JSON; PySolFC's deal numbers and their golden vectors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.engine import (
    FULL_DECK,
    MAX_DEAL_NUMBER,
    Card,
    CardError,
    Deal,
    DealError,
    Move,
    MoveError,
    Op,
)

from .engine_helpers import DEAL_A, cards

VECTORS = json.loads((Path(__file__).parents[1] / "data" / "deal-vectors.json").read_text())
RANGE = "deals are numbered from 1 to 99,999,999,999,999,999,999"


# --- cards -----------------------------------------------------------------------------------
def test_card_names_values_and_indices():
    assert [c.name for c in FULL_DECK[:13]] == cards("AC2C3C4C5C6C7C8C9CTCJCQCKC")
    assert len(set(FULL_DECK)) == 52 and [c.index for c in FULL_DECK] == list(range(52))
    ten = Card.parse("TD")
    assert (ten.rank, ten.suit, ten.value, ten.name, str(ten)) == (10, "D", 10, "TD", "TD")
    assert Card.parse("ks").is_king and Card.parse("10d") == ten
    assert Card.parse("AH").value == 1 and Card.parse("QS").value == 12
    assert ten.long_name == "10 of diamonds" and ten.symbol == "10♦"
    assert Card.parse("5H").pairs_with(Card.parse("8C"))
    assert not Card.parse("5H").pairs_with(Card.parse("7C"))


@pytest.mark.parametrize("bad", ["", "1C", "TX", "KSS", "ZZ", "K", "11H"])
def test_bad_card_names_say_what_a_card_looks_like(bad: str):
    with pytest.raises(CardError, match=rf"^{bad!r} is not a card: use a rank from A23456789TJQK"):
        Card.parse(bad)


def test_card_from_non_string_and_bad_fields():
    with pytest.raises(CardError, match="must be a string"):
        Card.parse(12)  # type: ignore[arg-type]  # the wrong type on purpose
    with pytest.raises(CardError, match="no such card"):
        Card(14, "S")
    with pytest.raises(CardError, match="no such card"):
        Card(3, "X")


# --- deal numbers -------------------------------------------------------------------------------
@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: f"deal{v['deal']}")
def test_golden_deals_match_pysolfc(vector: dict):
    deal = Deal.from_number(vector["deal"])
    assert deal.to_dict() == vector
    assert deal.number == vector["deal"]
    assert Deal.from_dict(vector) == deal


def test_deal_1_begins_like_freecell_deal_1():
    # Microsoft FreeCell #1 starts JD 2D 9H JC 5D 7H 7C 5H.
    assert [c.name for c in Deal.from_number(1).pyramid[:8]] == cards("JD2D9HJC5D7H7C5H")


def test_deals_either_side_of_the_generator_switch_differ():
    assert Deal.from_number(31999) != Deal.from_number(32000)
    assert Deal.from_number(MAX_DEAL_NUMBER).number == MAX_DEAL_NUMBER


@pytest.mark.parametrize("number", [0, -1, 10**20, 10**30])
def test_deal_number_out_of_range(number: int):
    with pytest.raises(DealError, match=rf"^deal number {number} is out of range: {RANGE}$"):
        Deal.from_number(number)
    with pytest.raises(DealError, match=RANGE):
        Deal.parse_number(number)


@pytest.mark.parametrize("value", [1.0, 2.5, "7", None, True])
def test_deal_number_must_be_a_whole_number(value):
    with pytest.raises(DealError, match=r"^a deal number is a whole number, not "):
        Deal.from_number(value)  # type: ignore[arg-type]  # the wrong types on purpose


@pytest.mark.parametrize("text", ["", "abc", "1.5", "-3", "1e5", "0x10", "seven", "²", "٣", "１２"])
def test_parse_number_errors_state_the_range(text: str):
    with pytest.raises(DealError, match=f"is not a deal number: {RANGE}$"):
        Deal.parse_number(text)


def test_parse_number_accepts_what_people_type():
    assert Deal.parse_number(" 1,234 ") == 1234
    assert Deal.parse_number("#617") == 617
    assert Deal.parse_number("99_999_999_999_999_999_999") == MAX_DEAL_NUMBER
    with pytest.raises(DealError, match=rf"^deal number 0 is out of range: {RANGE}$"):
        Deal.parse_number("0")


def test_parse_number_checks_the_length_first():
    with pytest.raises(DealError, match="not a deal number"):
        Deal.parse_number("1" * 100_000)
    with pytest.raises(DealError, match="out of range"):
        Deal.parse_number(10**5000)
    assert Deal.parse_number("99_999_999_999_999_999_999") == 10**20 - 1


# --- deals as JSON and text --------------------------------------------------------------------
def test_deal_json_round_trip_keeps_the_number():
    deal = Deal.from_number(617)
    data = json.loads(deal.to_json())
    assert data["deal"] == 617 and len(data["pyramid"]) == 28 and len(data["stock"]) == 24
    again = Deal.from_json(deal.to_json())
    assert again == deal and again.number == 617


def test_custom_deal_json_has_no_number():
    assert "deal" not in DEAL_A.to_dict()
    assert Deal.from_json(DEAL_A.to_json()).number is None


def test_deal_text_round_trip_and_leniency():
    text = DEAL_A.to_text()
    assert len(text) == 28 * 2 + 1 + 24 * 2 and text.index("/") == 56
    assert Deal.from_text(text) == DEAL_A
    spaced = " ".join(c.name.lower() for c in DEAL_A.pyramid) + " / " + ", ".join(
        c.name.replace("T", "10") for c in DEAL_A.stock)
    assert Deal.from_text(spaced) == DEAL_A


def _data(**changes) -> dict:
    data = DEAL_A.to_dict()
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "a deal is a JSON object"),
        ({"stock": []}, "the deal has no 'pyramid' list"),
        ({}, "the deal has no 'pyramid' and no 'stock' list"),
        (_data(pyramid="KS"), "'pyramid' must be a list of 28 card names"),
        (_data(pyramid=cards(DEAL_A.to_text()[:54])), "the pyramid must have 28 cards, not 27"),
        (_data(stock=DEAL_A.to_dict()["stock"] + ["KS"]), "the stock must have 24 cards, not 25"),
        (_data(stock=["XX", *DEAL_A.to_dict()["stock"][1:]]), "stock[0]: 'XX' is not a card"),
        (_data(stock=[7, *DEAL_A.to_dict()["stock"][1:]]), "stock[0]: a card name must be"),
        (
            _data(stock=["KS", *DEAL_A.to_dict()["stock"][1:]]),
            "a deal uses each of the 52 cards once; appears twice: KS; missing: AH",
        ),
        ({**DEAL_A.to_dict(), "deal": 5}, "these cards are not deal 5"),
        ({**Deal.from_number(5).to_dict(), "deal": 0}, "deal number 0 is out of range"),
    ],
)
def test_deal_json_errors_name_the_problem(data, message: str):
    with pytest.raises(DealError) as info:
        Deal.from_dict(data)
    assert message in str(info.value)


def test_deal_json_that_is_not_json():
    with pytest.raises(DealError, match=r"^the deal is not valid JSON: "):
        Deal.from_json("{pyramid: ")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "a deal in text is the 28 pyramid cards, a '/', then the 24 stock cards"),
        ("AC/2C/3C", "a deal in text is the 28 pyramid cards"),
        (DEAL_A.to_text().replace("KS", "KX", 1), "pyramid: 'KX' is not a card"),
        (DEAL_A.to_text()[:-1], "stock: '7' is not a card"),
        (DEAL_A.to_text()[:-2], "the stock must have 24 cards, not 23"),
        (DEAL_A.to_text()[2:], "the pyramid must have 28 cards, not 27"),
        (
            DEAL_A.to_text().replace("7S", "6S"),
            "a deal uses each of the 52 cards once; appears twice: 6S; missing: 7S",
        ),
    ],
)
def test_deal_text_errors_name_the_problem(text: str, message: str):
    with pytest.raises(DealError) as info:
        Deal.from_text(text)
    assert message in str(info.value)


def test_deal_constructor_checks_counts_and_duplicates():
    with pytest.raises(DealError, match="pyramid must have 28 cards, not 27") as refused:
        Deal(DEAL_A.pyramid[1:], DEAL_A.stock)
    assert refused.value.refusal.to_dict() == {
        "code": "deal_part_size", "fields": {"part": "pyramid", "size": 28, "count": 27}}
    with pytest.raises(DealError, match="stock must have 24 cards, not 23"):
        Deal(DEAL_A.pyramid, DEAL_A.stock[1:])
    with pytest.raises(DealError, match="KS appears twice") as refused:
        Deal(DEAL_A.pyramid, (Card.parse("KS"), *DEAL_A.stock[1:]))
    assert refused.value.refusal.to_dict() == {"code": "card_twice", "fields": {"card": "KS"}}


# --- moves ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "data"),
    [
        ("KS", {"op": "remove", "cards": ["KS"]}),
        ("5H+8C", {"op": "remove", "cards": ["5H", "8C"]}),
        ("draw", {"op": "draw"}),
        ("recycle", {"op": "recycle"}),
    ],
)
def test_move_text_and_json_forms(text: str, data: dict):
    move = Move.from_text(text)
    assert move.to_text() == text and str(move) == text and move.to_dict() == data
    assert Move.from_dict(data) == move and Move.from_json(json.dumps(data)) == move
    assert Move.from_text(move.to_text()) == move
    assert eval(repr(move), {"Move": Move}) == move


def test_move_text_is_lenient_and_pairs_are_ordered():
    assert Move.from_text(" 8c + 5h ") == Move.remove("5H", "8C")
    assert Move.from_text("DRAW") == Move.draw()
    assert Move.from_text("8C+5H").to_text() == "5H+8C"
    assert Move.remove("AS").op is Op.REMOVE and {Move.draw(), Move.draw()} == {Move.draw()}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is not a move: write 'KS', '5H+8C', 'draw' or 'recycle'"),
        ("5H+8C+KS", "is not a move"),
        ("5H+", "is not a move"),
        ("shuffle", "'shuffle' is not a move"),
        ("5H+5H", "a pair needs two different cards, not 5H twice"),
    ],
)
def test_bad_move_text(text: str, message: str):
    with pytest.raises(MoveError) as info:
        Move.from_text(text)
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("draw", 'a move is a JSON object with an "op"'),
        ({"cards": ["KS"]}, 'a move is a JSON object with an "op"'),
        ({"op": "deal"}, '"op" must be "remove", "draw" or "recycle", not \'deal\''),
        ({"op": "draw", "cards": ["KS"]}, "draw names no cards"),
        ({"op": "remove"}, "a removal names one King or two cards"),
        ({"op": "remove", "cards": []}, "a removal names one King or two cards"),
        ({"op": "remove", "cards": ["1S"]}, "'1S' is not a card"),
        ({"op": "draw", "where": 1}, "unexpected field(s) in a move: where"),
    ],
)
def test_bad_move_json(data, message: str):
    with pytest.raises(MoveError) as info:
        Move.from_dict(data)
    assert message in str(info.value)
    with pytest.raises(MoveError, match=r"^the move is not valid JSON"):
        Move.from_json("{")

"""Notation cases for the JS engine's conformance (``test_js_conformance.py``): calls that read
and write cards, moves, deals, deal numbers and rule sets, each with what the Python engine
answers: ``["ok", facts]`` or ``["error", class name, refusal]`` (its code and fields, as
``encoded``).

The JS side (``tests/js/notation.mjs``) makes the same call under the same key and must give
the same answer: a player's typo is refused with the same code and fields on either side. Arguments
are JSON; ``{"$int": "digits"}`` stands for an integer past 2**53 (a BigInt in JS).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.engine import (
    Card,
    Deal,
    GameStatus,
    Move,
    Outcome,
    Refused,
    Termination,
    Variant,
    game_over,
    parse_goal,
    parse_passes,
    passes_text,
)
from app.engine.variant import Goal


def _card(card: Card) -> list[Any]:
    return [card.name, card.value, card.index, card.is_king, card.is_red, card.symbol,
            card.long_name, str(card)]


def _move(move: Move) -> list[Any]:
    return [move.to_text(), move.to_dict(), move.op.value, [card.name for card in move.cards]]


def _deal(deal: Deal) -> list[Any]:
    return [deal.to_text(), str(deal.number) if deal.number is not None else None]


def _variant(variant: Variant) -> list[Any]:
    return [variant.key, variant.label, variant.title, variant.to_clear, variant.goal.value,
            variant.passes]


def _goal(goal: Goal) -> list[Any]:
    return [goal.value, goal.label, goal.cards_to_clear, goal.won_when]


def _ended(status: str, termination: str | None) -> dict[str, Any]:
    outcome = Outcome(Termination(termination)) if termination is not None else None
    return game_over(GameStatus(status), outcome).to_dict()


CALLS: dict[str, Callable[..., Any]] = {
    "Card": lambda rank, suit: _card(Card(rank, suit)),
    "Card.parse": lambda name: _card(Card.parse(name)),
    "Move.from_text": lambda text: _move(Move.from_text(text)),
    "Move.from_dict": lambda data: _move(Move.from_dict(data)),
    "Move.from_json": lambda text: _move(Move.from_json(text)),
    "Deal.from_number": lambda number: _deal(Deal.from_number(number)),
    "Deal.parse_number": lambda text: str(Deal.parse_number(text)),
    "Deal.parse_canonical_number": lambda text: str(Deal.parse_canonical_number(text)),
    "Deal.from_dict": lambda data: _deal(Deal.from_dict(data)),
    "Deal.from_json": lambda text: _deal(Deal.from_json(text)),
    "Deal.from_text": lambda text: _deal(Deal.from_text(text)),
    "Variant": lambda goal, passes: _variant(Variant(goal, passes)),
    "Variant.from_key": lambda key: _variant(Variant.from_key(key)),
    "parse_goal": lambda goal: _goal(parse_goal(goal)),
    "parse_passes": parse_passes,
    "passes_text": passes_text,
    "game_over": _ended,
}


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if isinstance(value, dict):
        if set(value) == {"$int"}:
            return int(value["$int"])
        return {k: _decode(v) for k, v in value.items()}
    return value


SAFE = 2**53 - 1
"""Past this an int is ``{"$int": "digits"}`` in the payload (a BigInt on the JS side)."""


def encoded(value: Any) -> Any:
    """``value`` as the payload writes it: an int past 2**53 as ``{"$int": "digits"}``."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > SAFE:
        return {"$int": str(value)}
    if isinstance(value, list | tuple):
        return [encoded(v) for v in value]
    if isinstance(value, dict):
        return {k: encoded(v) for k, v in value.items()}
    return value


def run_notation(call: str, args: list[Any]) -> list[Any]:
    """What the Python engine answers to ``call(*args)``."""
    try:
        return ["ok", encoded(CALLS[call](*_decode(args)))]
    except Refused as exc:  # every engine error is a Refused, a ValueError
        return ["error", type(exc).__name__, encoded(exc.refusal.to_dict())]


DEAL_1 = Deal.from_number(1)
D1 = DEAL_1.to_dict()  # with "deal": 1
D1_CARDS = {"pyramid": D1["pyramid"], "stock": D1["stock"]}
D1_TEXT = DEAL_1.to_text()
BIG = {"$int": "99999999999999999999"}

NOTATION_CASES: list[tuple[str, list[Any]]] = [
    *[("Card.parse", [name]) for name in (
        "TD", "ks", "10d", " 10h ", "ah", "QS\n", "1C", "TX", "KSS", "", "ZZ", "K", "11H",
        "t d", "10", "\u00e9s", "K\u2660", "it's", "a\"b", "\tQC", "\x1cQC\x85", 12, None, True,
        ["KS"], {"card": "KS"})],
    ("Card", [10, "D"]), ("Card", [14, "S"]), ("Card", [3, "X"]), ("Card", [0, "C"]),
    *[("Move.from_text", [text]) for text in (
        "5H+8C", "8c + 5h", "KS", " Draw ", "RECYCLE", "5H+8C+2D", "+", "5H+", "+5H", "5H+5H",
        "XX", "10H+3C", "draw draw", "5h 8c", "", "kh+", "K", "5H\t+8C", 12, None, ["KS"])],
    *[("Move.from_dict", [data]) for data in (
        {"op": "draw"}, {"op": "recycle"}, {"op": "remove", "cards": ["5H", "8C"]},
        {"op": "remove", "cards": ["8C", "5H"]}, {"op": "remove", "cards": ["KS"]},
        {"op": "remove", "cards": ["QS"]}, {"op": "remove"}, {"op": "remove", "cards": []},
        {"op": "remove", "cards": ["5H", "8C", "2D"]}, {"op": "draw", "cards": ["5H"]},
        {"op": "draw", "cards": []}, {"op": "recycle", "cards": 0}, {"op": "recycle", "cards": {}},
        {"op": "draw", "cards": None}, {"op": "draw", "cards": "x"}, {"op": "jump"}, {"op": 5},
        {"op": None}, {"op": ["draw"]}, {"op": {"a": 1}}, {"op": True}, {"op": "Draw"}, [],
        "draw", None, 3, {}, {"cards": ["5H"]}, {"op": "draw", "extra": 1, "also": 2},
        {"op": "remove", "cards": ["5H", "5H"]}, {"op": "remove", "cards": [12, "8C"]},
        {"op": "remove", "cards": ["5H", "1X"]}, {"op": "remove", "cards": "5H"},
        {"op": "remove", "cards": ["10h", "3c"]})],
    *[("Move.from_json", [text]) for text in (
        '{"op": "draw"}', '{"op": "remove", "cards": ["KS"]}', "[]", '"draw"', "null")],
    *[("Deal.from_number", [number]) for number in (
        1, 617, 31999, 32000, 4294967296, 2**53 - 1, {"$int": str(2**53 + 1)}, BIG, 0, -1,
        {"$int": str(10**20)}, {"$int": str(10**30)}, {"$int": str(-(10**45))}, "1", 1.5, True,
        None, [1])],
    *[("Deal.parse_number", [text]) for text in (
        "1", " 1,234 ", "#617", "##617", "1_000", "0", "-5", "+5", "abc", "", "  ", "1.5", "1e3",
        "99999999999999999999", "99,999,999,999,999,999,999", "100000000000000000000",
        "0000000000000000000000000000000000000000000000000000000000000001",
        "00000000000000000000000000000000000000000000000000000000000000001",
        "\uff11\uff12", "12\u00a0", "x" * 65, "\u00e9" * 65, 12, 0, BIG, {"$int": str(10**40)},
        {"$int": str(10**41)}, 1.5, True, None, [1])],
    *[("Deal.parse_canonical_number", [text]) for text in (
        "1000", "99999999999999999999", "01000", "1,000", " 1000", "0", "", "100000000000000000000",
        "x" * 30, "x" * 31, 1000, None, True)],
    *[("Deal.from_dict", [data]) for data in (
        D1, D1_CARDS, {**D1_CARDS, "deal": 2}, {**D1_CARDS, "deal": "1"},
        {**D1_CARDS, "deal": "#1"}, {**D1_CARDS, "deal": 0}, {**D1_CARDS, "deal": "one"},
        {**D1_CARDS, "deal": None}, {**D1_CARDS, "deal": True}, {"pyramid": D1["pyramid"]},
        {}, {"stock": D1["stock"]}, [], "deal", None,
        {"pyramid": "JD", "stock": D1["stock"]},
        {"pyramid": D1["pyramid"][:27], "stock": D1["stock"]},
        {"pyramid": D1["pyramid"], "stock": [*D1["stock"][:23], "XX"]},
        {"pyramid": D1["pyramid"], "stock": [*D1["stock"][:23], 5]},
        {"pyramid": D1["pyramid"], "stock": [*D1["stock"][:23], D1["stock"][0]]},
        {"pyramid": [D1["pyramid"][1], *D1["pyramid"][1:]], "stock": [*D1["stock"][:23], "JD"]},
        {"pyramid": [*D1["pyramid"][:27], "10h"], "stock": [*D1["stock"][:23], "qh"]})],
    *[("Deal.from_json", [text]) for text in ('{"pyramid": []}', "[1]")],
    *[("Deal.from_text", [text]) for text in (
        D1_TEXT, D1_TEXT.lower(), " ".join(D1_TEXT[i:i + 2] for i in range(0, 52 * 2 + 1, 2)),
        ",".join(D1_TEXT[i:i + 2] for i in range(0, 56, 2)) + D1_TEXT[56:],
        D1_TEXT.replace("TS", "10S"), D1_TEXT.replace("/", ""), D1_TEXT + "/", "/",
        D1_TEXT.replace("5D", "5X"), D1_TEXT[:-1], D1_TEXT[:-2], D1_TEXT[2:],
        D1_TEXT.replace("JD", "2D", 1), D1_TEXT.replace("JD", "\u00e9D", 1),
        D1_TEXT.replace("2D", "2D\u3000", 1), 5, None)],
    *[("Variant", [goal, passes]) for goal, passes in (
        ("standard", 3), ("wholedeck", "2"), ("wholedeck", " 1 "), ("standard", "03"),
        ("standard", "+3"), ("x", 3), ("Standard", 3), ("standard", 4), ("standard", 0),
        ("standard", True), ("standard", None), ("standard", "three"), (None, 1),
        ("standard", 2.5), ("standard", [3]))],
    *[("Variant.from_key", [key]) for key in (
        "standard-3", "wholedeck-1", "standard", "standard-4", "whole-deck-2", "", "-", "-3",
        "wholedeck-", 3, None)],
    *[("parse_goal", [goal]) for goal in ("standard", "wholedeck", "whole deck", "", 1, None)],
    *[("parse_passes", [passes]) for passes in (1, 2, 3, "3", "\t2\n", 0, -1, "1.0", False)],
    *[("passes_text", [passes]) for passes in (1, 2, 3)],
    *[("game_over", [status.value, termination]) for status in GameStatus
      for termination in [None, *(t.value for t in Termination)]],
]

"""Moves: remove a King, remove a pair that makes 13, draw, recycle.

A ``Move`` names cards, never positions: every card is unique, so its name says where it is.
The text form is ``KS``, ``5H+8C``, ``draw`` or ``recycle``; the JSON form is RULES.md's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .cards import Card, CardError
from .refusals import Code, Refused


class MoveError(Refused):
    """Text or JSON that does not describe a move (as opposed to an illegal move)."""


class Op(StrEnum):
    REMOVE = "remove"
    DRAW = "draw"
    RECYCLE = "recycle"


@dataclass(frozen=True, slots=True)
class Move:
    """One move. ``cards`` is one King or two cards for REMOVE, empty otherwise.

    The two cards of a pair are kept in a fixed order (lower value first), so ``5H+8C`` and
    ``8C+5H`` are the same move, equal and with the same hash.
    """

    op: Op
    cards: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        if self.op.__class__ is not Op:  # the engine makes moves by the thousand: skip Op(Op)
            object.__setattr__(self, "op", Op(self.op))
        if self.op is Op.REMOVE:
            if len(self.cards) not in (1, 2):
                raise MoveError(Code.REMOVAL_CARDS)
            if len(self.cards) == 2:
                a, b = self.cards
                if a == b:
                    raise MoveError(Code.SAME_CARD_TWICE, card=a.name)
                if (b.rank, b.index) < (a.rank, a.index):
                    object.__setattr__(self, "cards", (b, a))
        elif self.cards:
            raise MoveError(Code.TAKES_NO_CARDS, op=self.op.value)

    # --- constructors --------------------------------------------------------------------
    @classmethod
    def remove(cls, *cards: Card | str) -> Move:
        return cls(Op.REMOVE, tuple(c if isinstance(c, Card) else Card.parse(c) for c in cards))

    @classmethod
    def draw(cls) -> Move:
        return cls(Op.DRAW)

    @classmethod
    def recycle(cls) -> Move:
        return cls(Op.RECYCLE)

    # --- text form -------------------------------------------------------------------------
    @classmethod
    def from_text(cls, text: str) -> Move:
        """Read ``KS``, ``5H+8C``, ``draw`` or ``recycle`` (case and spaces don't matter)."""
        if not isinstance(text, str):
            raise MoveError(Code.MOVE_NOT_TEXT, value=text)
        word = text.strip().lower()
        if word in (Op.DRAW.value, Op.RECYCLE.value):
            return cls(Op(word))
        names = [part for part in word.replace(" ", "").split("+")]
        if not 1 <= len(names) <= 2 or not all(names):
            raise MoveError(Code.NOT_A_MOVE, text=text)
        try:
            return cls.remove(*names)
        except CardError as exc:
            raise MoveError(Code.NOT_A_MOVE, f"{text!r} is not a move: {exc}", text=text) from None

    def to_text(self) -> str:
        if self.op is Op.REMOVE:
            return "+".join(card.name for card in self.cards)
        return self.op.value

    # --- JSON form ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        if self.op is Op.REMOVE:
            return {"op": "remove", "cards": [card.name for card in self.cards]}
        return {"op": self.op.value}

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: Any) -> Move:
        if not isinstance(data, dict) or "op" not in data:
            raise MoveError(Code.MOVE_NOT_OBJECT)
        op = data["op"]
        if op not in ("remove", "draw", "recycle"):
            raise MoveError(Code.UNKNOWN_OP, op=op)
        extra = set(data) - {"op", "cards"}
        if extra:
            raise MoveError(Code.UNEXPECTED_FIELDS, fields=sorted(extra))
        if op != "remove":
            if data.get("cards"):
                raise MoveError(Code.TAKES_NO_CARDS, op=op)
            return cls(Op(op))
        names = data.get("cards")
        if not isinstance(names, list) or not 1 <= len(names) <= 2:
            raise MoveError(Code.REMOVAL_CARDS)
        try:
            return cls.remove(*names)
        except CardError as exc:
            raise MoveError(exc.refusal) from None

    @classmethod
    def from_json(cls, text: str) -> Move:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise MoveError(Code.MOVE_NOT_JSON, f"the move is not valid JSON: {exc}") from None
        return cls.from_dict(data)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"Move.from_text({self.to_text()!r})"

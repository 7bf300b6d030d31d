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


class MoveError(ValueError):
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
                raise MoveError("a removal names one King or two cards")
            if len(self.cards) == 2:
                a, b = self.cards
                if a == b:
                    raise MoveError(f"a pair needs two different cards, not {a} twice")
                if (b.rank, b.index) < (a.rank, a.index):
                    object.__setattr__(self, "cards", (b, a))
        elif self.cards:
            raise MoveError(f"{self.op.value} names no cards")

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
            raise MoveError(f"a move is text like '5H+8C', 'KS', 'draw' or 'recycle', not {text!r}")
        word = text.strip().lower()
        if word in (Op.DRAW.value, Op.RECYCLE.value):
            return cls(Op(word))
        names = [part for part in word.replace(" ", "").split("+")]
        if not 1 <= len(names) <= 2 or not all(names):
            raise MoveError(
                f"{text!r} is not a move: write 'KS', '5H+8C', 'draw' or 'recycle'"
            )
        try:
            return cls.remove(*names)
        except CardError as exc:
            raise MoveError(f"{text!r} is not a move: {exc}") from None

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
            raise MoveError('a move is a JSON object with an "op": remove, draw or recycle')
        op = data["op"]
        if op not in ("remove", "draw", "recycle"):
            raise MoveError(f'"op" must be "remove", "draw" or "recycle", not {op!r}')
        extra = set(data) - {"op", "cards"}
        if extra:
            raise MoveError(f"unexpected field(s) in a move: {', '.join(sorted(extra))}")
        if op != "remove":
            if data.get("cards"):
                raise MoveError(f'"{op}" takes no cards')
            return cls(Op(op))
        names = data.get("cards")
        if not isinstance(names, list) or not 1 <= len(names) <= 2:
            raise MoveError('"remove" needs "cards": one King or two cards, e.g. ["5H", "8C"]')
        try:
            return cls.remove(*names)
        except CardError as exc:
            raise MoveError(str(exc)) from None

    @classmethod
    def from_json(cls, text: str) -> Move:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise MoveError(f"the move is not valid JSON: {exc}") from None
        return cls.from_dict(data)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"Move.from_text({self.to_text()!r})"

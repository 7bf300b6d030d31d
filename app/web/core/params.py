"""The values routes read from paths, query strings, forms and bodies, each typed once.

``DealNumber`` is the web's one type for a deal number written as links write it (the engine's
``DEAL_NUMBER_PATTERN``): a path parameter of the API and of the deal links, and the string
form of a deal in the API's JSON bodies. It validates to an ``int``; the schema says what may
be sent: a string of digits.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Form
from pydantic import BeforeValidator, Field, Strict, StrictInt, WithJsonSchema

from app.engine import MAX_DEAL_NUMBER, PASS_CHOICES, Deal, Goal, Op
from app.engine.deal import DEAL_NUMBER_PATTERN


def canonical_deal_number(value: Any) -> int:
    """A deal number in a path or a body; a ``DealError`` (a ``ValueError``) reaches pydantic
    as it is, so the answer can say its refusal by code."""
    return Deal.parse_canonical_number(value)


DealNumber = Annotated[
    int,
    BeforeValidator(canonical_deal_number),
    WithJsonSchema({"type": "string", "pattern": f"^{DEAL_NUMBER_PATTERN}$", "minLength": 1,
                    "maxLength": len(str(MAX_DEAL_NUMBER)),
                    "description": f"A deal number, 1 to {MAX_DEAL_NUMBER:,} (PySolFC's), in "
                                   "plain digits with no leading zero",
                    "examples": ["617"]}),
]

GoalValue = Annotated[Goal, Strict(False)]
"""A goal in a JSON body: its value, ``standard`` or ``wholedeck`` (lax, so the value reads as
the enum; nothing else is accepted)."""

def whole(value: Any) -> Any:
    """A JSON number that is a whole number, as JSON Schema's ``integer`` counts it (``3.0``
    is an integer there): read as the int. Anything else is left for strict validation to
    refuse: ``true`` (an int in Python, not in JSON), ``"3"``, ``2.5``, NaN."""
    if type(value) is float and value.is_integer():
        return int(value)
    return value


JsonInteger = BeforeValidator(whole)

PassesValue = Annotated[StrictInt, JsonInteger,
                        Field(ge=min(PASS_CHOICES), le=max(PASS_CHOICES),
                              json_schema_extra={"enum": list(PASS_CHOICES)})]
"""Passes in a JSON body: a JSON integer, 1 to ``MAX_PASSES`` (``3.0`` too, as JSON Schema
reads it).
StrictInt, not an enum or Literal: those let ``true`` through (== 1)."""

OpValue = Annotated[Op, Strict(False)]

VersionField = Annotated[int | None, Form(ge=0, le=2**31)]
"""The version of the game a board form was drawn from."""

"""The values routes read from paths, query strings, forms and bodies, each typed once.

``DealNumber`` is the web's one type for a deal number written as links write it (the engine's
``DEAL_NUMBER_PATTERN``): a path parameter of the API and of the deal links, and the string
form of a deal in the API's JSON bodies. It validates to an ``int``; the schema says what may
be sent: a string of digits.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Form
from pydantic import BeforeValidator, WithJsonSchema

from app.engine import MAX_DEAL_NUMBER, Deal, DealError
from app.engine.deal import DEAL_NUMBER_PATTERN


def canonical_deal_number(value: Any) -> int:
    try:
        return Deal.parse_canonical_number(value)
    except DealError as exc:
        raise ValueError(str(exc)) from None


DealNumber = Annotated[
    int,
    BeforeValidator(canonical_deal_number),
    WithJsonSchema({"type": "string", "pattern": f"^{DEAL_NUMBER_PATTERN}$", "minLength": 1,
                    "maxLength": len(str(MAX_DEAL_NUMBER)),
                    "description": f"A deal number, 1 to {MAX_DEAL_NUMBER:,} (PySolFC's), in "
                                   "plain digits with no leading zero",
                    "examples": ["617"]}),
]

VersionField = Annotated[int | None, Form(ge=0, le=2**31)]
"""The version of the game a board form was drawn from."""

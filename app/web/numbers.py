"""One way to write a number on every page: ``format_number``, the templates' ``number`` filter.

Scores, counts and percentages read the same wherever they appear: thousands grouped with a
comma (``1,859``, as the board's script writes them too), a fixed number of decimals when asked
(``66.63``), a share as a percentage (``0.6663`` -> ``66.63%``), and a dash for a number that
is not there (never ``None``, ``NaN`` or a misleading 0).
"""

from __future__ import annotations

import math

MISSING = "–"


def format_number(value: float | None, digits: int = 0, *, percent: bool = False,
                  sign: bool = False) -> str:
    """``value`` as the pages write it.

    ``digits``: decimals shown (a whole number with none is written as it is). ``percent``: the
    value is a share, written as a percentage. ``sign``: a + before a positive number (a
    difference).
    """
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return MISSING
    if percent:
        value = 100 * value
    plus = "+" if sign else ""
    if isinstance(value, int) and not digits:
        text = f"{value:{plus},}"
    else:
        text = f"{value:{plus},.{digits}f}"
    return text + ("%" if percent else "")

"""One way to write a number on every page: ``format_number``, the templates' ``number`` filter.

Scores, counts and percentages read the same wherever they appear, as the player's language
writes them (``app.web.core.i18n.current_locale``, through Babel): thousands grouped (``1,859``
in English, ``1.859`` in German, ``1 859`` in French), a fixed number of decimals when asked
(``66.63``/``66,63``), a share as the locale's percentage (``66.63%``, ``66,63 %``), and a dash
for a number that is not there (never ``None``, ``NaN`` or a misleading 0). The board's script
writes its numbers with ``Intl.NumberFormat`` in the page's language, which agrees.
"""

from __future__ import annotations

import math

from babel.numbers import format_decimal, format_percent

from app.web.core.i18n import current_locale

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
    locale = current_locale()
    decimals = "." + "0" * digits if digits else ""
    if percent:
        pattern = locale.percent_formats[None].pattern.replace("#,##0", "#,##0" + decimals, 1)
        return format_percent(value, format=signed(pattern) if sign else pattern,
                              locale=locale)
    pattern = "#,##0" + decimals
    return format_decimal(value, format=signed(pattern) if sign else pattern, locale=locale)


def signed(pattern: str) -> str:
    """``pattern`` with a + before a positive number."""
    return f"+{pattern};-{pattern}"

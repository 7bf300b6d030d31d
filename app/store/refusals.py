"""The store's refusals, as values like the engine's (``app.engine.refusals.Refusal``): a code
and its fields, carried by ``GameConflict``, ``GameEnded`` and ``ImportRefused`` as
``.refusal``; their ``str`` is English for logs. The web layer words them from the catalogs by
code, as it does the engine's (``app/web/core/refusals.py``)."""

from __future__ import annotations

from enum import StrEnum


class StoreCode(StrEnum):
    """Every refusal of the store. The comment says its fields."""

    CHANGED_RELOAD = "changed_reload"  # a save lost a race: reload to see the game
    CHANGED_RETRY = "changed_retry"  # abandoning lost a race: try again
    IMPORT_UNREADABLE = "import_unreadable"  # game (its id), why (an engine refusal or None)
    IMPORT_WRONG_END = "import_wrong_end"  # game (its id)

"""A hint the board's own solver gave (static/js/solver/: the server's C solver as WebAssembly),
as a step of the game's batch: ``hint:MOVE`` (or ``hint``). ``actions.apply`` counts it in
``hints_used`` as the hint route counts its own, and writes its move down as the server's hints
are (``witness.note_hint``): a hint taken on the device costs what one asked of the server does.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.engine import Move

HINT = "hint"
"""A step of a batch that is a hint the page's own solver gave (``hint`` or ``hint:MOVE``)."""


@dataclass(frozen=True, slots=True)
class DeviceHint:
    """A hint the board's script worked out on the device (static/js/solver/), where the game
    then stood: counted as a hint the server gave (``hints_used``, so the score and the
    ranking), and its move written down like the server's (``witness.note_hint``)."""

    move: Move | None

    def to_text(self) -> str:
        return HINT if self.move is None else f"{HINT}:{self.move.to_text()}"

"""Where a stored game stands: one enum for the store, the views and the API.

The engine knows won and lost (``Game.outcome``); only the store knows that a player left a game
for another (abandoned). Ended games never change again: their result is final.
"""

from __future__ import annotations

from enum import StrEnum


class GameStatus(StrEnum):
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"
    ABANDONED = "abandoned"

    @property
    def ended(self) -> bool:
        return self is not GameStatus.PLAYING

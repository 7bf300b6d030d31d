"""Results others see are earned: the solver's line for a deal that can still
be played for a day's result is nobody's to see, not even its own player's, until that day is
over. Otherwise a throwaway player abandons a game of the day's deal, reads its analysis, and
plays the winning line back as the "fastest win".

What is kept: the analysis (``/games/{id}/analysis``, ``/api/games/{id}/analysis``), the winning
line of a replay (``?win_from=``), the losing move a replay marks, the better move a retry
shows, and the deal's line in the winning lines /odds offers for download (``public_lines``).
The player's own moves stay theirs to watch. Which deals: ``odds.in_play`` (a deal of the day of
any rule set, from yesterday's to the last one told ahead, whatever rules the game was played
under, and any deal with the same ranks in the same places). docs/players.md says so to the
players.
"""

from __future__ import annotations

import gzip
from datetime import date
from functools import lru_cache
from pathlib import Path

from app import odds
from app.engine import Deal, Game
from app.web.core import utcday
from app.web.core.i18n import gettext as _


def kept_private(game: Game) -> bool:
    """Whether the solver's line for this game's deal is kept from everyone today."""
    return odds.in_play(game.deal, utcday.today().date())


def why_private() -> str:
    """The sentence every refusal gives (403)."""
    return _("This deal is a deal of the day that can still be played for a result: the "
             "solver's analysis of it opens once its day is over.")


def private_title() -> str:
    return _("No analysis before the day is over")


def public_lines(path: Path) -> bytes:
    """A winning-lines file (gzipped text: comment lines, then one deal a line, its number
    first) without the deals in play today."""
    return _public_lines(path, utcday.today().date())


@lru_cache(maxsize=12)
def _public_lines(path: Path, day: date) -> bytes:
    in_play = odds.ranks_in_play(day)
    return gzip.compress(b"".join(line for line, ranks in _lines_of(path)
                                  if ranks not in in_play), mtime=0)


@lru_cache(maxsize=6)
def _lines_of(path: Path) -> list[tuple[bytes, tuple[int, ...] | None]]:
    """Each line of a winning-lines file with its deal's ranks (None for a comment), worked
    out once: a day's file is then a filter."""
    lines = gzip.decompress(path.read_bytes()).splitlines(keepends=True)
    return [(line, None if line.startswith(b"#") or not line.strip()
             else odds.ranks_of(Deal.from_number(int(line.split(None, 1)[0]))))
            for line in lines]

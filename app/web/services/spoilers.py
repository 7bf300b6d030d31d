"""Results others see are earned: the solver's line for a deal that can still be played for a
shared result is nobody's to see, not even its own player's, until that is over. Otherwise a
throwaway player abandons a game of the day's deal, reads its analysis, and plays the winning
line back as the "fastest win".

What is kept: the analysis (``/games/{id}/analysis``, ``/api/games/{id}/analysis``), the winning
line of a replay (``?win_from=``), the losing move a replay marks, the better move a retry
shows, and hints in any game of the deal but the ones playing for that result
(``hint_kept_back``). The downloads /odds offers carry no line at all (``public_lines``). The
player's own moves stay theirs to watch.

Which deals: those an ``in_play`` source names, under every rule set (a line found with fewer
passes wins with more; a whole-deck line's first part wins the standard goal). The day's
(``odds.in_play``: a deal of the day of any rule set, from yesterday's to the last one told
ahead, and any deal with the same ranks in the same places) and a challenge's (a game
answering a challenge on the deal is being played). Another shared result (a race) adds its
own with ``in_play_source``. docs/players.md says so to the players.
"""

from __future__ import annotations

import gzip
from collections.abc import Callable
from datetime import date, timedelta
from functools import lru_cache
from pathlib import Path

from sqlalchemy.orm import Session

from app import odds
from app.engine import Deal, Game
from app.store import GameRecord, challenge_being_answered
from app.store.models import utcnow
from app.web.core import utcday
from app.web.core.i18n import gettext as _

InPlaySource = Callable[[Session, Deal, date], bool]
"""Whether a deal (any rules) can still be played, on a day (UTC), for some shared result."""

IN_PLAY: list[InPlaySource] = []
"""Every source of deals in play; ``kept_private`` asks them in order."""


def in_play_source(source: InPlaySource) -> InPlaySource:
    """Add a source of deals in play (a decorator: a race's code names its running races'
    deals this way); it is asked for every analysis, replay line, retry and hint."""
    if source not in IN_PLAY:
        IN_PLAY.append(source)
    return source


@in_play_source
def a_day_in_play(_session: Session, deal: Deal, day: date) -> bool:
    """A deal of the day from yesterday's to the last one told ahead, any rule set."""
    return odds.in_play(deal, day)


CHALLENGE_IDLE_HOURS = 24
"""A game answering a challenge keeps its deal in play while it has moved within this long
(an answer left for good does not keep the deal's analysis closed for ever)."""


@in_play_source
def a_challenge_in_play(session: Session, deal: Deal, day: date) -> bool:
    """A numbered deal on which a game answering a challenge is being played."""
    if deal.number is None:
        return False
    since = utcnow() - timedelta(hours=CHALLENGE_IDLE_HOURS)
    return challenge_being_answered(session, deal.number, since)


def kept_private(session: Session, game: Game) -> bool:
    """Whether the solver's line for this game's deal is kept from everyone today."""
    day = utcday.today().date()
    return any(source(session, game.deal, day) for source in IN_PLAY)


def hint_kept_back(session: Session, record: GameRecord, game: Game) -> bool:
    """Whether a hint in this game would give away a line kept private: its deal is in play
    and the game is not one playing for that result (a deal of the day, a challenge's
    answer), whose hints count on it as they are asked."""
    if record.daily is not None or record.challenge:
        return False
    return kept_private(session, game)


def why_private() -> str:
    """The sentence every refusal gives (403)."""
    return _("This deal can still be played for a result others see (a deal of the day, or "
             "a challenge being answered): the solver's analysis of it opens once that is "
             "over.")


def why_no_hint() -> str:
    return _("No hints in this game: its deal can still be played for a result others see "
             "(a deal of the day, or a challenge being answered), under these rules or "
             "others. Play the deal of the day itself for hints that count on it.")


def private_title() -> str:
    return _("No analysis before the day is over")


def public_lines(path: Path) -> bytes:
    """A winning-lines file as /odds offers it (gzipped text: comment lines, then one deal a
    line): each winnable deal's number and the length of the winning line found, the line
    itself left out. Every numbered deal is on a table others see and can be challenged, and
    a game that plays a published line cannot be told from one that found it (an honest
    player's moves are the published line's on most deals: docs/players.md), so the site
    hands out no line; a verdict is checked with ``pyramid solve N``."""
    return _public_lines(path)


@lru_cache(maxsize=6)
def _public_lines(path: Path) -> bytes:
    out: list[bytes] = []
    for line in gzip.decompress(path.read_bytes()).splitlines(keepends=True):
        if line.startswith(b"#"):
            out.append(line.split(b":", 1)[0] + b": every winnable deal of the range, one a "
                       b"line: the deal number, then how many moves its winning line takes "
                       b"(the line is left out: /odds says why). " +
                       (b"Made by" + line.split(b"Made by", 1)[1] if b"Made by" in line
                        else b"\n"))
        elif line.strip():
            number, *moves = line.split()
            out.append(b"%s %d\n" % (number, len(moves)))
    return gzip.compress(b"".join(out), mtime=0)

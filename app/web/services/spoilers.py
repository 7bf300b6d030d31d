"""Results others see are earned (issue 34, item 6): the solver's line for a deal that can still
be played for a day's result is nobody's to see, not even its own player's, until that day is
over. Otherwise a throwaway player abandons a game of the day's deal, reads its analysis, and
plays the winning line back as the "fastest win".

What is kept: the analysis (``/games/{id}/analysis``, ``/api/games/{id}/analysis``), the
winning line of a replay (``?win_from=``), the losing move a replay marks and the better move a
retry shows. The player's own moves stay theirs to watch. Which deals: ``odds.in_play`` (a deal
of the day of any rule set, from yesterday's to the last one told ahead, whatever rules the game
was played under, and any deal with the same ranks in the same places). docs/players.md says so
to the players.
"""

from __future__ import annotations

from app import odds
from app.engine import Game
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

"""The odds: how often each rule set can be won, measured by the solver over numbered deals.

- ``run``: solve (or play greedily) a range of deals in parallel: what ``pyramid odds`` runs.
- ``table``: the committed odds table (``app/data/odds.json``), one row per rule set.
- ``winnable``: each deal's committed verdict, and a random proven-winnable deal.
- ``daily``: the deal of the day, picked from the proven-winnable deals.
- ``published``: what others have published, judged against our figures.
- ``interval``: the Wilson interval every rate is quoted with.

It reads the package's data files and the engine, never the web or the database.
"""

from .daily import daily_deal, today_utc
from .interval import wilson_interval
from .published import PUBLISHED, Comparison, Published, comparisons
from .run import Odds, solve_range
from .table import OddsRow, odds_row, odds_rows, winnable_shares
from .winnable import is_proven_winnable, known_verdict, verdicts, winnable_deal

__all__ = [
    "PUBLISHED",
    "Comparison",
    "Odds",
    "OddsRow",
    "Published",
    "comparisons",
    "daily_deal",
    "is_proven_winnable",
    "known_verdict",
    "odds_row",
    "odds_rows",
    "solve_range",
    "today_utc",
    "verdicts",
    "wilson_interval",
    "winnable_deal",
    "winnable_shares",
]

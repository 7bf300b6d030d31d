"""The odds: how often each rule set can be won, measured by the solver over numbered deals.

- ``run``: solve (or play greedily) a range of deals in parallel: what ``pyramid odds`` runs.
- ``table``: the committed odds table (``app/data/odds.json``), one row per rule set.
- ``winnable``: each deal's committed verdict, and a random proven-winnable deal.
- ``daily``: the deal of the day, picked from the proven-winnable deals.
- ``difficulty``: a deal's difficulty from measured facts (par, the greedy player, random
  playouts, the first moves that keep it winnable): a score and four buckets.
- ``dealfacts``: each winnable deal's committed par and difficulty, and a random winnable deal
  of a chosen difficulty.
- ``factsrun``: the facts of many deals, measured in pieces (``pyramid facts``).
- ``published``: what others have published, judged against our figures.
- ``interval``: the Wilson interval every rate is quoted with.

It reads the package's data files and the engine, never the web or the database.
"""

from .daily import (
    DAYS_TOLD_AHEAD,
    daily_deal,
    daily_deals_in_play,
    in_play,
    ranks_in_play,
    ranks_of,
    today_utc,
)
from .dealfacts import (
    DealFacts,
    DifficultyData,
    deal_facts,
    difficulty_data,
    difficulty_range,
    difficulty_shares,
    difficulty_table,
    random_winnable,
)
from .difficulty import DIFFICULTIES, Difficulty, parse_difficulty
from .interval import wilson_interval
from .published import PUBLISHED, Comparison, Published, comparisons
from .run import Odds, solve_range
from .table import OddsRow, odds_row, odds_rows, winnable_shares
from .winnable import is_proven_winnable, known_verdict, verdicts, winnable_deal

__all__ = [
    "DAYS_TOLD_AHEAD",
    "DIFFICULTIES",
    "PUBLISHED",
    "Comparison",
    "DealFacts",
    "Difficulty",
    "DifficultyData",
    "Odds",
    "OddsRow",
    "Published",
    "comparisons",
    "daily_deal",
    "daily_deals_in_play",
    "deal_facts",
    "difficulty_data",
    "difficulty_range",
    "difficulty_shares",
    "difficulty_table",
    "in_play",
    "is_proven_winnable",
    "known_verdict",
    "odds_row",
    "odds_rows",
    "parse_difficulty",
    "random_winnable",
    "ranks_in_play",
    "ranks_of",
    "solve_range",
    "today_utc",
    "verdicts",
    "wilson_interval",
    "winnable_deal",
    "winnable_shares",
]

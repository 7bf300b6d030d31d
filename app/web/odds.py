"""The odds on the web: the odds page and API, and each deal's verdicts.

- ``GET /odds``: the win rate of each rule set with best play over the committed deals, with
  95% Wilson intervals, a server-drawn SVG chart, the commands that reproduce the figures, the
  greedy player beside them, and what others have published (``app.odds``).
- ``GET /api/odds``: the same figures as JSON.
- ``GET /api/deals/{n}/verdict``: whether deal n can be won under each of the six rule sets,
  solved on first request under a node limit and then kept in the database
  (``app.store.verdicts``). A plain ``def`` route: FastAPI runs it in its threadpool, so a
  search never blocks the event loop.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from app import odds
from app.engine import VARIANTS, Deal, Game, Goal
from app.engine.solver import solve
from app.store import deal_verdicts, save_verdict
from app.web.deps import SessionDep
from app.web.oddsview import comparison_view, odds_chart, odds_line
from app.web.params import DealNumber, PassesValue
from app.web.templating import templates

router = APIRouter()

VERDICT_NODE_LIMIT = 5_000_000
"""Positions searched per rule set before a deal's verdict is given as unknown: about a second
here (the solver visits some five million a second), so the six take a few seconds at worst;
nearly every deal needs far fewer. Raising it lets a later request settle stored unknowns."""


# --- the models the API documents -------------------------------------------------------------
class VariantOdds(BaseModel):
    """One rule set's win rate with best play over the committed deals."""

    goal: Goal
    passes: PassesValue
    deals: int = Field(description="Deals decided: the rate's sample (deal numbers from 1)")
    wins: int = Field(description="Deals that can be won with best play")
    rate: float = Field(ge=0, le=1, description="wins / deals, a fraction")
    low: float = Field(ge=0, le=1, description="Low end of the 95% Wilson interval")
    high: float = Field(ge=0, le=1, description="High end of the 95% Wilson interval")


class VariantVerdict(BaseModel):
    """Whether one deal can be won under one rule set."""

    goal: Goal
    passes: PassesValue
    winnable: bool | None = Field(
        description="true or false as the solver proved it; null when the search stopped at "
                    f"its node limit ({VERDICT_NODE_LIMIT:,} positions) undecided")
    moves: int | None = Field(
        description="The length of the winning line found (not necessarily the shortest); "
                    "null unless winnable")


class Problems(BaseModel):
    detail: list[dict] = Field(description="Each problem's place (loc), message and type")


# --- the odds ------------------------------------------------------------------------------
def variant_odds(row: odds.OddsRow) -> VariantOdds:
    low, high = row.interval
    return VariantOdds(goal=row.goal, passes=row.passes, deals=row.decided,
                       wins=row.wins, rate=row.rate, low=low, high=high)


@router.get("/api/odds", response_model=list[VariantOdds], tags=["odds"], name="api_odds")
def api_odds() -> list[VariantOdds]:
    """The share of deals that can be won with best play, for each of the six rule sets
    (standard 1, 2, 3 passes, then whole deck), over the first deal numbers (1 to 100,000
    once the full run is in; ``deals`` says how many), with 95% Wilson intervals."""
    return [variant_odds(row) for row in odds.odds_rows()]


@router.get("/odds", response_class=HTMLResponse, include_in_schema=False, name="odds")
def odds_page(request: Request) -> Response:
    rows = odds.odds_rows()
    start, last = rows[0].start, rows[0].last
    context = {
        "rows": rows,
        "lines": [odds_line(row) for row in rows],
        "chart": odds_chart(rows),
        "comparisons": [comparison_view(c) for c in odds.comparisons()],
        "start": start,
        "last": last,
        "same_range": all((row.start, row.last) == (start, last) for row in rows),
        "provisional": [row for row in rows if row.provisional],
        "greedy": any(row.greedy_wins is not None for row in rows),
        "node_limit": VERDICT_NODE_LIMIT,
    }
    return templates.TemplateResponse(request, "odds.html", context)


# --- one deal's verdicts -------------------------------------------------------------------------
def solve_variant(number: int, goal: Goal, passes: int,
                  node_limit: int | None) -> tuple[bool | None, int | None, int]:
    """(winnable, moves of the line found, positions searched) for deal ``number``."""
    solution = solve(Game(Deal.from_number(number), goal, passes), node_limit=node_limit)
    moves = len(solution.moves) if solution.winnable and solution.moves is not None else None
    return solution.winnable, moves, solution.nodes


@router.get(
    "/api/deals/{n}/verdict", response_model=list[VariantVerdict], tags=["odds"],
    name="deal_verdict",
    responses={422: {"model": Problems, "description": "Not a deal number"}})
def deal_verdict(n: DealNumber, session: SessionDep) -> list[VariantVerdict]:
    """Whether deal ``n`` can be won under each of the six rule sets: a list of six, in the
    order standard 1, 2, 3 passes, then whole deck 1, 2, 3 passes.

    Each is solved on first request (up to a node limit: ``winnable`` null when it is hit)
    and kept, so asking again is a database read.
    """
    number = n
    stored = deal_verdicts(session, number)
    session.rollback()  # no transaction stays open while the solver works
    missing = [(v.goal, v.passes) for v in VARIANTS
               if (v.goal, v.passes) not in stored
               or not stored[v.goal, v.passes].settled_within(VERDICT_NODE_LIMIT)]
    if missing:
        # Solve everything first, then write in one short transaction (SQLite has one writer).
        solved = [(goal, passes, *solve_variant(number, goal, passes, VERDICT_NODE_LIMIT))
                  for goal, passes in missing]
        for goal, passes, winnable, moves, nodes in solved:
            save_verdict(session, number, goal, passes, winnable=winnable, moves=moves,
                         nodes=nodes)
        session.commit()
        stored = deal_verdicts(session, number)  # what was kept, had another request won
    return [VariantVerdict(goal=v.goal, passes=v.passes,
                           winnable=stored[v.goal, v.passes].winnable,
                           moves=stored[v.goal, v.passes].moves)
            for v in VARIANTS]

"""The odds on the web: the odds page and API, and each deal's verdicts.

- ``GET /odds``: the win rate of each rule set with best play over the committed deals, with
  95% Wilson intervals, a server-drawn SVG chart, the commands that reproduce the figures, the
  greedy player beside them, and what others have published (``app.odds``).
- ``GET /api/odds``: the same figures as JSON.
- ``GET /api/deals/{n}/verdict``: whether deal n can be won under each of the six rule sets:
  from the committed verdicts where they cover it, else searched in the solver's queue (and
  kept, in ``app.store.verdicts``, for deals someone has played).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from app import odds
from app.engine import VARIANTS, Deal, Game, Goal
from app.store import deal_verdicts, deal_was_played, save_par, save_verdict
from app.web.core.deps import SearcherDep, SessionDep
from app.web.core.errors import PageError, Problem
from app.web.core.i18n import gettext as _
from app.web.core.links import path_for
from app.web.core.params import DealNumber, PassesValue
from app.web.core.threads import in_one_hop
from app.web.services import solving, spoilers
from app.web.views.oddsview import comparison_view, difficulty_lines, odds_chart, odds_line
from app.web.views.templating import templates

router = APIRouter()

VERDICT_NODE_LIMIT = solving.SEARCH_NODE_LIMIT
"""Positions searched per rule set before a deal's verdict is given as unknown: the solver
queue's budget for a search. Raising it lets a later request settle stored unknowns."""


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
    par: int | None = Field(
        description="The fewest moves that win (a proven shortest line's length); null when "
                    "not winnable, or when the search for it ran past its budget")
    difficulty: str | None = Field(
        default=None,
        description="easy, medium, hard or expert, for a winnable deal the committed "
                    "difficulty data covers (see /odds#difficulty); else null")


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
    or more: ``deals`` says how many), with 95% Wilson intervals."""
    return [variant_odds(row) for row in odds.odds_rows()]


LINES_DIR = Path(__file__).resolve().parents[2] / "data" / "lines"  # app/data/lines
"""Each rule set's winnable deals with a winning line each (``bench/winning_lines.py``)."""


def line_files(request: Request) -> list[dict[str, Any]]:
    """The downloads of winning lines that exist: rules, link, size."""
    found = []
    for v in VARIANTS:
        path = LINES_DIR / f"{v.key}.txt.gz"
        if path.exists():
            found.append({"variant": v, "size": path.stat().st_size,
                          "url": path_for(request, "winning_lines", key=v.key)})
    return found


@router.get("/odds/lines/{key}.txt.gz", include_in_schema=False, name="winning_lines")
def winning_lines(key: str) -> Response:
    """A rule set's winnable deals (gzipped text, one line a deal: its number and how many
    moves its winning line takes), their lines left out (``spoilers.public_lines``)."""
    if key not in {v.key for v in VARIANTS}:
        raise PageError(404, _("No such rules"), _("%(key)s is not a rule set.", key=repr(key)))
    path = LINES_DIR / f"{key}.txt.gz"
    if not path.exists():
        raise PageError(404, _("Not made yet"), _("These winning lines have not been made yet."))
    return Response(spoilers.public_lines(path), media_type="application/gzip",
                    headers={"Cache-Control": "public, max-age=3600",
                             "Content-Disposition": f'attachment; filename="pyramid-{key}.txt.gz"'})


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
        "line_files": line_files(request),
        "difficulty": difficulty_lines(),
    }
    return templates.TemplateResponse(request, "odds.html", context)


# --- one deal's verdicts -------------------------------------------------------------------------
Rules = tuple[Goal, int]
Searched = tuple[bool | None, int | None, int, int | None]
"""(winnable, moves of the line found, positions searched, par)."""
Answer = tuple[bool | None, int | None, int | None]
"""(winnable, moves of the line found, par)."""


def solve_variants(number: int, wanted: list[Rules]) -> dict[Rules, Searched]:
    """Deal ``number``'s verdict and par under each of these rules: one job in the solver's
    queue, each search within the budget."""
    return {(goal, passes): solve_variant(number, goal, passes, VERDICT_NODE_LIMIT)
            for goal, passes in wanted}


def solve_variant(number: int, goal: Goal, passes: int, node_limit: int | None) -> Searched:
    """(winnable, moves of the line found, positions searched, par) for deal ``number``: the
    par when a second search, for a shortest line, ends within the same budget."""
    game = Game(Deal.from_number(number), goal, passes)
    solution = solving.SOLVED.solve(game, node_limit=node_limit)
    if not solution.winnable or solution.moves is None:
        return solution.winnable, None, solution.nodes, None
    shortest = solving.SOLVED.solve(game, node_limit=node_limit, shortest=True)
    return True, len(solution.moves), solution.nodes, shortest.par


@router.get(
    "/api/deals/{n}/verdict", response_model=list[VariantVerdict], tags=["odds"],
    name="deal_verdict",
    responses={422: {"model": Problems, "description": "Not a deal number"},
               429: {"model": Problem, "description": "The solver is busy: see Retry-After"}})
async def deal_verdict(n: DealNumber, session: SessionDep,
                       searcher: SearcherDep) -> list[VariantVerdict]:
    """Whether deal ``n`` can be won under each of the six rule sets, and its par: a list of
    six, in the order standard 1, 2, 3 passes, then whole deck 1, 2, 3 passes.

    Verdicts from the committed data where they cover the deal (``/api/odds`` says how far,
    per rule set): no search, ``moves`` null, ``par`` and ``difficulty`` from the committed
    data (else ``par`` once someone's win found it); else a kept verdict; else searched in the
    solver's queue within its budget (``winnable`` null when it could not tell yet, ``par``
    null past the budget). Searches are kept only for a deal someone has played, so asking
    about any of the 10^20 deal numbers stores nothing.
    """
    facts = {(v.goal, v.passes): odds.deal_facts(n, v) for v in VARIANTS}
    stored, played = await in_one_hop(
        session, lambda: (deal_verdicts(session, n), deal_was_played(session, n)))
    answers = known_answers(n, facts, stored)
    missing = [(v.goal, v.passes) for v in VARIANTS if (v.goal, v.passes) not in answers]
    if missing:
        answers.update(await searched(session, searcher, n, missing, keep_them=played))
    return [VariantVerdict(goal=v.goal, passes=v.passes, winnable=answers[v.goal, v.passes][0],
                           moves=answers[v.goal, v.passes][1], par=answers[v.goal, v.passes][2],
                           difficulty=(found.difficulty.value
                                       if (found := facts[v.goal, v.passes]) else None))
            for v in VARIANTS]


async def searched(session: Session, searcher: str, n: int, missing: list[Rules], *,
                   keep_them: bool) -> dict[Rules, Answer]:
    """Deal ``n`` searched under the ``missing`` rule sets, in the solver's queue (429 when it
    is busy); kept when ``keep_them`` (a deal someone has played)."""
    try:
        solved = await solving.QUEUE_OF_SEARCHES.run(searcher, solve_variants, n, missing)
    except solving.SolverBusy as exc:
        raise HTTPException(429, str(exc), headers={"Retry-After": str(exc.retry_after)}) from None
    if keep_them:
        await in_one_hop(session, lambda: keep(session, n, solved))
    return {rules: (won, moves, par_found) for rules, (won, moves, _, par_found) in solved.items()}


def known_answers(n: int, facts: dict, stored: dict) -> dict[Rules, Answer]:
    """What is known of deal ``n`` without a search: the committed verdicts (with the
    committed par, else a kept one), and kept verdicts settled within the budget."""
    answers: dict[Rules, Answer] = {}
    for v in VARIANTS:
        known = odds.known_verdict(n, v)
        if known is not None:
            found = facts[v.goal, v.passes]
            answers[v.goal, v.passes] = (known, None, found.par if found else None)
    for rules, verdict in stored.items():
        if rules in answers:
            answers[rules] = (*answers[rules][:2], answers[rules][2] or verdict.par)
        elif verdict.settled_within(VERDICT_NODE_LIMIT):
            answers[rules] = (verdict.winnable, verdict.moves, verdict.par)
    return answers


def keep(session: Session, number: int, solved: dict[Rules, Searched]) -> None:
    """Store a played deal's searched verdicts in one short transaction (SQLite has one
    writer); another request's equal write, at the same moment, is no error."""
    for (goal, passes), (winnable, moves, nodes, par) in solved.items():
        if nodes:
            save_verdict(session, number, goal, passes, winnable=winnable, moves=moves,
                         nodes=nodes)
        if par is not None:
            save_par(session, number, goal, passes, par)
    session.commit()

"""The solver's verdicts on numbered deals, computed once and kept (table ``deal_verdicts``).

A verdict depends only on the deal, the goal and the passes (and, when the search stopped at
its node limit, on that limit), so it is stored under that key and never recomputed: except
an unknown one, which a later search with a larger node limit may settle and then replaces.

Two requests may solve the same deal at once; both then write the same row. The write is an
``INSERT ... ON CONFLICT`` (SQLite and PostgreSQL), so the second neither fails nor duplicates:
it leaves a decided verdict alone and only overwrites an unknown one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from app.engine import Goal, parse_goal, parse_passes

from .models import DealVerdict, GameRecord, utcnow

V = DealVerdict


@dataclass(frozen=True, slots=True)
class StoredVerdict:
    """One stored verdict: ``winnable`` None when the search hit its node limit; ``moves`` the
    length of the winning line found (not necessarily the shortest)."""

    deal: int
    goal: Goal
    passes: int
    winnable: bool | None
    moves: int | None
    nodes: int
    par: int | None = None
    """The fewest moves that win, once someone's won game (or the verdict API) asked."""

    @property
    def settled(self) -> bool:
        return self.winnable is not None

    def settled_within(self, node_limit: int | None) -> bool:
        """Whether a search with ``node_limit`` (None: no limit) could add nothing to this
        verdict: it is decided, or it stopped at a limit at least as large."""
        return self.settled or (node_limit is not None and self.nodes >= node_limit)


def _stored(row: DealVerdict) -> StoredVerdict:
    return StoredVerdict(int(row.deal_number), Goal(row.goal), row.passes, row.winnable,
                         row.moves, row.nodes, row.par)


def deal_verdicts(session: Session, number: int) -> dict[tuple[Goal, int], StoredVerdict]:
    """The stored verdicts of deal ``number``, by (goal, passes): one primary-key range read."""
    rows = session.scalars(select(V).where(V.deal_number == str(number))
                           .execution_options(populate_existing=True))
    return {(Goal(row.goal), row.passes): _stored(row) for row in rows}


def get_verdict(session: Session, number: int, goal: Goal | str,
                passes: int) -> StoredVerdict | None:
    row = session.get(V, (str(number), parse_goal(goal).value, parse_passes(passes)),
                      populate_existing=True)
    return None if row is None else _stored(row)


def deal_was_played(session: Session, number: int) -> bool:
    """Whether some player has a game of deal ``number``: only such deals' searched verdicts
    are kept, so the table grows with the games, not with whatever numbers are asked for."""
    return session.scalar(select(GameRecord.id).where(GameRecord.deal_number == str(number))
                          .limit(1)) is not None


def _insert(session: Session) -> postgresql.Insert | sqlite.Insert:
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        return postgresql.insert(V)
    if dialect == "sqlite":
        return sqlite.insert(V)
    raise NotImplementedError(  # pragma: no cover - the app runs on these two
        f"deal verdicts need SQLite or PostgreSQL, not {dialect}")


def save_verdict(session: Session, number: int, goal: Goal | str, passes: int, *,
                 winnable: bool | None, moves: int | None, nodes: int,
                 now: datetime | None = None) -> None:
    """Store a verdict, safe against a concurrent writer of the same row (see the module
    docstring): an existing decided verdict is kept, an existing unknown one replaced. The
    caller commits."""
    values = {"deal_number": str(number), "goal": parse_goal(goal).value,
              "passes": parse_passes(passes), "winnable": winnable,
              "moves": moves if winnable else None, "nodes": nodes,
              "computed_at": now or utcnow()}
    statement = _insert(session).values(**values)
    statement = statement.on_conflict_do_update(
        index_elements=[V.deal_number, V.goal, V.passes],
        set_={name: statement.excluded[name]
              for name in ("winnable", "moves", "nodes", "computed_at")},
        # Only an unknown verdict gives way, and only to a decided one or a longer search.
        where=V.winnable.is_(None) & (statement.excluded.winnable.is_not(None)
                                      | (statement.excluded.nodes > V.nodes)),
    )
    session.execute(statement)


def known_par(session: Session, record: GameRecord) -> int | None:
    """The par kept with the deal's verdict (numbered deals only): one primary-key read."""
    if record.deal_number is None:
        return None
    return session.scalar(select(V.par).where(
        V.deal_number == record.deal_number, V.goal == record.goal,
        V.passes == record.passes))


def save_par(session: Session, number: int, goal: Goal | str, passes: int, par: int,
             now: datetime | None = None) -> None:
    """Keep deal ``number``'s par (which also says it can be won), beside its verdict or as
    its first: a par is proven, so it never gives way and never needs to. The caller
    commits."""
    values = {"deal_number": str(number), "goal": parse_goal(goal).value,
              "passes": parse_passes(passes), "winnable": True, "moves": par, "nodes": 0,
              "par": par, "computed_at": now or utcnow()}
    statement = _insert(session).values(**values)
    session.execute(statement.on_conflict_do_update(
        index_elements=[V.deal_number, V.goal, V.passes],
        set_={"par": statement.excluded.par, "winnable": statement.excluded.winnable},
        where=V.par.is_(None)))


__all__ = ["StoredVerdict", "deal_verdicts", "deal_was_played", "get_verdict", "known_par",
           "save_par", "save_verdict"]

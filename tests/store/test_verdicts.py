"""Each deal's stored verdicts (``app.store.verdicts``): a decided verdict is never replaced, an
unknown one only by a longer search or a verdict. SQLite always, PostgreSQL too in CI."""

from __future__ import annotations

from app.engine import Goal
from app.store import deal_verdicts, get_verdict, save_verdict


def test_saving_a_verdict_twice_keeps_the_decided_one(db):
    with db.session() as session:
        save_verdict(session, 77, "standard", 3, winnable=None, moves=None, nodes=10)
        assert get_verdict(session, 77, "standard", 3).winnable is None
        # A longer search settles an unknown...
        save_verdict(session, 77, "standard", 3, winnable=True, moves=40, nodes=900)
        stored = get_verdict(session, 77, "standard", 3)
        assert (stored.winnable, stored.moves, stored.nodes) == (True, 40, 900)
        # ...and nothing replaces a decided verdict (a racing writer, or a shorter search).
        save_verdict(session, 77, "standard", 3, winnable=None, moves=None, nodes=5)
        save_verdict(session, 77, "standard", 3, winnable=False, moves=None, nodes=5)
        assert get_verdict(session, 77, "standard", 3).winnable is True
        # An unknown gives way only to a longer search or a verdict.
        save_verdict(session, 78, "wholedeck", 1, winnable=None, moves=None, nodes=100)
        save_verdict(session, 78, "wholedeck", 1, winnable=None, moves=None, nodes=50)
        assert get_verdict(session, 78, "wholedeck", 1).nodes == 100
        big = 10**20 - 1
        save_verdict(session, big, "wholedeck", 2, winnable=False, moves=7, nodes=3)
        assert get_verdict(session, big, "wholedeck", 2).moves is None  # no line, no length
        assert set(deal_verdicts(session, 77)) == {(Goal.STANDARD, 3)}
        assert deal_verdicts(session, 79) == {}

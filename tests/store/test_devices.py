"""Device links and the sessions they open (``app.store.devices``), against SQLite and, with
TEST_DATABASE_URL, PostgreSQL: a link signs in one browser, once, within its quarter of an
hour; an ended session, or the revoked link it came from, is refused at once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.store import end_session, linked_sessions, make_link, read_link, session_alive, use_link
from app.store.devices import revoke, secret_hash, session_key

MADE = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)


def test_a_link_signs_in_one_browser_once(db):
    with db.session() as session:
        secret = make_link(session, "owner", MADE)
        first = use_link(session, secret, "Phone", MADE + timedelta(minutes=1))
        again = use_link(session, secret, "Thief", MADE + timedelta(minutes=2))
        session.commit()
    assert first is not None and first.player_id == "owner" and again is None
    with db.session() as session:
        assert read_link(session, secret).state == "used"
        (seen,) = linked_sessions(session, "owner")
        assert seen.user_agent == "Phone" and seen.key == session_key(first.session_id)
        assert session_alive(session, first.session_id, "owner")
        assert not session_alive(session, first.session_id, "someone-else")


def test_a_link_expires_after_a_quarter_of_an_hour(db):
    with db.session() as session:
        secret = make_link(session, "owner", MADE)
        session.commit()
    late = MADE + timedelta(minutes=15)
    with db.session() as session:
        assert read_link(session, secret, late - timedelta(seconds=1)).state == "live"
        assert read_link(session, secret, late).state == "expired"
        assert use_link(session, secret, None, late) is None


def test_an_ended_session_or_its_revoked_link_is_refused_at_once(db):
    with db.session() as session:
        one = use_link(session, make_link(session, "owner", MADE), None, MADE)
        two_secret = make_link(session, "owner", MADE)
        two = use_link(session, two_secret, None, MADE)
        session.commit()
    with db.session() as session:
        assert not end_session(session, "intruder", session_key(one.session_id))
        assert end_session(session, "owner", session_key(one.session_id))
        assert revoke(session, "owner", secret_hash(two_secret)[:12])
        session.commit()
    with db.session() as session:
        assert not session_alive(session, one.session_id, "owner")
        assert not session_alive(session, two.session_id, "owner")
        assert linked_sessions(session, "owner") == []

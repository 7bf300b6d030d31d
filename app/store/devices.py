"""Links that carry a player's identity to another browser ("use your statistics on another
device", and "I cleared my cookies"), and the sessions they sign browsers into.

A link's secret is shown once; only its SHA-256 is kept, so the database holds nothing that
works as a link. A link signs in one browser (its ``last_used_at`` marks it used), within
``LINK_MINUTES`` of being made. A revoked, used or expired link is kept, so that using it says
so rather than "unknown".

The browser a link signs in gets a session (``DeviceSession``): its player cookie names the
session as well as the player, and is accepted only while the session lives. The owner sees
each such browser and can end its session, which signs it out at once. The browser that
started the player keeps its plain cookie: it is the owner."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from .clock import as_utc
from .models import DeviceLink, DeviceSession, rows_changed, utcnow

SECRET_BYTES = 24
LINKS_KEPT = 10
"""Live links a player may have at once; making another revokes the oldest."""
LINK_MINUTES = 15
"""How long a link can be used after it was made."""
SEEN_EVERY = timedelta(minutes=5)
"""How stale a session's "last seen" may grow before a request writes it again."""
AGENT_CHARS = 200


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def session_key(session_id: str) -> str:
    """What the owner's page names a session by (never the id its cookie carries)."""
    return hashlib.sha256(session_id.encode()).hexdigest()[:12]


@dataclass(frozen=True, slots=True)
class LinkSeen:
    """A link as its owner sees it: never its secret, a short key to revoke it by."""

    key: str
    created_at: datetime
    expires_at: datetime


@dataclass(frozen=True, slots=True)
class SessionSeen:
    """A browser signed in through a link, as its owner sees it."""

    key: str
    user_agent: str | None
    created_at: datetime
    last_seen_at: datetime | None


def make_link(session: Session, player_id: str, now: datetime | None = None) -> str:
    """A new link's secret (shown once). The caller commits."""
    now = now or utcnow()
    secret = secrets.token_urlsafe(SECRET_BYTES)
    session.add(DeviceLink(secret_hash=secret_hash(secret), player_id=player_id,
                           created_at=now))
    live = live_links(session, player_id, now)
    for old in live[LINKS_KEPT - 1:]:
        revoke(session, player_id, old.key, now)
    session.flush()
    return secret


def live_links(session: Session, player_id: str, now: datetime | None = None) -> list[LinkSeen]:
    """The player's links that can still be used (not used, revoked or expired), newest
    first."""
    now = now or utcnow()
    life = timedelta(minutes=LINK_MINUTES)
    rows = session.execute(
        select(DeviceLink.secret_hash, DeviceLink.created_at)
        .where(DeviceLink.player_id == player_id, DeviceLink.revoked_at.is_(None),
               DeviceLink.last_used_at.is_(None))
        .order_by(DeviceLink.created_at.desc()))
    return [LinkSeen(digest[:12], as_utc(created), as_utc(created) + life)
            for digest, created in rows if as_utc(created) + life > now]


def revoke(session: Session, player_id: str, key: str, now: datetime | None = None) -> bool:
    """Revoke the player's link whose key (its hash's first characters) is ``key``; only the
    player's own. The session it signed a browser into ends too. Returns whether one was
    revoked."""
    if not key or len(key) < 12:
        return False
    now = now or utcnow()
    hashes = session.execute(
        select(DeviceLink.secret_hash)
        .where(DeviceLink.player_id == player_id,
               DeviceLink.secret_hash.startswith(key, autoescape=True),
               DeviceLink.revoked_at.is_(None))).scalars().all()
    if not hashes:
        return False
    session.execute(
        update(DeviceLink).where(DeviceLink.secret_hash.in_(hashes))
        .values(revoked_at=now).execution_options(synchronize_session=False))
    session.execute(
        update(DeviceSession).where(DeviceSession.link_hash.in_(hashes),
                                    DeviceSession.revoked_at.is_(None))
        .values(revoked_at=now).execution_options(synchronize_session=False))
    return True


LinkState = Literal["live", "used", "expired", "revoked"]


@dataclass(frozen=True, slots=True)
class LinkUse:
    player_id: str
    state: LinkState

    @property
    def revoked(self) -> bool:
        return self.state == "revoked"


def _state(row: DeviceLink, now: datetime) -> LinkState:
    if row.revoked_at is not None:
        return "revoked"
    if row.last_used_at is not None:
        return "used"
    if as_utc(row.created_at) + timedelta(minutes=LINK_MINUTES) <= now:
        return "expired"
    return "live"


def read_link(session: Session, secret: str, now: datetime | None = None) -> LinkUse | None:
    """Whose identity a link carries and whether it can still be used (None: no such link)."""
    row = session.get(DeviceLink, secret_hash(secret))
    if row is None:
        return None
    return LinkUse(row.player_id, _state(row, now or utcnow()))


@dataclass(frozen=True, slots=True)
class SignedIn:
    player_id: str
    session_id: str


def use_link(session: Session, secret: str, user_agent: str | None = None,
             now: datetime | None = None) -> SignedIn | None:
    """Use a live link: mark it used (once: of two browsers using it at the same time, one
    wins) and open a session for the browser. None when the link is unknown or no longer
    live. The caller commits."""
    now = now or utcnow()
    digest = secret_hash(secret)
    row = session.get(DeviceLink, digest)
    if row is None or _state(row, now) != "live":
        return None
    taken = rows_changed(session.execute(
        update(DeviceLink).where(DeviceLink.secret_hash == digest,
                                 DeviceLink.last_used_at.is_(None),
                                 DeviceLink.revoked_at.is_(None))
        .values(last_used_at=now).execution_options(synchronize_session=False)))
    if taken != 1:
        return None
    session_id = secrets.token_urlsafe(16)
    session.add(DeviceSession(id=session_id, player_id=row.player_id, link_hash=digest,
                              user_agent=(user_agent or "")[:AGENT_CHARS] or None,
                              created_at=now, last_seen_at=now))
    session.flush()
    return SignedIn(row.player_id, session_id)


def linked_sessions(session: Session, player_id: str) -> list[SessionSeen]:
    """The browsers signed in as the player through a link, still signed in, newest first."""
    rows = session.execute(
        select(DeviceSession.id, DeviceSession.user_agent, DeviceSession.created_at,
               DeviceSession.last_seen_at)
        .where(DeviceSession.player_id == player_id, DeviceSession.revoked_at.is_(None))
        .order_by(DeviceSession.created_at.desc()))
    return [SessionSeen(session_key(sid), agent, as_utc(created),
                        as_utc(seen) if seen else None)
            for sid, agent, created, seen in rows]


def end_session(session: Session, player_id: str, key: str, now: datetime | None = None) -> bool:
    """End the player's session named ``key`` (``session_key``): only the player's own. Its
    browser is signed out at once. Returns whether one was ended. The caller commits."""
    ids = [sid for sid in session.execute(
        select(DeviceSession.id).where(DeviceSession.player_id == player_id,
                                       DeviceSession.revoked_at.is_(None))).scalars()
           if session_key(sid) == key]
    if not ids:
        return False
    session.execute(
        update(DeviceSession).where(DeviceSession.id.in_(ids))
        .values(revoked_at=now or utcnow()).execution_options(synchronize_session=False))
    return True


def session_alive(session: Session, session_id: str, player_id: str,
                  now: datetime | None = None) -> bool:
    """Whether a cookie naming this session and player may still be accepted; notes when the
    session was last seen (at most every ``SEEN_EVERY``). The caller commits."""
    row = session.get(DeviceSession, session_id)
    if row is None or row.revoked_at is not None or row.player_id != player_id:
        return False
    now = now or utcnow()
    if row.last_seen_at is None or as_utc(row.last_seen_at) + SEEN_EVERY <= now:
        row.last_seen_at = now
        session.flush()
    return True

"""Links that carry a player's identity to another browser ("use your statistics on another
device", and "I cleared my cookies"). The link's secret is shown once; only its SHA-256 is
kept, so the database holds nothing that works as a link. A revoked link is kept, so that using
it says "revoked" rather than "unknown"."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from .models import DeviceLink, utcnow

SECRET_BYTES = 24
LINKS_KEPT = 10
"""Live links a player may have at once; making another revokes the oldest."""


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class LinkSeen:
    """A link as its owner sees it: never its secret, a short key to revoke it by."""

    key: str
    created_at: datetime
    last_used_at: datetime | None


def make_link(session: Session, player_id: str, now: datetime | None = None) -> str:
    """A new link's secret (shown once). The caller commits."""
    now = now or utcnow()
    secret = secrets.token_urlsafe(SECRET_BYTES)
    session.add(DeviceLink(secret_hash=secret_hash(secret), player_id=player_id,
                           created_at=now))
    live = live_links(session, player_id)
    for old in live[LINKS_KEPT - 1:]:
        revoke(session, player_id, old.key, now)
    session.flush()
    return secret


def live_links(session: Session, player_id: str) -> list[LinkSeen]:
    """The player's links not revoked, newest first."""
    rows = session.execute(
        select(DeviceLink.secret_hash, DeviceLink.created_at, DeviceLink.last_used_at)
        .where(DeviceLink.player_id == player_id, DeviceLink.revoked_at.is_(None))
        .order_by(DeviceLink.created_at.desc()))
    return [LinkSeen(digest[:12], created, used) for digest, created, used in rows]


def revoke(session: Session, player_id: str, key: str, now: datetime | None = None) -> bool:
    """Revoke the player's link whose key (its hash's first characters) is ``key``; only the
    player's own. Returns whether one was revoked."""
    if not key or len(key) < 12:
        return False
    done = session.execute(
        update(DeviceLink).where(DeviceLink.player_id == player_id,
                                 DeviceLink.secret_hash.startswith(key, autoescape=True),
                                 DeviceLink.revoked_at.is_(None))
        .values(revoked_at=now or utcnow()).execution_options(synchronize_session=False))
    return bool(done.rowcount)


@dataclass(frozen=True, slots=True)
class LinkUse:
    player_id: str | None
    revoked: bool


def read_link(session: Session, secret: str) -> LinkUse | None:
    """Whose identity a link carries (None: no such link)."""
    row = session.get(DeviceLink, secret_hash(secret))
    if row is None:
        return None
    return LinkUse(row.player_id, row.revoked_at is not None)


def use_link(session: Session, secret: str, now: datetime | None = None) -> str | None:
    """The player id of a live link, marking it used; None when unknown or revoked."""
    row = session.get(DeviceLink, secret_hash(secret))
    if row is None or row.revoked_at is not None:
        return None
    row.last_used_at = now or utcnow()
    session.flush()
    return row.player_id

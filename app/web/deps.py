"""FastAPI dependencies: the database session, the settings and the caller's player id."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.orm import Session

from app.settings import Settings


def get_session(request: Request) -> Iterator[Session]:
    """A session per request; routes commit explicitly before they answer."""
    with request.app.state.db.sessions() as session:
        yield session


def get_settings(request: Request) -> Settings:
    return request.app.state.settings


def get_player_id(request: Request) -> str:
    return request.state.player_id


SessionDep = Annotated[Session, Depends(get_session)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
PlayerDep = Annotated[str, Depends(get_player_id)]

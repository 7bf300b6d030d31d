"""Configuration: one settings object, read from environment variables (or a ``.env`` file).

Every knob of the server lives here and nowhere else. The defaults are safe for local play
(SQLite in ``data/``, loopback only); production mode refuses to start with the default secret,
because the secret signs the player cookie that decides who may move in a game.
"""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_DIR = Path(__file__).resolve().parent.parent
"""The checkout: templates/, static/, migrations/ and alembic.ini live here."""

DEFAULT_SECRET_KEY = "dev-only-insecure-secret-change-me"


class Settings(BaseSettings):
    """The server's settings; each field is read from the upper-case environment variable."""

    # hide_input_in_errors: a rejected SECRET_KEY must not end up in a log.
    model_config = SettingsConfigDict(env_file=".env", extra="ignore", hide_input_in_errors=True)

    environment: Literal["development", "test", "production"] = "development"
    database_url: str = Field(
        default=f"sqlite:///{PROJECT_DIR / 'data' / 'pyramid.db'}",
        description="SQLAlchemy URL: sqlite:///path or postgresql+psycopg://user:pw@host/db",
    )
    secret_key: str = Field(default=DEFAULT_SECRET_KEY, min_length=16)
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    cookie_name: str = "pyramid_player"
    cookie_secure: bool = Field(
        default=False, description="Send the player cookie over HTTPS only (set behind TLS)."
    )
    cookie_max_age_days: int = Field(default=400, ge=1)
    random_deal_max: int = Field(
        default=1_000_000_000,
        ge=1,
        description="Random deals are drawn from 1..this, so share links stay short.",
    )

    @model_validator(mode="after")
    def _refuse_default_secret_in_production(self) -> Settings:
        if self.environment == "production" and self.secret_key == DEFAULT_SECRET_KEY:
            raise ValueError(
                "SECRET_KEY is the built-in development secret: set SECRET_KEY to a long random "
                "value (e.g. `python -c 'import secrets; print(secrets.token_urlsafe(32))'`) "
                "before running with ENVIRONMENT=production"
            )
        return self

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


@lru_cache
def get_settings() -> Settings:
    """The process's settings, read once."""
    return Settings()


def settings_or_exit() -> Settings:
    """The settings for a command-line entry point: bad ones end it with one clear line per
    problem on stderr and exit status 1, not a traceback."""
    try:
        return get_settings()
    except ValidationError as exc:
        for error in exc.errors():
            field = ".".join(str(part) for part in error["loc"]).upper()
            message = error["msg"].removeprefix("Value error, ")
            where = f"bad setting {field}: " if field else ""
            print(f"pyramid: {where}{message}", file=sys.stderr)
        raise SystemExit(1) from None

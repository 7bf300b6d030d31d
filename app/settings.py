"""Configuration: one settings object, read from environment variables (or a ``.env`` file).

Every knob of the server lives here and nowhere else. The defaults are safe for local play
(SQLite in ``data/``, loopback only); production mode refuses to start with the default secret,
because the secret signs the player cookie that decides who may move in a game, and it always
marks that cookie Secure, because a production server is reached over HTTPS.

Mistakes are caught here, at start-up, rather than at the first request: a short secret, a
host pattern Starlette would reject, a BASE_URL that is not an origin, a DATABASE_URL whose
driver cannot load. The command-line entry points report each as one line (``exit_with``).
"""

from __future__ import annotations

import ipaddress
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal, NoReturn
from urllib.parse import urlsplit

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict, SettingsError

PROJECT_DIR = Path(__file__).resolve().parent.parent
"""The checkout: templates/, static/, migrations/ and alembic.ini live here."""

DEFAULT_SECRET_KEY = "dev-only-insecure-secret-change-me"
MIN_SECRET_BYTES = 32
"""256 bits: what itsdangerous's HMAC-SHA1 key should have for a cookie nobody can forge."""

DEFAULT_ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver", "[::1]"]
"""Loopback, and Starlette's TestClient: a server that someone reaches by another name must
say so (ALLOWED_HOSTS or BASE_URL), so a forged Host header never ends up in a link."""

HOST_PATTERN = re.compile(r"\*|(\*\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*|\[[0-9a-f:.]+\]", re.ASCII)
"""What Starlette's TrustedHostMiddleware matches: a name, ``*.domain``, ``*`` or ``[IPv6]``."""

MIN_SECRET_DISTINCT = 12
"""A random secret of 32 or more bytes has far more distinct characters than this; one made of
a few repeated characters is no secret (production refuses it)."""

GENERATE_SECRET = "python -c 'import secrets; print(secrets.token_urlsafe(32))'"

MIN_TOKEN_LENGTH = 16
"""METRICS_TOKEN's shortest: a bearer token someone could guess would open the metrics (request
counts, routes, the solver's load) to anyone who tries."""


class Settings(BaseSettings):
    """The server's settings; each field is read from the upper-case environment variable."""

    # hide_input_in_errors: a rejected SECRET_KEY must not end up in a log.
    model_config = SettingsConfigDict(env_file=".env", extra="ignore", hide_input_in_errors=True)

    environment: Literal["development", "test", "production"] = "development"
    database_url: str = Field(
        default=f"sqlite:///{PROJECT_DIR / 'data' / 'pyramid.db'}",
        description="SQLAlchemy URL: sqlite:///path or postgresql+psycopg://user:pw@host/db",
    )
    secret_key: str = Field(default=DEFAULT_SECRET_KEY,
                            description=f"At least {MIN_SECRET_BYTES} bytes, random.")
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    # NoDecode: pydantic-settings would read a list from the environment as JSON; a plain
    # comma-separated ALLOWED_HOSTS=a.example,b.example is friendlier (split below).
    allowed_hosts: Annotated[list[str], NoDecode] = Field(
        default_factory=lambda: list(DEFAULT_ALLOWED_HOSTS),
        description="Host names the server answers to, comma-separated; '*.example.org' "
                    "matches subdomains. BASE_URL's host is always added.",
    )
    base_url: str | None = Field(
        default=None,
        description="The public origin, e.g. https://pyramid.example: absolute links and the "
                    "cross-site check use it instead of the request's own scheme and host.",
    )
    trusted_proxies: str | None = Field(
        default=None,
        description="Addresses or networks of the reverse proxies whose X-Forwarded-For and "
                    "X-Forwarded-Proto are believed (comma-separated, or * alone for any "
                    "peer): none by default, so a client can never claim to be on HTTPS or "
                    "somewhere else. app.serve hands it to uvicorn, which takes the rightmost "
                    "address not named here, or with * the leftmost: * is safe only where "
                    "no client reaches the app but through a proxy that sets the header "
                    "(docs/deploy.md).")
    migrate_on_start: bool = Field(
        default=True,
        description="app.serve migrates before serving; set false where a separate step "
                    "migrates once for several app processes.")
    max_body_bytes: int = Field(
        default=65536, ge=1024,
        description="Larger request bodies are refused with 413 (but /stats/import's: "
                    "IMPORT_MAX_MB). deploy/pyramid.conf.template gives nginx the same limit "
                    "from the same variable.")
    import_max_mb: int = Field(
        default=8, ge=1, le=64,
        description="An import (/stats/import, a file from Download JSON: some 8,000 games) is "
                    "at most this many MiB, the whole request; a larger one is refused with "
                    "413 and a page that says why. deploy/pyramid.conf.template gives nginx "
                    "the same limit for /stats/import from the same variable.")
    head_timeout_seconds: float = Field(
        default=10.0, gt=0, le=300,
        description="A request line and headers not complete this long after the connection "
                    "opened (or the previous answer) get 408 and the connection is closed "
                    "(app.serve's protocol, app/web/core/protocol.py).")
    body_timeout_seconds: float = Field(
        default=10.0, gt=0, le=300,
        description="A request body still incomplete this long after the request began gets "
                    "408 and the connection is closed (slow or stalled clients).")
    send_timeout_seconds: float = Field(
        default=15.0, gt=0, le=300,
        description="A client that takes none of an answer for this long (it stopped "
                    "reading) is cut off: the connection is closed, the answer left "
                    "incomplete.")
    pause_grace_seconds: int = Field(
        default=30, ge=0, le=600,
        description="The first seconds of every pause count as played time, so pausing to "
                    "think before each move saves nothing (docs/players.md).")
    pause_limit_minutes: int = Field(
        default=10, ge=0, le=1440,
        description="The most a game's pauses leave out of its time, in all; paused time "
                    "beyond it counts as played (docs/players.md).")
    ranked_burst: int = Field(
        default=24, ge=1, le=10_000,
        description="Moves (and undos) a game may send at once and stay ranked; beyond it, "
                    "they come faster than a person plays (docs/players.md).")
    ranked_moves_per_second: float = Field(
        default=2.0, gt=0, le=10_000,
        description="Moves (and undos) a second a game may keep up and stay ranked, after "
                    "its burst (docs/players.md).")
    searches_per_minute: int = Field(
        default=30, ge=1, le=6000,
        description="A player's solver searches (hints, analyses, winning lines, deal "
                    "verdicts) a minute, after a burst of SEARCH_BURST; beyond it 429 with "
                    "Retry-After, before any database work (app/web/core/budget.py).")
    search_burst: int = Field(default=15, ge=0, le=100_000,
                              description="Searches past the rate a player may ask for at "
                                          "once (as nginx's limit_req burst).")
    games_per_minute: int = Field(
        default=20, ge=1, le=6000,
        description="New games a player may start a minute (any route that starts one), "
                    "after a burst of GAME_BURST.")
    game_burst: int = Field(default=20, ge=0, le=100_000,
                            description="New games past the rate a player may start at once.")
    transfers_per_minute: int = Field(
        default=6, ge=1, le=6000,
        description="Imports and exports of statistics a player may make a minute, after a "
                    "burst of TRANSFER_BURST.")
    transfer_burst: int = Field(default=6, ge=0, le=100_000,
                                description="Imports and exports past the rate a player may "
                                            "make at once.")
    # An address's budgets: the shipped nginx's limit_req zones (deploy/pyramid.conf.template),
    # so behind it nginx refuses first and, served directly, the app holds the same line.
    address_searches_per_second: float = Field(
        default=20, gt=0, le=10_000,
        description="The searches of all the players behind one address a second, after a "
                    "burst of ADDRESS_SEARCH_BURST: a shared address (a school, a carrier's "
                    "NAT) has room for many players, and fresh cookies buy nothing.")
    address_search_burst: int = Field(default=20, ge=0, le=100_000,
                                      description="Searches past the rate one address may ask "
                                                  "for at once: about what the solver's pools "
                                                  "can take at once (a search thread a core "
                                                  "but one, each with 8 waiting, in each app "
                                                  "process), so that a flood's first second "
                                                  "queues no more than they serve.")
    address_games_per_second: float = Field(
        default=10, gt=0, le=10_000,
        description="New games one address may start a second, after ADDRESS_GAME_BURST.")
    address_game_burst: int = Field(default=200, ge=0, le=100_000,
                                    description="New games past the rate one address may start "
                                                "at once.")
    address_transfers_per_second: float = Field(
        default=1, gt=0, le=10_000,
        description="Imports and exports one address may make a second, after "
                    "ADDRESS_TRANSFER_BURST.")
    address_transfer_burst: int = Field(default=20, ge=0, le=100_000,
                                        description="Imports and exports past the rate one "
                                                    "address may make at once.")
    address_not_found_per_second: float = Field(
        default=5, gt=0, le=10_000, description="404 pages drawn for one address a second, "
        "after ADDRESS_NOT_FOUND_BURST; past it, a short 404 (a scanner's flood).")
    address_not_found_burst: int = Field(default=50, ge=0, le=100_000, description="404 pages "
                                         "past the rate one address may be drawn at once.")
    # Races (docs/races.md): the time limit, the countdown, the live streams' limits.
    race_limit_minutes: int = Field(default=15, ge=1, le=240,
                                    description="A race ends this long after its start.")
    race_countdown_seconds: float = Field(default=3.0, ge=0, le=60,
                                          description="From Start to the race's start.")
    race_streams_per_address: int = Field(default=24, ge=1, le=100_000,
                                          description="Open streams an address (else 429).")
    race_streams_per_process: int = Field(default=4000, ge=1, le=1_000_000,
                                          description="Open streams a process (else 503).")
    race_stream_queue: int = Field(default=64, ge=2, le=10_000,
                                   description="Events waiting on a stream before it is cut.")
    race_heartbeat_seconds: float = Field(default=15.0, gt=0, le=300,
                                          description="A comment on an idle stream this often.")
    cookie_name: str = "pyramid_player"
    cookie_secure: bool = Field(
        default=False,
        description="Send the player cookie over HTTPS only, and send HSTS (set behind TLS; "
                    "always on in production).",
    )
    cookie_max_age_days: int = Field(default=400, ge=1)
    random_deal_max: int = Field(
        default=1_000_000_000,
        ge=1,
        description="Random deals are drawn from 1..this, so share links stay short.",
    )
    log_format: Literal["text", "json"] = Field(
        default="text",
        description="text: lines for a person at a terminal (make run); json: one JSON object "
                    "a line for a log collector (the image and compose.yaml set it).")
    metrics_token: str | None = Field(
        default=None, min_length=MIN_TOKEN_LENGTH,
        description="Opens /metrics to a scraper that sends it as 'Authorization: Bearer "
                    "<token>'; unset, /metrics answers 404 to everyone.")
    workers: int = Field(
        default=1, ge=1, le=64,
        description="uvicorn worker processes app.serve starts (the metrics of all of them "
                    "are summed through prometheus-client's multiprocess mode).")
    release: str | None = Field(
        default=None, pattern=r"^[A-Za-z0-9._-]{1,40}$",
        description="The release's name: the files' addresses (/assets/<release>/) and the "
                    "service worker's cache. Default: a digest of static/ and templates/, so "
                    "any change to them is a new release.")

    @field_validator("secret_key")
    @classmethod
    def _long_enough_secret(cls, value: str) -> str:
        if len(value.encode("utf-8")) < MIN_SECRET_BYTES:
            raise ValueError(f"must be at least {MIN_SECRET_BYTES} bytes long "
                             f"(make one with `{GENERATE_SECRET}`)")
        return value

    @field_validator("metrics_token", mode="before")
    @classmethod
    def _no_empty_token(cls, value: Any) -> Any:
        """An empty METRICS_TOKEN (compose's ``${METRICS_TOKEN:-}``) means none: closed."""
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("database_url")
    @classmethod
    def _loadable_database_url(cls, value: str) -> str:
        from sqlalchemy.engine import make_url  # here: the CLI imports settings, not SQLAlchemy
        from sqlalchemy.exc import ArgumentError, NoSuchModuleError

        try:
            # Load the dialect and its driver: a typo or a missing driver fails now, not at
            # the first request.
            make_url(value).get_dialect().import_dbapi()
        except (ArgumentError, NoSuchModuleError, ImportError, ValueError) as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise ValueError(f"not a database URL this server can use ({reason}); expected "
                             f"sqlite:///path or postgresql+psycopg://user:pw@host/db") from None
        return value

    @field_validator("allowed_hosts", mode="before")
    @classmethod
    def _split_hosts(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.split(",")
        if isinstance(value, list | tuple):
            value = [str(host).strip().lower() for host in value if str(host).strip()]
            bad = [host for host in value if not HOST_PATTERN.fullmatch(host)]
            if bad:
                raise ValueError(f"{bad[0]!r} is not a host name pattern: use names like "
                                 "pyramid.example, *.pyramid.example or [::1], without a "
                                 "scheme or port")
            if not value:
                raise ValueError("no host names given: list the names the server is reached "
                                 "by, comma-separated")
        return value

    @field_validator("trusted_proxies", mode="before")
    @classmethod
    def _addresses_or_networks(cls, value: Any) -> Any:
        """``*``, or IP addresses and networks: uvicorn takes anything else (a host name, a
        mistyped address) as a literal no peer ever matches, so the proxy would silently not
        be believed and every player would seem to come from its address."""
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        if not isinstance(value, str):
            return value
        entries = [entry.strip() for entry in value.split(",") if entry.strip()]
        if entries == ["*"]:
            return "*"
        for entry in entries:
            try:
                ipaddress.ip_network(entry) if "/" in entry else ipaddress.ip_address(entry)
            except ValueError:
                raise ValueError(
                    f"{entry!r} is not an IP address or network: name the proxy by its "
                    "address (10.0.0.5) or network (10.0.0.0/24), comma-separated, or * alone "
                    "where no client can reach the app but through the proxy") from None
        if not entries:
            raise ValueError("no address given: name the proxy's address, or leave "
                             "TRUSTED_PROXIES unset")
        return ",".join(entries)

    @field_validator("base_url", mode="before")
    @classmethod
    def _origin_only(cls, value: Any) -> Any:
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        if not isinstance(value, str):
            return value
        parts = urlsplit(value.strip())
        if (parts.scheme not in ("http", "https") or not parts.hostname
                or parts.username or parts.password or parts.path not in ("", "/")
                or parts.query or parts.fragment):
            raise ValueError("BASE_URL must be an origin such as https://pyramid.example "
                             "(http or https, a host, an optional port, no path)")
        return f"{parts.scheme}://{parts.netloc.lower()}"

    @model_validator(mode="after")
    def _production_rules(self) -> Settings:
        if self.environment == "production":
            if self.secret_key == DEFAULT_SECRET_KEY:
                raise ValueError(
                    "SECRET_KEY is the built-in development secret: set SECRET_KEY to a long "
                    f"random value (e.g. `{GENERATE_SECRET}`) before running with "
                    "ENVIRONMENT=production"
                )
            if len(set(self.secret_key)) < MIN_SECRET_DISTINCT:
                raise ValueError(
                    f"SECRET_KEY has only {len(set(self.secret_key))} different characters: "
                    f"a random secret has many more (make one with `{GENERATE_SECRET}`)")
            if not self.base_url:
                raise ValueError(
                    "BASE_URL is not set: in production the site is reached over HTTPS, often "
                    "through a proxy, and without its public origin (e.g. "
                    "https://pyramid.example) every form post would be refused as coming "
                    "from another site")
            # Production is served over HTTPS: a cookie that could travel in clear text would
            # let anyone on the path take over the player's games.
            self.cookie_secure = True
        return self

    @property
    def import_max_bytes(self) -> int:
        """IMPORT_MAX_MB in bytes (nginx's ``8m`` is 8 MiB too)."""
        return self.import_max_mb * 1024 * 1024

    @property
    def budgets(self) -> dict[str, tuple[tuple[float, int], tuple[float, int]]]:
        """Each costly kind of request's budgets, (per second, burst), for one player and for
        one address."""
        return {
            "search": ((self.searches_per_minute / 60, self.search_burst),
                       (self.address_searches_per_second, self.address_search_burst)),
            "game": ((self.games_per_minute / 60, self.game_burst),
                     (self.address_games_per_second, self.address_game_burst)),
            "transfer": ((self.transfers_per_minute / 60, self.transfer_burst),
                         (self.address_transfers_per_second, self.address_transfer_burst))}

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    @property
    def trusted_hosts(self) -> list[str]:
        """ALLOWED_HOSTS, plus BASE_URL's host: the public name is always allowed."""
        hosts = list(self.allowed_hosts)
        if self.base_url:
            name = urlsplit(self.base_url).hostname or ""
            name = f"[{name}]" if ":" in name else name
            if name and name not in hosts:
                hosts.append(name)
        return hosts


@lru_cache
def get_settings() -> Settings:
    """The process's settings, read once."""
    return Settings()


def exit_with(message: str) -> NoReturn:
    """End a command-line entry point with ``message`` as one line on stderr, status 1."""
    print("pyramid: " + " ".join(message.split()), file=sys.stderr)
    raise SystemExit(1)


def settings_or_exit() -> Settings:
    """The settings for a command-line entry point: bad ones end it with one clear line on
    stderr (every problem, joined) and exit status 1, not a traceback."""
    try:
        return get_settings()
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            field = ".".join(str(part) for part in error["loc"]).upper()
            message = error["msg"].removeprefix("Value error, ")
            problems.append(f"bad setting {field}: {message}" if field else message)
        exit_with("; ".join(problems))
    except SettingsError as exc:  # a value pydantic-settings could not even parse
        exit_with(f"bad settings: {str(exc).splitlines()[0]}")

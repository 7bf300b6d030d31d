"""The tables, as SQLAlchemy 2 declarative models. Alembic's migrations create them."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    Enum,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    Text,
    UniqueConstraint,
    false,
    true,
)
from sqlalchemy.engine import CursorResult, Result
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, validates

from app.engine import MAX_PASSES, Game, GameStatus, Score, Variant, score

STATUSES = tuple(status.value for status in GameStatus)
ENDED = tuple(status for status in GameStatus if status.ended)
"""The statuses a game ends in; once reached, a game never changes again."""

STATUS_TYPE = Enum(GameStatus, native_enum=False, create_constraint=False, length=16,
                   values_callable=lambda statuses: [status.value for status in statuses],
                   validate_strings=True)
"""A status column: the enum's values ("won") in a VARCHAR(16), as the migrations made it,
read back as ``GameStatus`` members. The CHECK constraint ``games_status`` below is the
migrations' own (named), so the type adds none."""


class Base(DeclarativeBase):
    pass


def utcnow() -> datetime:
    return datetime.now(UTC)


def rows_changed(result: Result[Any]) -> int:
    """How many rows an UPDATE or a DELETE changed (``Session.execute`` types its answer as
    a plain ``Result``; for these statements it is a ``CursorResult``, which counts them)."""
    assert isinstance(result, CursorResult)
    return result.rowcount


class GameRecord(Base):
    """One game as played by one player: enough to replay it exactly, plus its times.

    The position is never stored, only (deal, goal, passes, moves): the engine rebuilds it, so
    what is stored can only be a position the engine reached by legal moves.
    """

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(64))
    # Deal numbers go up to 10**20 - 1, beyond a 64-bit integer, so they are kept as digits.
    deal_number: Mapped[str | None] = mapped_column(String(20))
    # A custom deal (no number) in Deal.to_text form.
    deal_text: Mapped[str | None] = mapped_column(String(200))
    goal: Mapped[str] = mapped_column(String(16))
    passes: Mapped[int] = mapped_column(SmallInteger)
    # Moves in text form separated by spaces: "draw KS 5H+8C recycle".
    moves: Mapped[str] = mapped_column(Text, default="")
    move_count: Mapped[int] = mapped_column(Integer, default=0)
    undo_count: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[GameStatus] = mapped_column(STATUS_TYPE, default=GameStatus.PLAYING)
    # Cards cleared towards the goal: pyramid cards (of 28) for standard, all (of 52) for
    # whole deck. Kept with every save, so statistics never replay games.
    cleared: Mapped[int] = mapped_column(SmallInteger, default=0, server_default="0")
    # Seconds from the first move to the end, fixed when the game ends (NULL until then).
    seconds: Mapped[int | None] = mapped_column(Integer)
    # When the first move was played: the clock starts there (NULL until then).
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Hints asked for (POST /api/games/{id}/hint and the board's Hint button).
    hints_used: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # The UTC date whose deal of the day this game is (NULL for any other game).
    daily: Mapped[date | None] = mapped_column(Date)
    # A past day's deal of the day played after that day (from the calendar): the calendar
    # shows it, the daily streak does not count it (``daily`` is NULL then).
    late_daily: Mapped[date | None] = mapped_column(Date)
    # Dealt from the solver's proven-winnable deals ("Winnable deals only").
    winnable_only: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # False for a game played "not counted" (a retry from before the losing move, a won deal
    # of the day played again): it stays out of the statistics.
    rated: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # The fewest moves that win the deal under these rules, kept once a won game asks for it.
    par: Mapped[int | None] = mapped_column(SmallInteger)
    # The score (rules page; app/engine/score.py), fixed when the game ends (NULL before).
    score: Mapped[int | None] = mapped_column(Integer)
    # The game whose challenge link this game was started from (its id: the server reads it,
    # no page shows it; app/web/services/results.py).
    challenge: Mapped[str | None] = mapped_column(String(600))
    # What this game's own challenge link carries: a random key, set when a game of a
    # numbered deal ends with moves (games.py ``_end``), so the link names no game id.
    challenge_key: Mapped[str | None] = mapped_column(String(32))
    # The clock stops while a game is paused: since when, and the seconds of earlier pauses.
    paused_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    paused_seconds: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Set once, when a counted game ends (app/store/places.py record_result): its place in the
    # player's results (1, 2, 3 ...), and the run of equal results (won / not won) it ends,
    # within its variant and over all variants. Streak figures are then plain aggregates.
    seq: Mapped[int | None] = mapped_column(Integer)
    streak: Mapped[int | None] = mapped_column(Integer)
    streak_all: Mapped[int | None] = mapped_column(Integer)
    # The id of the last batch of board inputs applied (``<tab>:<n>``, see
    # app/web/services/boardinput.py): a batch sent twice is applied once, and a tab's own
    # earlier batch is not "another tab".
    last_input: Mapped[str | None] = mapped_column(String(48))
    # Whether the server saw every move as it was played, so that its clock is the game's
    # time: false for moves made without network and synced later, and for imported games.
    # Such a result counts for its player; its time and score are never ranked.
    timed: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # Whether the game's time and score are ranked against other players' (the deal's
    # results, the daily's figures, the fastest win, a challenge): false when not ``timed``,
    # or when a game answering a challenge or of a deal of the day in play played a move known
    # beforehand, a hint or a winning line shown outside it to its player or at its address
    # (app/web/services/witness.py). Its result still counts for its player.
    ranked: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # Why it is not ranked, the first reason found: "untimed", "known", "fast" (moves that came
    # faster than a person plays: app/store/pace.py). NULL: ranked, or made not ranked before
    # 0012 (read from ``timed``).
    unranked_why: Mapped[str | None] = mapped_column(String(8))
    # The moment by which the game's inputs so far would have been played at a person's
    # sustained pace (app/store/pace.py); NULL before the first.
    pace_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The race this game is played in (app/store/races.py; NULL for any other game).
    race: Mapped[str | None] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Optimistic locking: two tabs or two server processes cannot overwrite each other's move.
    version: Mapped[int] = mapped_column(Integer, nullable=False)

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012 - SQLAlchemy's API
    __table_args__ = (
        CheckConstraint(
            "(deal_number IS NULL) <> (deal_text IS NULL)", name="games_one_deal_form"
        ),
        CheckConstraint(f"status IN {STATUSES!r}", name="games_status"),
        # From the one limit: a rule set allowing more passes needs a migration of this CHECK.
        CheckConstraint(f"passes BETWEEN 1 AND {MAX_PASSES}", name="games_passes"),
        Index("ix_games_player_status", "player_id", "status", "updated_at"),
        # Statistics: the aggregate per variant reads only this index (it covers the query).
        Index("ix_games_player_variant_finished", "player_id", "goal", "passes", "finished_at",
              "status", "move_count", "cleared", "seconds", "streak", "streak_all", "rated",
              "score", "par"),
        # Results in order: the history (all variants) and the charts (one variant).
        Index("ix_games_player_seq", "player_id", "seq"),
        Index("ix_games_player_variant_seq", "player_id", "goal", "passes", "seq"),
        Index("ix_games_player_daily", "player_id", "daily"),
        Index("ix_games_player_late_daily", "player_id", "late_daily"),
        # The game a retried first batch started (a deal page's first input): one game a
        # batch, however many copies of it arrive at once.
        Index("ix_games_player_last_input", "player_id", "last_input", unique=True),
        # "Has anyone played this deal?": a deal's searched verdicts are kept only then.
        Index("ix_games_deal_number", "deal_number"),
        # How everyone did on one deal under one set of rules (the deal page's results).
        Index("ix_games_deal_variant", "deal_number", "goal", "passes", "status"),
        # The game a challenge link names (its key); the answers to a game's challenge.
        Index("ix_games_challenge_key", "challenge_key", unique=True),
        Index("ix_games_challenge", "challenge"),
    )

    @validates("status")
    def _a_status(self, _key: str, status: GameStatus | str) -> GameStatus:
        """A status set as its value (``"won"``) is the enum's member from then on: the
        record's status is a ``GameStatus`` whether it was set or read back."""
        return GameStatus(status)

    @property
    def variant(self) -> Variant:
        return Variant(self.goal, self.passes)

    def status_of(self, game: Game) -> GameStatus:
        """``playing``, ``won``, ``lost`` or ``abandoned``: this record's status once it ended
        (only the record knows an abandoned game, or one its race's time limit ended), else
        that of ``game``, this record's position."""
        return self.status if self.status.ended else game.status

    def lost_by_time(self, position_over: bool) -> bool:
        """Whether the game was ended by its race's time limit: a race game lost in a position
        that is not over (``position_over``: the engine's verdict on its moves)."""
        return bool(self.race) and self.status is GameStatus.LOST and not position_over

    def score_of(self, game: Game) -> Score:
        """The score of ``game`` (this record's position) with this record's hints, undos and
        time: the time bonus once won, from the seconds fixed at the end."""
        return score(game, hints=self.hints_used or 0, undos=self.undo_count or 0,
                     seconds=self.seconds)

    @property
    def counted(self) -> bool:
        """Whether the game is in the statistics: it ended, had at least one move, and was
        not played "not counted"."""
        return self.status.ended and self.move_count > 0 and self.rated


class Player(Base):
    """What a player chose to tell about themselves. Players need no row until they do."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    display_name: Mapped[str | None] = mapped_column(String(40))
    # "Winnable deals only", remembered from the new-game form.
    winnable_only: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The settings page's choices as JSON text (theme, card back, sound ...); NULL: defaults.
    preferences: Mapped[str | None] = mapped_column(Text)
    # Opted in to be named on a deal's results (under display_name); others are only counted.
    listed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # When the player last reset their statistics: an export made before does not import.
    stats_reset_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class DeviceLink(Base):
    """A link that moves a player's identity to another browser. Only a hash of its secret is
    kept; revoked links are kept too, so that using one says "revoked" rather than "unknown"."""

    __tablename__ = "device_links"

    secret_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_device_links_player", "player_id"),)


class DeviceSession(Base):
    """A browser signed in through a device link: its player cookie names this session as well
    as the player, and is accepted only while the session is not revoked. ``link_hash`` is the
    link it came in through (each link signs in one browser)."""

    __tablename__ = "device_sessions"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(64))
    link_hash: Mapped[str | None] = mapped_column(String(64))
    user_agent: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_device_sessions_player", "player_id"),)


class GivenHint(Base):
    """A move the solver gave as a hint, or showed as a move of a winning line (an analysis,
    a replay's ``win_from``, a retry's better move), in a game of any deal
    (app/web/services/witness.py): the position it was given in (a hash of the deal, the rules
    and the cards left where they are), the move, who was shown it and from which address (as
    the budget keys it), and the game it came from (null: written before 0011, a hint)."""

    __tablename__ = "given_hints"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    position: Mapped[str] = mapped_column(String(64))
    move: Mapped[str] = mapped_column(String(16))
    address: Mapped[str] = mapped_column(String(64))
    player_id: Mapped[str] = mapped_column(String(64))
    given_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    game_id: Mapped[str | None] = mapped_column(String(24), nullable=True)

    __table_args__ = (Index("ix_given_hints_position", "position", "move"),
                      Index("ix_given_hints_given_at", "given_at"))


class ImportedExport(Base):
    """An export imported: its id, once, and the player it went into (app/store/imports.py)."""

    __tablename__ = "imported_exports"

    export_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(64))
    imported_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ImportProgress(Base):
    """A player's last import, answered at once and done in the background: ``running``,
    ``done`` (games added and skipped) or ``refused`` (why: a key and its values as JSON, put
    in words in the reader's language). One a player (app/store/imports.py)."""

    __tablename__ = "import_progress"

    player_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    state: Mapped[str] = mapped_column(String(8))
    added: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    skipped: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    refused: Mapped[str | None] = mapped_column(String(32))
    refused_values: Mapped[str | None] = mapped_column(Text)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class DealVerdict(Base):
    """The solver's verdict on one numbered deal under one set of rules, computed once.

    ``winnable`` is NULL when the search hit its node limit; ``moves`` is the length of the
    winning line found (not necessarily the shortest).
    """

    __tablename__ = "deal_verdicts"

    deal_number: Mapped[str] = mapped_column(String(20), primary_key=True)
    goal: Mapped[str] = mapped_column(String(16), primary_key=True)
    passes: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    winnable: Mapped[bool | None] = mapped_column(Boolean)
    moves: Mapped[int | None] = mapped_column(Integer)
    nodes: Mapped[int] = mapped_column(BigInteger)
    par: Mapped[int | None] = mapped_column(SmallInteger)
    computed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Race(Base):
    """Friends racing on one deal (app/store/races.py): found by its unguessable key."""

    __tablename__ = "races"

    key: Mapped[str] = mapped_column(String(32), primary_key=True)
    goal: Mapped[str] = mapped_column(String(16))
    passes: Mapped[int] = mapped_column(SmallInteger)
    # Shown to nobody before the start (nor in any event or log line).
    deal_number: Mapped[str] = mapped_column(String(20))
    hints: Mapped[bool] = mapped_column(Boolean, server_default=true())
    creator: Mapped[str] = mapped_column(String(64))
    # waiting, countdown, running, finished (a countdown that ended is running, a race past
    # its end finished, whether or not the row says so yet: app/web/services/racing.py).
    status: Mapped[str] = mapped_column(String(16), server_default="waiting")
    starts_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    ends_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    limit_seconds: Mapped[int] = mapped_column(Integer, server_default="900")
    # Counters taken by UPDATE ... RETURNING: the racers joined, the last event's id.
    racers: Mapped[int] = mapped_column(SmallInteger, server_default="0")
    events: Mapped[int] = mapped_column(Integer, server_default="0")
    # The race "Rematch" made from this one (one per race, however many clicks).
    rematch: Mapped[str | None] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        CheckConstraint("status IN ('waiting', 'countdown', 'running', 'finished')",
                        name="races_status"),
        CheckConstraint("racers BETWEEN 0 AND 8", name="races_racers"),
        Index("ix_races_status", "status", "ends_at"),
        Index("ix_races_deal", "deal_number", "status"),
    )


class Racer(Base):
    """A player in a race, in the order they joined, and their game (its id reserved at the
    join; the game itself made at the start, so nothing shows the deal before)."""

    __tablename__ = "racers"

    race_key: Mapped[str] = mapped_column(String(32), ForeignKey("races.key",
                                                                 ondelete="CASCADE"),
                                          primary_key=True)
    player_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    number: Mapped[int] = mapped_column(SmallInteger)
    game_id: Mapped[str] = mapped_column(String(24))
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The racer pressed "I'm ready": a race of two or more, all ready, starts (migration 0014).
    ready: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    __table_args__ = (
        UniqueConstraint("race_key", "number", name="uq_racers_number"),
        UniqueConstraint("game_id", name="uq_racers_game"),
        Index("ix_racers_player", "player_id", "joined_at"),
    )


class RaceEvent(Base):
    """What a race's live streams send, numbered per race (1, 2, 3 ...): a stream replays
    the events after its ``Last-Event-ID`` from here, whichever process wrote them."""

    __tablename__ = "race_events"

    race_key: Mapped[str] = mapped_column(String(32), ForeignKey("races.key",
                                                                 ondelete="CASCADE"),
                                          primary_key=True)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    payload: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

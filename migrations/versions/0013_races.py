"""races: friends race on one deal, live (issue 44).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-05

- ``races``: one race, found by its unguessable key: its rules and deal, whether hints are
  allowed, who made it, its status (waiting, countdown, running, finished), when it starts
  and ends, its time limit, how many racers joined and the last event's id (both counters
  taken by an ``UPDATE ... RETURNING``, so two joins or two moves at once are serialized),
  and the race its rematch made.
- ``racers``: who joined (in order), and their game (its id reserved at the join, the game
  made at the start).
- ``race_events``: every change the live streams send, numbered per race: what a stream
  replays after a ``Last-Event-ID``, from any process.
- ``games.race``: the race a game is played in (NULL for any other game).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "races",
        sa.Column("key", sa.String(32), primary_key=True),
        sa.Column("goal", sa.String(16), nullable=False),
        sa.Column("passes", sa.SmallInteger(), nullable=False),
        sa.Column("deal_number", sa.String(20), nullable=False),
        sa.Column("hints", sa.Boolean(), nullable=False, server_default=sa.true()),
        sa.Column("creator", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False, server_default="waiting"),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("limit_seconds", sa.Integer(), nullable=False, server_default="900"),
        sa.Column("racers", sa.SmallInteger(), nullable=False, server_default="0"),
        sa.Column("events", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("rematch", sa.String(32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("status IN ('waiting', 'countdown', 'running', 'finished')",
                           name="races_status"),
        sa.CheckConstraint("racers BETWEEN 0 AND 8", name="races_racers"),
    )
    op.create_index("ix_races_status", "races", ["status", "ends_at"])
    op.create_index("ix_races_deal", "races", ["deal_number", "status"])
    op.create_table(
        "racers",
        sa.Column("race_key", sa.String(32), sa.ForeignKey("races.key", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("number", sa.SmallInteger(), nullable=False),
        sa.Column("game_id", sa.String(24), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("race_key", "number", name="uq_racers_number"),
        sa.UniqueConstraint("game_id", name="uq_racers_game"),
    )
    op.create_index("ix_racers_player", "racers", ["player_id", "joined_at"])
    op.create_table(
        "race_events",
        sa.Column("race_key", sa.String(32), sa.ForeignKey("races.key", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(sa.Column("race", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_column("race")
    op.drop_table("race_events")
    op.drop_index("ix_racers_player", table_name="racers")
    op.drop_table("racers")
    op.drop_index("ix_races_deal", table_name="races")
    op.drop_index("ix_races_status", table_name="races")
    op.drop_table("races")

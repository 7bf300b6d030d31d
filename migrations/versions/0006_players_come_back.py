"""players who come back: the score of a game, a challenge it was started from, a pause in its
clock; a player's preferences and whether they are listed on a deal's results; links that
carry a player's identity to another device.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01

``games.score`` is fixed when a game ends (the live score is computed); ``games.challenge`` is
the signed challenge link's token; ``paused_at`` / ``paused_seconds`` take pauses out of the
clock; ``late_daily`` is the date of a past deal of the day played after its day (from the
calendar): its result shows there, but only ``daily`` (played on the day) makes streaks.
``players.preferences`` is JSON text (a few short keys, read on every page: no join).
``device_links`` keeps only a hash of each link's secret, so a stolen database holds no
working link.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COVERED = ["player_id", "goal", "passes", "finished_at", "status", "move_count", "cleared",
           "seconds", "streak", "streak_all", "rated"]


def upgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(sa.Column("score", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("challenge", sa.String(600), nullable=True))
        batch_op.add_column(sa.Column("paused_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("paused_seconds", sa.Integer(), nullable=False,
                                      server_default="0"))
        batch_op.add_column(sa.Column("late_daily", sa.Date(), nullable=True))
        batch_op.create_index("ix_games_player_late_daily", ["player_id", "late_daily"])
        batch_op.create_index("ix_games_deal_variant", ["deal_number", "goal", "passes",
                                                        "status"])
        # The statistics' covering index gains the best score and wins at par.
        batch_op.drop_index("ix_games_player_variant_finished")
        batch_op.create_index("ix_games_player_variant_finished", [*COVERED, "score", "par"])
    with op.batch_alter_table("players") as batch_op:
        batch_op.add_column(sa.Column("preferences", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("listed", sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
    op.create_table(
        "device_links",
        sa.Column("secret_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_device_links_player", "device_links", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_device_links_player", table_name="device_links")
    op.drop_table("device_links")
    with op.batch_alter_table("players") as batch_op:
        batch_op.drop_column("listed")
        batch_op.drop_column("preferences")
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_index("ix_games_player_variant_finished")
        batch_op.create_index("ix_games_player_variant_finished", COVERED)
        batch_op.drop_index("ix_games_deal_variant")
        batch_op.drop_index("ix_games_player_late_daily")
        batch_op.drop_column("late_daily")
        batch_op.drop_column("paused_seconds")
        batch_op.drop_column("paused_at")
        batch_op.drop_column("challenge")
        batch_op.drop_column("score")

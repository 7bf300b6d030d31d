"""offline play: whether the server watched a game's clock, and a game found by the batch that
started it.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04

``games.timed`` is false for a game whose moves were not all seen as they were played: some
were made on a device without network (synced later), or the game came from an import. Its
result counts in its player's statistics; its time and score are never ranked against other
players'. ``ix_games_player_last_input`` finds the game a retried first batch started (a deal
page's first input, sent again after its answer was lost), so it starts no second game.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(sa.Column("timed", sa.Boolean(), nullable=False,
                                      server_default=sa.true()))
        batch_op.create_index("ix_games_player_last_input", ["player_id", "last_input"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_index("ix_games_player_last_input")
        batch_op.drop_column("timed")

"""lines shown: ``given_hints`` also keeps the moves of winning lines shown (analyses, replays'
``win_from``, retries' better moves) on any deal, and the game each came from.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-07

- ``given_hints.game_id``: the game a hint was given in, or whose line was shown. A game that
  plays such a move from such a position counts it as a hint unless it came from that game
  itself (app/web/services/witness.py). Rows written before have none: they were hints, and
  keep 0010's rule (another player's only) until they are deleted (``KEPT_DAYS``).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("given_hints") as batch_op:
        batch_op.add_column(sa.Column("game_id", sa.String(24), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("given_hints") as batch_op:
        batch_op.drop_column("game_id")

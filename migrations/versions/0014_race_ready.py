"""race_ready: a racer says they are ready; the race starts when every racer is.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-05

- ``racers.ready``: the racer pressed "I'm ready" (a race of two or more racers, every one
  of them ready, starts its countdown as the maker's Start does).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("racers") as batch_op:
        batch_op.add_column(sa.Column("ready", sa.Boolean(), nullable=False,
                                      server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("racers") as batch_op:
        batch_op.drop_column("ready")

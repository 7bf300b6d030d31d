"""inputs: the id of the last batch of board inputs each game applied.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01

The board sends its inputs in batches, each with an id (``<tab>:<n>``) and the version it was
made on. A batch sent again (its answer was lost on the way) finds its own id here and is
answered as applied, once; a version changed by the same tab's earlier batch is told apart
from a change made in another tab.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(sa.Column("last_input", sa.String(length=48), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_column("last_input")

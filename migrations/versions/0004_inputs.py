"""inputs and deals: the id of the last batch of board inputs each game applied; games found
by deal number.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01

The board sends its inputs in batches, each with an id (``<tab>:<n>``) and the version it was
made on. A batch sent again (its answer was lost on the way) finds its own id here and is
answered as applied, once; a version changed by the same tab's earlier batch is told apart
from a change made in another tab.

The deal-number index answers "has anyone played this deal?", which decides whether a deal's
searched verdicts are kept (only played deals' are: the table stays as small as the games).
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
        batch_op.create_index("ix_games_deal_number", ["deal_number"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_index("ix_games_deal_number")
        batch_op.drop_column("last_input")

"""challenge keys: what a challenge link carries instead of the sender's game id.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-12

A challenge link used to carry the sender's game id, signed but readable: the friend could
decode it and watch the sender's winning replay. ``games.challenge_key`` is a random key of
its own (``secrets.token_urlsafe(16)``), set when a game of a numbered deal ends with moves
(app/store/games.py), found again through ``ix_games_challenge_key``. Games that ended before
this migration get theirs here, so every link shared before can move to the new form.
``ix_games_challenge`` finds the answers to a game's challenge (every ended game's results
read them) without reading every game.
(``games.challenge``, on a game started from a link, still names the sender's game: the server
reads it, no page shows it.)
"""

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 1000

games = sa.table("games", sa.column("id", sa.String), sa.column("status", sa.String),
                 sa.column("deal_number", sa.String), sa.column("move_count", sa.Integer),
                 sa.column("challenge_key", sa.String))


def upgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(sa.Column("challenge_key", sa.String(32), nullable=True))
        batch_op.create_index("ix_games_challenge_key", ["challenge_key"], unique=True)
        batch_op.create_index("ix_games_challenge", ["challenge"])
    connection = op.get_bind()
    without_key = (
        sa.select(games.c.id)
        .where(games.c.status.in_(("won", "lost", "abandoned")),
               games.c.deal_number.is_not(None), games.c.move_count > 0,
               games.c.challenge_key.is_(None))
        .order_by(games.c.id).limit(BATCH))
    give = (sa.update(games).where(games.c.id == sa.bindparam("game_id"))
            .values(challenge_key=sa.bindparam("key")))
    while ids := connection.execute(without_key).scalars().all():
        connection.execute(give, [{"game_id": game_id, "key": secrets.token_urlsafe(16)}
                                  for game_id in ids])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_index("ix_games_challenge")
        batch_op.drop_index("ix_games_challenge_key")
        batch_op.drop_column("challenge_key")

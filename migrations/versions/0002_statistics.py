"""statistics: cards cleared, time, order and streaks per game; their indexes; a players table.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30

Existing games are filled in once: their cards cleared (by replaying the moves through the
engine) and, for ended games, the seconds they took (an abandoned game ends when it was left),
their place in their player's results and the streaks they end.
"""

from collections.abc import Sequence
from datetime import UTC

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(
            sa.Column("cleared", sa.SmallInteger(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("seconds", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("seq", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("streak", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("streak_all", sa.Integer(), nullable=True))
        batch_op.create_index(
            "ix_games_player_variant_finished",
            ["player_id", "goal", "passes", "finished_at", "status", "move_count", "cleared",
             "seconds", "streak", "streak_all"])
        batch_op.create_index("ix_games_player_seq", ["player_id", "seq"])
        batch_op.create_index("ix_games_player_variant_seq", ["player_id", "goal", "passes", "seq"])
    op.create_table(
        "players",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("display_name", sa.String(length=40), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    _backfill()


def _backfill() -> None:
    """Cards cleared, end time and seconds for the games stored before this revision."""
    from app.engine import Deal, Game, Move  # the engine alone decides what was cleared

    games = sa.table(
        "games", sa.column("id"), sa.column("deal_number"), sa.column("deal_text"),
        sa.column("goal"), sa.column("passes"), sa.column("moves"), sa.column("move_count"),
        sa.column("status"), sa.column("created_at", sa.DateTime(timezone=True)),
        sa.column("updated_at", sa.DateTime(timezone=True)),
        sa.column("finished_at", sa.DateTime(timezone=True)), sa.column("cleared"),
        sa.column("seconds"), sa.column("player_id"), sa.column("seq"), sa.column("streak"),
        sa.column("streak_all"))
    connection = op.get_bind()
    rows = connection.execute(sa.select(games).where(games.c.move_count > 0)).mappings().all()
    ended: list[dict] = []
    for row in rows:
        deal = (Deal.from_number(int(row["deal_number"])) if row["deal_number"] is not None
                else Deal.from_text(row["deal_text"]))
        game = Game.replay(deal, row["goal"], row["passes"],
                           [Move.from_text(t) for t in row["moves"].split()])
        cleared = game.cards_removed if row["goal"] == "wholedeck" else 28 - game.pyramid_left
        values: dict = {"cleared": cleared}
        if row["status"] != "playing":
            end = row["finished_at"] or row["updated_at"]
            start = row["created_at"]
            end, start = (m if m.tzinfo else m.replace(tzinfo=UTC) for m in (end, start))
            values.update(finished_at=end, seconds=max(0, int((end - start).total_seconds())))
            ended.append({**row, **values})
        connection.execute(games.update().where(games.c.id == row["id"]).values(**values))
    # Order and streaks, player by player, in finishing order (as record_result would have).
    ended.sort(key=lambda r: (r["player_id"], r["finished_at"], r["id"]))
    last: dict = {}
    for row in ended:
        won = row["status"] == "won"
        player, variant = row["player_id"], (row["player_id"], row["goal"], row["passes"])
        seq, was_won_all, run_all = last.get(player, (0, None, 0))
        _, was_won, run = last.get(variant, (0, None, 0))
        streak = run + 1 if was_won == won else 1
        streak_all = run_all + 1 if was_won_all == won else 1
        last[player] = (seq + 1, won, streak_all)
        last[variant] = (0, won, streak)
        connection.execute(games.update().where(games.c.id == row["id"]).values(
            seq=seq + 1, streak=streak, streak_all=streak_all))


def downgrade() -> None:
    op.drop_table("players")
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_index("ix_games_player_variant_seq")
        batch_op.drop_index("ix_games_player_seq")
        batch_op.drop_index("ix_games_player_variant_finished")
        batch_op.drop_column("streak_all")
        batch_op.drop_column("streak")
        batch_op.drop_column("seq")
        batch_op.drop_column("seconds")
        batch_op.drop_column("cleared")

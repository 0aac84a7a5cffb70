"""Ratings: each player's and bot level's rating per ladder, every finished game
judged once for them, and an index of the games by when they finished (the sweep's
catch-up of unjudged games) (docs/players.md#ratings).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("ladder", sa.String(16), primary_key=True),
        sa.Column("player", sa.String(40), primary_key=True),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=True
        ),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["ladder", "score"])
    op.create_index("ix_ratings_user", "ratings", ["user_id"])
    op.create_table(
        "rated_games",
        sa.Column("room_code", sa.String(16), primary_key=True),
        sa.Column("game_no", sa.Integer, primary_key=True),
        sa.Column("ladder", sa.String(16), nullable=True),
        sa.Column("reason", sa.String(32), nullable=True),
        sa.Column("changes", sa.JSON, nullable=False),
        sa.Column("rated_at", sa.Float, nullable=False),
    )
    # Every node's sweep looks for the games finished lately that nobody judged.
    op.create_index("ix_games_finished", "games", ["finished_at"])


def downgrade() -> None:
    op.drop_index("ix_games_finished", "games")
    op.drop_table("rated_games")
    op.drop_index("ix_ratings_user", "ratings")
    op.drop_index("ix_ratings_board", "ratings")
    op.drop_table("ratings")

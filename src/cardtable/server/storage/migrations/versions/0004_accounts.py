"""Accounts (optional; guests have none): users, their sessions, the seats they claimed,
and the counters of the sign-in limits (docs/players.md).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("name_key", sa.String(96), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_user", "sessions", ["user_id"])
    op.create_table(
        "seat_claims",
        sa.Column("room_code", sa.String(16), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("claimed_at", sa.Float, nullable=False),
    )
    op.create_index("ix_seat_claims_user", "seat_claims", ["user_id"])
    op.create_table(
        "throttles",
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("window_start", sa.Float, nullable=False),
        sa.Column("count", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("throttles")
    op.drop_index("ix_seat_claims_user", "seat_claims")
    op.drop_table("seat_claims")
    op.drop_index("ix_sessions_user", "sessions")
    op.drop_table("sessions")
    op.drop_table("users")

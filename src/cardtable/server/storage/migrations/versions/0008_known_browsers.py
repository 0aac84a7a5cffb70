"""Known browsers: a browser that signed in to an account before keeps a cookie whose
SHA-256 is kept here, so that a stranger's failed sign-ins under the account's name do
not lock it out (issue 47, finding 9).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "known_browsers",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "user_id",
            sa.Integer,
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seen_at", sa.Float, nullable=False),
    )
    op.create_index("ix_known_browsers_user", "known_browsers", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_known_browsers_user", table_name="known_browsers")
    op.drop_table("known_browsers")

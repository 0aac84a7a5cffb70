"""Public rooms: a room the host marks public is listed in the lobby (``GET
/api/lobby``); an index finds the public rooms by status, oldest first.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "rooms", sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.create_index("ix_rooms_lobby", "rooms", ["public", "status", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_rooms_lobby", table_name="rooms")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("public")

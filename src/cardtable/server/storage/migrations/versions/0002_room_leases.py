"""Room leases: the node that owns each room, until when, the fencing epoch, and the
node that asked for the room (the proxy routes its players there).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("owner", sa.String(64), nullable=True))
    op.add_column("rooms", sa.Column("epoch", sa.BigInteger, nullable=False, server_default="0"))
    op.add_column("rooms", sa.Column("lease_until", sa.Float, nullable=True))
    op.add_column("rooms", sa.Column("wanted_by", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("wanted_by")
        batch.drop_column("lease_until")
        batch.drop_column("epoch")
        batch.drop_column("owner")

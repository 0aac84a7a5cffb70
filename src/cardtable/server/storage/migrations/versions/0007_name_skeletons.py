"""Account names that look alike: each user's name skeleton (Unicode TR39, as a SHA-256),
unique, so a name confusable with a registered one (``Alice`` with a Cyrillic A, U+0410,
beside ``Alice``) is refused (docs/players.md#accounts). The existing accounts get
theirs here; of two that already look alike, the older keeps the skeleton (the other's
stays empty: both keep their names).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from cardtable.server.name_skeletons import skeleton_hash

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("users", sa.Column("name_skeleton", sa.String(64), nullable=True))
    connection = op.get_bind()
    users = sa.table(
        "users",
        sa.column("id", sa.Integer),
        sa.column("name", sa.String),
        sa.column("name_skeleton"),
    )
    taken: set[str] = set()
    for user_id, name in connection.execute(sa.select(users.c.id, users.c.name).order_by("id")):
        hashed = skeleton_hash(name)
        if hashed in taken:
            continue
        taken.add(hashed)
        connection.execute(users.update().where(users.c.id == user_id).values(name_skeleton=hashed))
    op.create_index("ux_users_name_skeleton", "users", ["name_skeleton"], unique=True)


def downgrade() -> None:
    op.drop_index("ux_users_name_skeleton", table_name="users")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("name_skeleton")

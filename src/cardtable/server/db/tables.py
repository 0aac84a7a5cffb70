"""The tables of the server's database, on the one ``metadata`` the migrations follow.

The schema is created and upgraded by the Alembic migrations in ``migrations/`` (see
:mod:`cardtable.server.schema`); these declarations are what the queries use and what
``alembic revision --autogenerate`` compares a database with, so a change here comes
with a migration.
"""

from __future__ import annotations

import sqlalchemy as sa

from ...statuses import RoomStatus

metadata = sa.MetaData()

#: Length of ``rooms.client`` (a client address; migration 0001 says 64 too).
CLIENT_LENGTH = 64

rooms = sa.Table(
    "rooms",
    metadata,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("rules", sa.JSON, nullable=False),
    sa.Column("seats", sa.JSON, nullable=False),
    sa.Column("host_hash", sa.String(64), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("game_no", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=True),
    sa.Column("version", sa.BigInteger, nullable=False),
    sa.Column("start_version", sa.BigInteger, nullable=True),
    sa.Column("client", sa.String(CLIENT_LENGTH), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    # The room's lease (migration 0002): the node serving it, until when, and the
    # epoch every write of that node is fenced by (see Storage.claim_room).
    sa.Column("owner", sa.String(64), nullable=True),
    sa.Column("epoch", sa.BigInteger, nullable=False, server_default="0"),
    sa.Column("lease_until", sa.Float, nullable=True),
    sa.Column("wanted_by", sa.String(64), nullable=True),
    # How the table is run (migration 0003): turn time limit, spectator chat.
    sa.Column("table_options", sa.JSON, nullable=True),
    sa.Index("ix_rooms_status", "status"),
)

games = sa.Table(
    "games",
    metadata,
    sa.Column("room_code", sa.String(16), primary_key=True),
    sa.Column("game_no", sa.Integer, primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("rules", sa.JSON, nullable=False),
    sa.Column("seats", sa.JSON, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("result", sa.JSON, nullable=True),
    sa.Column("started_at", sa.Float, nullable=False),
    sa.Column("finished_at", sa.Float, nullable=True),
)

moves = sa.Table(
    "moves",
    metadata,
    sa.Column("room_code", sa.String(16), primary_key=True),
    sa.Column("game_no", sa.Integer, primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.Integer, nullable=False),
    sa.Column("version", sa.BigInteger, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)

#: The statuses of a room that is still served (``rooms.status``).
LIVE_STATUSES = tuple(RoomStatus)

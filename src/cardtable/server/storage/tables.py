"""The tables of the server's database, on the one ``metadata`` the migrations follow.

The schema is created and upgraded by the Alembic migrations in ``migrations/`` (see
:mod:`cardtable.server.storage.schema`); these declarations are what the queries use and what
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
    # Listed in the public lobby (migration 0006): the table option ``public``, kept
    # as a column so the lobby's query reads only the public rooms (its index).
    sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Index("ix_rooms_status", "status"),
    sa.Index("ix_rooms_lobby", "public", "status", "created_at"),
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
    # The ratings' catch-up looks for the games finished lately (migration 0005).
    sa.Index("ix_games_finished", "finished_at"),
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

# Accounts (migration 0004, docs/players.md): optional; a guest never has a row here.

#: Length of ``users.name`` (a display name, see cardtable.display_names.MAX_NAME) and
#: of ``users.name_key`` (its NFKC case-folded form, which may be longer).
USER_NAME_LENGTH = 24
NAME_KEY_LENGTH = 96

users = sa.Table(
    "users",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(USER_NAME_LENGTH), nullable=False),
    # Unique: two names that differ in case or Unicode form only are one name.
    sa.Column("name_key", sa.String(NAME_KEY_LENGTH), nullable=False, unique=True),
    # Unique: two names that look alike (one TR39 skeleton, hashed) are one name
    # (migration 0007; empty for an older account that looked like an older one).
    sa.Column("name_skeleton", sa.String(64), nullable=True),
    # Argon2id, in its PHC string form (parameters and salt included).
    sa.Column("password_hash", sa.String(200), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Index("ux_users_name_skeleton", "name_skeleton", unique=True),
)

sessions = sa.Table(
    "sessions",
    metadata,
    # SHA-256 of the cookie's token: the token itself is never stored.
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
    sa.Index("ix_sessions_user", "user_id"),
)

#: Browsers that signed in to an account before: a stranger's failed sign-ins under the
#: account's name do not lock such a browser out (docs/players.md, "Sign-in limits").
known_browsers = sa.Table(
    "known_browsers",
    metadata,
    # SHA-256 of the browser cookie's token: the token itself is never stored.
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    sa.Column("seen_at", sa.Float, nullable=False),
    sa.Index("ix_known_browsers_user", "user_id"),
)

#: The seats an account claimed: its games are those of these seats.
seat_claims = sa.Table(
    "seat_claims",
    metadata,
    sa.Column("room_code", sa.String(16), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    sa.Column("claimed_at", sa.Float, nullable=False),
    sa.Index("ix_seat_claims_user", "user_id"),
)

#: Counters of the sign-in limits, shared by every node: ``count`` attempts under
#: ``key`` since ``window_start`` (a key is an address's or a name's, never a name).
throttles = sa.Table(
    "throttles",
    metadata,
    sa.Column("key", sa.String(100), primary_key=True),
    sa.Column("window_start", sa.Float, nullable=False),
    sa.Column("count", sa.Integer, nullable=False),
)

# Ratings (migration 0005, docs/players.md#ratings): people and bot levels on one ladder.

#: Length of ``ratings.player``: ``user:<id>`` or ``bot:<level>``.
PLAYER_LENGTH = 40

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("ladder", sa.String(16), primary_key=True),
    sa.Column("player", sa.String(PLAYER_LENGTH), primary_key=True),
    # The account of a person's rating (None for a bot level): deleted with it.
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    # mu - 2 sigma: what leaderboards rank by (cardtable.server.ladder.score).
    sa.Column("score", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("wins", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    sa.Index("ix_ratings_board", "ladder", "score"),
    sa.Index("ix_ratings_user", "user_id"),
)

#: Every finished game judged for a ladder, once: the key makes a second attempt a no-op.
rated_games = sa.Table(
    "rated_games",
    metadata,
    sa.Column("room_code", sa.String(16), primary_key=True),
    sa.Column("game_no", sa.Integer, primary_key=True),
    # None: the game is unrated, for ``reason``.
    sa.Column("ladder", sa.String(16), nullable=True),
    sa.Column("reason", sa.String(32), nullable=True),
    # Each player's rating before and after (a rated game), the history of ratings.
    sa.Column("changes", sa.JSON, nullable=False),
    sa.Column("rated_at", sa.Float, nullable=False),
)

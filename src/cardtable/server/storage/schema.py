"""The database schema at start: create it, upgrade it once under a lock, or refuse.

A server runs only on the schema its own migrations end at (their head):

- an empty database is created (the first start);
- a schema at the head is used as it is;
- a schema *newer* than this server's head (an unknown revision: a newer version
  migrated the database) is refused: this older code would misread it;
- a schema *older* than the head is upgraded on SQLite (one server per file, see
  :mod:`cardtable.server.storage.datalock`), but on PostgreSQL only when the server is started
  with ``--migrate``: other nodes may still be running the old version on it, and the
  upgrade would change the tables under them. The operator stops the old nodes, starts
  one new node with ``--migrate``, then the others.

On PostgreSQL the check and the migration run in one transaction that first takes a
transaction-level advisory lock, so nodes starting together migrate one at a time:
the first upgrades, the others then find the schema at the head and change nothing.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy.engine import Connection

from ..ops.startup import StartupRefusedError

MIGRATIONS = Path(__file__).with_name("migrations")

#: The key of the PostgreSQL advisory lock held while the schema is checked and
#: migrated (any fixed 64-bit number no other program on the database uses).
MIGRATION_LOCK_KEY = 0x63617264_7461626C  # "cardtabl"


@dataclasses.dataclass(frozen=True)
class Migration:
    """What a start did to the schema: from ``before`` (None: empty) to ``after``."""

    before: str | None
    after: str


def _alembic_config(script_location: Path, connection: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(script_location))
    config.attributes["connection"] = connection
    return config


def migrate_or_refuse(
    connection: Connection, *, allow_upgrade: bool, script_location: Path = MIGRATIONS
) -> Migration | None:
    """Bring the schema to this server's head or raise :class:`StartupRefusedError`.

    Returns the migration that ran, None when the schema was already at the head.
    Run it inside a transaction; on PostgreSQL it first waits for the migration lock.
    """
    if connection.dialect.name == "postgresql":
        connection.execute(
            sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY}
        )
    config = _alembic_config(script_location, connection)
    script = ScriptDirectory.from_config(config)
    head = script.get_current_head()
    assert head is not None, "the server ships at least one migration"
    current = MigrationContext.configure(connection).get_current_revision()
    if current == head:
        return None
    if current is not None:
        try:
            known = script.get_revision(current)
        except CommandError:
            known = None
        if known is None:
            raise StartupRefusedError(
                f"the database schema is at revision {current}, which this server does not "
                f"know: a newer cardtable migrated it (this one ends at {head}). Run the "
                "newer version, or restore a backup made before the upgrade"
            )
        if not allow_upgrade:
            raise StartupRefusedError(
                f"the database schema is at revision {current}, older than this server's "
                f"{head}. Other nodes may still run the old version on it: stop them, then "
                "start one node with --migrate (the upgrade runs once, under a lock) and "
                "the others after it"
            )
    command.upgrade(config, "head")
    return Migration(current, head)

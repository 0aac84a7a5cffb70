"""One server per SQLite file, and a schema of exactly this version: a second server on
the same data folder, or a server on a database migrated by another version, refuses to
start with a clear message; concurrent starts on PostgreSQL migrate exactly once."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from cardtable.server.ops.config import sqlite_url
from cardtable.server.ops.startup import StartupRefusedError
from cardtable.server.storage.schema import MIGRATIONS
from cardtable.server.storage.store import Storage

from ..live_server import free_port
from .test_group_commit import rows

STARTUP = 30.0


def test_a_second_storage_on_one_sqlite_file_is_refused_until_the_first_closes(tmp_path):
    url = sqlite_url(tmp_path / "data")

    async def scenario() -> str:
        first = Storage(url)
        await first.open()
        second = Storage(url)
        with pytest.raises(StartupRefusedError) as refused:
            await second.open()
        assert second.engine is None  # a refused storage holds nothing
        await first.close()
        await second.open()  # the lock went with the first
        await second.close()
        return str(refused.value)

    message = asyncio.run(scenario())
    assert f"(process {os.getpid()} on " in message
    assert str(tmp_path / "data" / "cardtable.db") in message
    assert "--data" in message and "PostgreSQL" in message


def _serve(data: Path, port: int) -> subprocess.Popen[str]:
    command = [
        sys.executable, "-m", "cardtable.cli", "serve", "--port", str(port), "--data", str(data),
    ]  # fmt: skip
    return subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )


def _wait_healthy(process: subprocess.Popen[str], port: int) -> None:
    deadline = time.monotonic() + STARTUP
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1) as response,
        ):
            if json.load(response)["status"] == "ok":
                return
        time.sleep(0.05)
    raise AssertionError("the first server did not start")


def test_a_second_server_on_the_same_data_folder_refuses_to_start(tmp_path):
    data = tmp_path / "data"
    first = _serve(data, free_port())
    try:
        _wait_healthy(first, int(first.args[5]))
        second = _serve(data, free_port())
        out, err = second.communicate(timeout=STARTUP)
        assert second.returncode == 1
        assert f"refused to start: another cardtable server (process {first.pid} on " in err
        assert "Traceback" not in err and "open http" not in out
        assert first.poll() is None  # the first one goes on serving
    finally:
        first.kill()
        first.communicate()
    # Killed with SIGKILL, the first server left its lock file but no lock: a new one starts.
    third = _serve(data, free_port())
    try:
        _wait_healthy(third, int(third.args[5]))
    finally:
        third.kill()
        third.communicate()


def _newer_migrations(tmp_path: Path) -> Path:
    """The shipped migrations plus one more, as a later version of the server has them."""
    folder = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS, folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "versions" / "9001_later.py").write_text(
        '"""A later version\'s migration."""\n'
        "import sqlalchemy as sa\n"
        "from alembic import op\n\n"
        'revision = "9001"\n'
        'down_revision = "0008"\n'
        "branch_labels = None\n"
        "depends_on = None\n\n\n"
        "def upgrade() -> None:\n"
        '    op.add_column("rooms", sa.Column("later", sa.Integer, nullable=True))\n\n\n'
        "def downgrade() -> None:\n"
        '    op.drop_column("rooms", "later")\n'
    )
    return folder


async def _open_close(url: str, **options: object) -> Storage:
    storage = Storage(url, **options)  # type: ignore[arg-type]
    await storage.open()
    await storage.close()
    return storage


def test_concurrent_starts_on_postgresql_migrate_exactly_once(postgres_url):
    async def scenario() -> list[Storage]:
        return list(await asyncio.gather(*(_open_close(postgres_url) for _ in range(3))))

    storages = asyncio.run(scenario())
    ran = [storage.migration for storage in storages if storage.migration is not None]
    assert len(ran) == 1 and ran[0].before is None and ran[0].after == "0008"
    assert rows(postgres_url, "SELECT version_num FROM alembic_version") == [("0008",)]


def test_postgresql_schema_older_than_the_server_needs_migrate(tmp_path, postgres_url):
    asyncio.run(_open_close(postgres_url))  # the database at 0008
    later = _newer_migrations(tmp_path)
    with pytest.raises(StartupRefusedError, match=r"older than this server's 9001.*--migrate"):
        asyncio.run(_open_close(postgres_url, migrations=later))
    assert rows(postgres_url, "SELECT version_num FROM alembic_version") == [("0008",)]

    async def upgrade_together() -> list[Storage]:
        starts = (_open_close(postgres_url, migrations=later, migrate=True) for _ in range(2))
        return list(await asyncio.gather(*starts))

    ran = [s.migration for s in asyncio.run(upgrade_together()) if s.migration is not None]
    assert [(m.before, m.after) for m in ran] == [("0008", "9001")]
    # The database is now newer than the shipped server: that one refuses.
    with pytest.raises(StartupRefusedError, match="revision 9001, which this server does not know"):
        asyncio.run(_open_close(postgres_url))
    assert rows(postgres_url, "SELECT version_num FROM alembic_version") == [("9001",)]


def test_sqlite_upgrades_an_older_schema_and_refuses_a_newer_one(tmp_path):
    url = sqlite_url(tmp_path / "data")
    asyncio.run(_open_close(url))
    upgraded = asyncio.run(_open_close(url, migrations=_newer_migrations(tmp_path)))
    assert upgraded.migration is not None and upgraded.migration.before == "0008"
    with pytest.raises(StartupRefusedError, match="a newer cardtable migrated it"):
        asyncio.run(_open_close(url))

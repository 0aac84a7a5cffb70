"""A throwaway PostgreSQL cluster for the server tests.

``initdb`` in a temporary folder under /tmp, ``postgres`` on a free loopback port (its
unix socket in the same folder), one fresh database per test, and the cluster stopped
and removed at the end of the session. The binaries come from ``$CARDTABLE_PG_BIN``,
else the newest ``/usr/lib/postgresql/*/bin`` (Debian), else ``initdb`` on the PATH.

initdb and pg_ctl refuse to run as root: as root they run as the ``postgres`` system
user (created by Debian's ``postgresql`` package) through ``runuser``.

Without the binaries (or asyncpg) the PostgreSQL tests skip, unless
``CARDTABLE_POSTGRES_TESTS=required`` (set by .ci/run), where they fail instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from ..live_server import free_port

REQUIRED = os.environ.get("CARDTABLE_POSTGRES_TESTS") == "required"
SUPERUSER = "postgres"


def unavailable(reason: str) -> None:
    """Skip, or fail when the PostgreSQL tests are required."""
    if REQUIRED:
        pytest.fail(f"CARDTABLE_POSTGRES_TESTS=required but {reason}", pytrace=False)
    pytest.skip(reason)


def find_bindir() -> Path | None:
    explicit = os.environ.get("CARDTABLE_PG_BIN")
    if explicit:
        return Path(explicit)
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda path: int(path.parts[-3]) if path.parts[-3].isdigit() else 0,
    )
    if versions:
        return versions[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


class Cluster:
    """One PostgreSQL server in a temporary folder; ``stop`` removes everything."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="cardtable-pg-", dir="/tmp"))
        self.data = self.root / "data"
        self.log = self.root / "postgres.log"
        self._names = itertools.count(1)
        self.runas: list[str] = []
        if os.geteuid() == 0:
            try:
                owner = pwd.getpwnam(SUPERUSER)
            except KeyError:
                shutil.rmtree(self.root)
                raise RuntimeError("running as root and there is no postgres user") from None
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
            self.runas = ["runuser", "-u", SUPERUSER, "--"]

    def _run(self, tool: str, *args: str) -> None:
        command = [*self.runas, str(self.bindir / tool), *args]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        if done.returncode != 0:
            log = self.log.read_text() if self.log.exists() else ""
            raise RuntimeError(f"{tool} failed:\n{done.stdout}{done.stderr}{log}")

    def start(self) -> None:
        self._run(
            "initdb", "-D", str(self.data), "-U", SUPERUSER, "-A", "trust",
            "-E", "UTF8", "--locale=C", "--no-sync",
        )  # fmt: skip
        options = " ".join(
            [
                f"-p {self.port}",
                f"-k {self.root}",
                "-c listen_addresses=127.0.0.1",
                "-c fsync=off",  # a throwaway cluster: speed over durability
                "-c synchronous_commit=off",
                "-c full_page_writes=off",
            ]
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str) -> str:
        return f"postgresql+asyncpg://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        """A new empty database; returns its ``postgresql+asyncpg://`` URL."""
        import asyncpg  # type: ignore[import-untyped]

        name = f"cardtable_{next(self._names)}"

        async def create() -> None:
            connection = await asyncpg.connect(
                host="127.0.0.1", port=self.port, user=SUPERUSER, database="postgres"
            )
            try:
                await connection.execute(f'CREATE DATABASE "{name}"')
            finally:
                await connection.close()

        asyncio.run(create())
        return self.url(name)


@contextlib.contextmanager
def throwaway_database() -> Iterator[str]:
    """One empty database on a PostgreSQL cluster of its own, removed afterwards (for the
    measurement tools, outside pytest); yields its ``postgresql+asyncpg://`` URL."""
    bindir = find_bindir()
    assert bindir is not None, "no PostgreSQL server binaries"
    cluster = Cluster(bindir)
    cluster.start()
    try:
        yield cluster.create_database()
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    try:
        import asyncpg  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        unavailable("asyncpg is not installed (pip install asyncpg)")
    bindir = find_bindir()
    if bindir is None or not (bindir / "initdb").exists():
        unavailable("the PostgreSQL server binaries (initdb) are not installed")
        raise AssertionError  # unreachable
    try:
        cluster = Cluster(bindir)
    except RuntimeError as error:
        unavailable(str(error))
        raise AssertionError from None  # unreachable
    try:
        cluster.start()
    except Exception as error:
        cluster.stop()
        unavailable(f"a PostgreSQL cluster could not start: {error}")
    yield cluster
    cluster.stop()


@pytest.fixture
def postgres_url(postgres_cluster: Cluster) -> str:
    """The ``postgresql+asyncpg://`` URL of a new empty database for this test."""
    return postgres_cluster.create_database()

"""One server per SQLite database: an exclusive lock on a file beside it.

Rooms live in the memory of the process serving them, so two processes on one
SQLite file would both restore every room and fork its history. The first server
takes an ``flock`` on ``cardtable.db.lock`` and holds it until it stops; a second one
finds it taken and refuses to start, naming the holder's process id. The kernel
drops the lock when its holder dies, even by ``kill -9``, so a crash never leaves a
stale lock behind (a leftover file is harmless: only the lock on it counts).

``flock`` locks belong to an open file, not to a process, so two servers in one
process (the tests) exclude each other too. They hold on local file systems; the
data folder must not be on NFS anyway (see docs/operations.md).
"""

from __future__ import annotations

import fcntl
import os
import socket
from pathlib import Path

from ..ops.startup import StartupRefusedError


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


class DataFolderLock:
    """The exclusive lock of one SQLite database file, held from :meth:`acquire` to
    :meth:`release`."""

    def __init__(self, database: Path) -> None:
        self.database = database
        self.path = lock_path(database)
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> None:
        """Take the lock or raise :class:`StartupRefusedError` naming the server holding it."""
        if self._fd is not None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd)
            os.close(fd)
            raise StartupRefusedError(
                f"another cardtable server{holder} is already serving {self.database}: "
                "a second server on the same SQLite database would fork its rooms' "
                "histories. Stop that server first, or give this one another --data "
                "folder (several servers on one database need PostgreSQL; see "
                "docs/operations.md)"
            ) from None
        except BaseException:
            os.close(fd)
            raise
        # Who holds it, for the refusal message of the next one (written only once
        # the lock is ours, so a refused server never overwrites it).
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()} {socket.gethostname()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        os.close(fd)  # closing the file drops the lock


def _read_holder(fd: int) -> str:
    try:
        text = os.pread(fd, 200, 0).decode("utf-8", "replace").split()
    except OSError:
        return ""
    if len(text) >= 2 and text[0].isdigit():
        return f" (process {text[0]} on {text[1]})"
    return ""

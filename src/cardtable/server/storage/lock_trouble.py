"""The guard on row locks (PostgreSQL): every deadlock and every lock wait longer than
:data:`LOCK_WAIT_SECONDS` is logged with the statement that met it, and counted
(``cardtable_db_deadlocks_total``, ``cardtable_db_lock_waits_total`` on ``/metrics``).

Every statement of the server that locks ``rooms`` rows locks them in one order, by
code (docs/operations.md, "Row locks"): this guard is how an operator sees a statement
that breaks the rule, or a lock held too long.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator

log = logging.getLogger("cardtable.server")

#: A wait for a row lock longer than this is logged and counted (seconds).
LOCK_WAIT_SECONDS = 0.1
#: PostgreSQL's SQLSTATE of a deadlock the server broke by aborting one side.
DEADLOCK_SQLSTATE = "40P01"


def is_deadlock(error: BaseException) -> bool:
    """Whether ``error`` (the driver's, or SQLAlchemy's around it) is a deadlock."""
    seen: BaseException | None = error
    while seen is not None:
        if getattr(seen, "sqlstate", None) == DEADLOCK_SQLSTATE:
            return True
        seen = getattr(seen, "orig", None) or seen.__cause__
    return False


class LockTrouble:
    """Counts of the deadlocks and long lock waits this node met."""

    def __init__(self, wait_seconds: float = LOCK_WAIT_SECONDS) -> None:
        self.wait_seconds = wait_seconds
        self.deadlocks = 0
        self.lock_waits = 0

    @contextlib.contextmanager
    def watch(
        self, statement: str, *, waits: bool = True, deadlocks: bool = True
    ) -> Iterator[None]:
        """Time a statement that takes row locks; log and count a deadlock it meets
        (``deadlocks``) or a wait longer than :attr:`wait_seconds` (``waits``)."""
        began = time.perf_counter()
        try:
            yield
        except BaseException as error:
            if deadlocks and is_deadlock(error):
                self.deadlocks += 1
                log.warning("deadlock: %s", statement)
            raise
        waited = time.perf_counter() - began
        if waits and waited > self.wait_seconds:
            self.lock_waits += 1
            log.warning("lock wait of %.3f s: %s", waited, statement)

"""The guard on row locks: a deadlock and a long lock wait are counted and logged with
their statement; anything else is neither."""

from __future__ import annotations

import logging
import time

import pytest
import sqlalchemy as sa

from cardtable.server.storage.lock_trouble import LockTrouble, is_deadlock


class DriverError(Exception):
    def __init__(self, sqlstate: str) -> None:
        super().__init__(sqlstate)
        self.sqlstate = sqlstate


def test_a_deadlock_is_counted_and_logged_with_its_statement(caplog):
    trouble = LockTrouble()
    wrapped = sa.exc.DBAPIError("UPDATE rooms ...", None, DriverError("40P01"))
    with (
        caplog.at_level(logging.WARNING, "cardtable.server"),
        pytest.raises(sa.exc.DBAPIError),
        trouble.watch("lease renewal: SELECT ... FOR UPDATE"),
    ):
        raise wrapped
    assert trouble.deadlocks == 1 and trouble.lock_waits == 0
    assert "deadlock: lease renewal: SELECT ... FOR UPDATE" in caplog.text


def test_other_errors_and_quick_statements_count_nothing():
    trouble = LockTrouble(wait_seconds=10.0)
    with pytest.raises(DriverError), trouble.watch("a unique violation"):
        raise DriverError("23505")
    with trouble.watch("a quick statement"):
        pass
    assert (trouble.deadlocks, trouble.lock_waits) == (0, 0)


def test_a_long_wait_is_counted_and_logged(caplog):
    trouble = LockTrouble(wait_seconds=0.0)
    with caplog.at_level(logging.WARNING, "cardtable.server"):
        with trouble.watch("move batch fence"):
            time.sleep(0.001)
        with trouble.watch("move batch", waits=False):  # a whole batch is no lock wait
            time.sleep(0.001)
    assert trouble.lock_waits == 1
    assert "s: move batch fence" in caplog.text


def test_a_deadlock_is_found_through_the_chain_of_causes():
    try:
        try:
            raise DriverError("40P01")
        except DriverError as error:
            raise RuntimeError("the adapter's") from error
    except RuntimeError as outer:
        assert is_deadlock(outer)
    assert not is_deadlock(RuntimeError("no state"))

"""The server's collector policy: survivors frozen out of collections, and a full
collection at the chosen interval frees the cycles frozen before they became garbage."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from cardtable.server.collector import CollectorPolicy

QUIET = (10**8, 50, 1_000)


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture
def restored_collector() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def _cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_start_sets_thresholds_and_freezes_what_exists(restored_collector):
    policy = CollectorPolicy((12_345, 7, 99), freeze_seconds=10.0, full_seconds=600.0)
    policy.start()
    assert gc.get_threshold() == (12_345, 7, 99)
    assert gc.get_freeze_count() > 0
    assert len(gc.get_objects(0)) + len(gc.get_objects(1)) < gc.get_freeze_count()


def test_a_frozen_cycle_lives_until_the_full_collection(restored_collector):
    # Thresholds no test allocates past, so that only the calls here collect.
    policy = CollectorPolicy(QUIET, freeze_seconds=10.0, full_seconds=600.0)
    policy.start()
    cycle = _cycle()  # still referenced only by itself once _cycle returns
    policy.tick(now=policy._last_full + 10)  # frozen before anybody collected it
    gc.collect()
    assert cycle() is not None  # a frozen cycle is never scanned
    policy.tick(now=policy._last_full + 599)
    assert cycle() is not None and policy.full_collections == 0
    policy.tick(now=policy._last_full + 600)
    assert cycle() is None and policy.full_collections == 1
    assert gc.get_freeze_count() > 0  # what survived the full collection is frozen again


def test_without_full_collections_frozen_cycles_stay(restored_collector):
    policy = CollectorPolicy(QUIET, freeze_seconds=10.0, full_seconds=0.0)
    policy.start()
    cycle = _cycle()
    policy.tick(now=policy._last_full + 10**6)
    gc.collect()
    assert cycle() is not None and policy.full_collections == 0


def test_an_unfrozen_cycle_is_collected_as_usual(restored_collector):
    policy = CollectorPolicy(freeze_seconds=10.0, full_seconds=600.0)
    policy.start()
    cycle = _cycle()
    gc.collect()
    assert cycle() is None

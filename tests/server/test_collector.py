"""The server's collector policy: survivors frozen out of collections, and a full
collection at the chosen interval frees the cycles frozen before they became garbage.

The scenarios run in a fresh interpreter, where this thread is the only one: the
collector is the process's, and ``gc.collect()`` does nothing while another thread is in
the middle of a collection (one that runs finalizers lets other threads run meanwhile).
In a test worker other threads collect (xdist's own, the threads earlier tests left),
and this test failed about one run in seven when one of them was collecting just then:
the full collection at 600 s found nothing to do and the frozen cycle lived on."""

from __future__ import annotations

import contextlib
import gc
import json
import subprocess
import sys
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cardtable.server.ops.collector import CollectorPolicy

QUIET = (10**8, 50, 1_000)
ROOT = Path(__file__).resolve().parents[2]


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


@contextlib.contextmanager
def _restored_collector() -> Iterator[None]:
    thresholds = gc.get_threshold()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


def _cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def _start_sets_thresholds_and_freezes() -> dict[str, Any]:
    policy = CollectorPolicy((12_345, 7, 99), freeze_seconds=10.0, full_seconds=600.0)
    policy.start()
    return {
        "thresholds": list(gc.get_threshold()),
        "frozen": gc.get_freeze_count(),
        "young": len(gc.get_objects(0)) + len(gc.get_objects(1)),
    }


def _frozen_cycle_until_the_full_collection() -> dict[str, Any]:
    # Thresholds nothing here allocates past, so that only the calls here collect.
    policy = CollectorPolicy(QUIET, freeze_seconds=10.0, full_seconds=600.0)
    policy.start()
    cycle = _cycle()  # still referenced only by itself once _cycle returns
    policy.tick(now=policy._last_full + 10)  # frozen before anybody collected it
    gc.collect()
    seen: dict[str, Any] = {"alive after a collection": cycle() is not None}
    policy.tick(now=policy._last_full + 599)
    seen["at 599 s"] = (cycle() is not None, policy.full_collections)
    policy.tick(now=policy._last_full + 600)
    seen["at 600 s"] = (cycle() is not None, policy.full_collections)
    seen["frozen after"] = gc.get_freeze_count()
    return seen


def _no_full_collections() -> dict[str, Any]:
    policy = CollectorPolicy(QUIET, freeze_seconds=10.0, full_seconds=0.0)
    policy.start()
    cycle = _cycle()
    policy.tick(now=policy._last_full + 10**6)
    gc.collect()
    return {"alive": cycle() is not None, "full collections": policy.full_collections}


def _unfrozen_cycle() -> dict[str, Any]:
    policy = CollectorPolicy(freeze_seconds=10.0, full_seconds=600.0)
    policy.start()
    cycle = _cycle()
    gc.collect()
    return {"alive": cycle() is not None}


SCENARIOS: dict[str, Callable[[], dict[str, Any]]] = {
    "start": _start_sets_thresholds_and_freezes,
    "frozen cycle": _frozen_cycle_until_the_full_collection,
    "no full collections": _no_full_collections,
    "unfrozen cycle": _unfrozen_cycle,
}


def run_scenarios() -> None:
    """In the fresh interpreter: each scenario with the collector's settings restored
    after it, and what each saw as one JSON line."""
    seen = {}
    for name, scenario in SCENARIOS.items():
        with _restored_collector():
            seen[name] = scenario()
    print(json.dumps(seen))


@pytest.fixture(scope="module")
def seen() -> dict[str, Any]:
    code = f"import {__name__} as scenarios; scenarios.run_scenarios()"
    done = subprocess.run(
        [sys.executable, "-c", code],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def test_start_sets_thresholds_and_freezes_what_exists(seen):
    start = seen["start"]
    assert start["thresholds"] == [12_345, 7, 99]
    assert start["frozen"] > 0
    assert start["young"] < start["frozen"]


def test_a_frozen_cycle_lives_until_the_full_collection(seen):
    frozen = seen["frozen cycle"]
    assert frozen["alive after a collection"]  # a frozen cycle is never scanned
    assert frozen["at 599 s"] == [True, 0]
    assert frozen["at 600 s"] == [False, 1]
    assert frozen["frozen after"] > 0  # what survived the full collection is frozen again


def test_without_full_collections_frozen_cycles_stay(seen):
    assert seen["no full collections"] == {"alive": True, "full collections": 0}


def test_an_unfrozen_cycle_is_collected_as_usual(seen):
    assert seen["unfrozen cycle"] == {"alive": False}

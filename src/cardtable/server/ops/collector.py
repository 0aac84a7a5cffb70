"""How the table server runs Python's garbage collector, for short pauses under load.

A node holding hundreds of rooms keeps hundreds of thousands of long-lived tracked
objects (each WebSocket's protocol objects, coroutines, queues; each room's records).
Left to the collector's thresholds, they are scanned again by every collection of the
older generations: at 800 rooms a middle-generation collection stopped the server for
0.3 to 0.5 s, and young collections that had grown to 50,000 objects for 15 to 60 ms
(docs/performance.md). So the server:

- collects the young generation often enough that each collection stays short
  (``thresholds``);
- every ``freeze_seconds`` moves every object that survived so far into the permanent
  generation (:func:`gc.freeze`), which no collection scans: the objects a room or a
  connection keeps are then scanned a few times while young, never again;
- every ``full_seconds`` gives the frozen objects back to the collector and runs one
  full collection, so that reference cycles among objects frozen before they became
  garbage (a closed connection's coroutines, say) are freed, then freezes the rest
  again. That is the one long pause left, at a rate the operator chooses.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import time

#: Young collections this often keep each one short at 800 rooms; the middle
#: generation is collected rarely, since freezing empties it anyway.
DEFAULT_THRESHOLDS = (10_000, 50, 1_000)
#: How often survivors are frozen (seconds).
DEFAULT_FREEZE_SECONDS = 10.0
#: How often the frozen objects are collected in full (seconds).
DEFAULT_FULL_SECONDS = 600.0


@dataclasses.dataclass
class CollectorPolicy:
    """The server's collector settings and the loop that applies them."""

    thresholds: tuple[int, int, int] = DEFAULT_THRESHOLDS
    #: Seconds between freezes of the survivors; 0 never freezes after start-up.
    freeze_seconds: float = DEFAULT_FREEZE_SECONDS
    #: Seconds between full collections of the frozen objects; 0 never (then what
    #: was frozen is only freed by reference counting).
    full_seconds: float = DEFAULT_FULL_SECONDS
    full_collections: int = 0
    _last_full: float = dataclasses.field(default_factory=time.monotonic)

    def start(self) -> None:
        """Set the thresholds and freeze what start-up made (modules, restored rooms)."""
        gc.set_threshold(*self.thresholds)
        if self.freeze_seconds > 0:
            gc.collect()
            gc.freeze()
            self._last_full = time.monotonic()

    def tick(self, now: float | None = None) -> None:
        """Freeze the survivors; once ``full_seconds`` have passed, collect them all."""
        now = time.monotonic() if now is None else now
        if self.full_seconds > 0 and now - self._last_full >= self.full_seconds:
            gc.unfreeze()
            gc.collect()
            self.full_collections += 1
            self._last_full = now
        gc.freeze()

    async def run(self) -> None:
        """Apply the policy until cancelled (nothing to do when freezing is off)."""
        if self.freeze_seconds <= 0:
            return
        while True:
            await asyncio.sleep(self.freeze_seconds)
            self.tick()

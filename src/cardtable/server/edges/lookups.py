"""Room code look-ups per client address on a cluster (docs/players.md, "Guessing").

Each node holds an address to its :class:`~.limits.LookupThrottle` (in memory: 20 misses
at once, then one a minute). Behind nginx, which spreads different codes over the nodes,
that would let N nodes allow N times the rate, so on PostgreSQL every miss is also
counted in the database (``throttles``, one upsert per miss, keyed by the address, in a
window of ``lookup_window`` seconds): once an address's misses on all the nodes together
pass ``lookup_cluster_misses``, a node that sees it miss holds it, hit or miss, until the
window ends. Only misses cost a write: a player who opens their rooms costs none. Each
node learns of the cluster's count at the address's next miss there, so an address gets
at most one more miss per node than the limit.

On SQLite (one node) the node's throttle is the whole limit.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..ops.limits import LookupThrottle
from ..storage.store import Storage

#: The prefix of the look-up counters in ``throttles`` (beside the sign-in ones).
KEY_PREFIX = "lookup:"


class ClusterLookups(LookupThrottle):
    """A node's :class:`LookupThrottle` and, with ``storage`` (PostgreSQL), the
    cluster's count of each address's misses."""

    def __init__(
        self,
        burst: int,
        seconds: float,
        storage: Storage | None,
        cluster_misses: int,
        window: float,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(burst, seconds)
        self.storage = storage
        self.cluster_misses = cluster_misses
        self.window = window
        #: Wall-clock seconds, as the counters' windows in the database are.
        self.wall_clock = wall_clock
        #: address -> wall-clock second until which the cluster holds it.
        self.held: dict[str, float] = {}

    def take(self, address: str) -> float | None:
        until = self.held.get(address)
        if until is not None:
            wait = until - self.wall_clock()
            if wait > 0:
                return wait
            del self.held[address]
        return super().take(address)

    async def missed(self, address: str) -> None:
        """A look-up of ``address`` found nothing: count it for the cluster."""
        if self.storage is None:
            return
        now = self.wall_clock()
        count, start = await self.storage.throttle_hit(KEY_PREFIX + address, self.window, now)
        if count >= self.cluster_misses:
            if len(self.held) >= self.max_addresses:
                self.held = {a: t for a, t in self.held.items() if t > now}
            self.held[address] = start + self.window

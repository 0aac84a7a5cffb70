"""Guard rails: per-connection rate limit, WebSocket Origin check, room code look-ups
per client address."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit


class RateLimiter:
    """A token bucket: ``burst`` messages at once, refilled at ``per_second``."""

    def __init__(
        self, per_second: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.per_second = per_second
        self.burst = float(burst)
        self.tokens = float(burst)
        self.clock = clock
        self.last = clock()

    def allow(self) -> bool:
        """Take one token; False when the bucket is empty (the caller closes with 1008)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.per_second)
        self.last = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class LookupThrottle:
    """Room code look-ups that find nothing, per client address: ``burst`` at once, then
    one every ``seconds``.

    Every look-up takes a token before it is made (so parallel guesses cannot overrun
    the limit) and a look-up that finds its room gives it back: players who open their
    rooms never run short, a guesser, whose look-ups all but never find one, is held to
    the rate. At 20 then one a minute, finding one of a thousand live rooms among the
    31^6 codes takes one address about 890,000 guesses: 1.7 years.

    Kept per node, in memory, for at most ``max_addresses`` addresses (the fullest
    buckets are forgotten first: they are the ones that hold nobody back).
    """

    def __init__(
        self,
        burst: int,
        seconds: float,
        clock: Callable[[], float] = time.monotonic,
        max_addresses: int = 100_000,
    ) -> None:
        self.burst = burst
        self.seconds = seconds
        self.clock = clock
        self.max_addresses = max_addresses
        #: address -> (tokens, when they were counted)
        self.buckets: dict[str, tuple[float, float]] = {}

    def _tokens(self, address: str, now: float) -> float:
        tokens, then = self.buckets.get(address, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - then) / self.seconds)

    def take(self, address: str) -> float | None:
        """Take a look-up for ``address``: None when allowed, else the seconds to wait."""
        now = self.clock()
        tokens = self._tokens(address, now)
        if tokens < 1.0:
            self.buckets[address] = (tokens, now)
            return (1.0 - tokens) * self.seconds
        if address not in self.buckets and len(self.buckets) >= self.max_addresses:
            self._forget_full(now)
        self.buckets[address] = (tokens - 1.0, now)
        return None

    def give_back(self, address: str) -> None:
        """The look-up found its room: it costs nothing."""
        now = self.clock()
        if address in self.buckets:
            self.buckets[address] = (min(float(self.burst), self._tokens(address, now) + 1), now)

    def _forget_full(self, now: float) -> None:
        full = [a for a in self.buckets if self._tokens(a, now) >= self.burst - 1]
        for address in full or list(self.buckets)[: len(self.buckets) // 2]:
            del self.buckets[address]


def _origin_host(origin: str) -> str | None:
    try:
        parts = urlsplit(origin)
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return parts.netloc.lower()


def origin_allowed(origin: str | None, host: str | None, allowed: Iterable[str]) -> bool:
    """Whether a WebSocket from page ``origin`` may connect to the server reached as ``host``.

    A browser always sends Origin, so a page on another site cannot open a socket to the
    table unless its origin is listed; clients that send none (scripts, bots) are allowed.
    """
    if origin is None:
        return True
    if origin in allowed or "*" in allowed:
        return True
    origin_host = _origin_host(origin)
    return origin_host is not None and host is not None and origin_host == host.lower()


class AddressBuckets:
    """A :class:`RateLimiter` per client address, for the public look-ups that need no
    room code (the lobby); at most ``max_addresses`` remembered (the fullest forgotten)."""

    def __init__(
        self,
        per_second: float,
        burst: int,
        clock: Callable[[], float] = time.monotonic,
        max_addresses: int = 10_000,
    ) -> None:
        self.per_second = per_second
        self.burst = burst
        self.clock = clock
        self.max_addresses = max_addresses
        self._buckets: dict[str, RateLimiter] = {}

    def allow(self, address: str) -> bool:
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= self.max_addresses:
                full = [a for a, b in self._buckets.items() if b.tokens >= b.burst - 1]
                for old in full or list(self._buckets)[: self.max_addresses // 10]:
                    del self._buckets[old]
            bucket = RateLimiter(self.per_second, self.burst, self.clock)
            self._buckets[address] = bucket
        return bucket.allow()

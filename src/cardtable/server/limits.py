"""Guard rails: per-connection rate limit, WebSocket Origin check, rooms per client."""

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

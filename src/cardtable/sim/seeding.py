"""Deterministic derivation of sub-seeds, so every game and every bot has its own stream.

Games k and k+1 of a tournament must not share random streams, and a bot's stream
must not be the deal's stream, or results would correlate in ways that bias the
statistics. Mixing through SplitMix64 keeps derived seeds independent of Python's
hash randomisation and version.
"""

from __future__ import annotations

from ..core import Rng

_MASK64 = (1 << 64) - 1


def derive_seed(seed: int, *path: int) -> int:
    """A 64-bit seed determined by ``seed`` and the integer ``path`` (e.g. game index, seat)."""
    value = Rng(seed & _MASK64).next64()
    for part in path:
        value = Rng(value ^ (part & _MASK64)).next64()
    return value

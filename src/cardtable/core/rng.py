"""A small seeded random generator owned by each state.

SplitMix64 is used instead of :mod:`random` so that a game's deals depend only on
its seed, never on the Python version, and so that copying or serializing the
generator is copying one integer.
"""

from __future__ import annotations

import struct
from collections.abc import MutableSequence
from typing import TypeVar

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")

#: Shuffles of at least this many items compute their draws together (:func:`_draws`).
BATCH_MIN = 16
_LANE_BITS = 128
#: Per batch size: (one 1 per lane, draw k's offset (k + 1) * golden per lane, 64-bit
#: mask per lane, the struct that reads the lanes back).
_LANES: dict[int, tuple[int, int, int, struct.Struct]] = {}
_LANES_KEPT = 1024


def _lanes(count: int) -> tuple[int, int, int, struct.Struct]:
    lanes = _LANES.get(count)
    if lanes is None:
        ones = sum(1 << (_LANE_BITS * k) for k in range(count))
        offsets = sum((((k + 1) * _GOLDEN) << (_LANE_BITS * k)) for k in range(count))
        lanes = (ones, offsets, ones * _MASK64, struct.Struct(f"<{2 * count}Q"))
        if count <= _LANES_KEPT:
            _LANES[count] = lanes
    return lanes


def _draws(state: int, count: int) -> list[int]:
    """The next ``count`` outputs of ``next64()`` from ``state``, computed side by side.

    Each draw k gets a 128-bit lane of one big int holding its 64-bit value, and every
    step of SplitMix64 is one operation on the whole int: a lane's product with a 64-bit
    constant fits in its lane, and the bits a right shift moves into the lane below land
    above its low 64 bits, where the mask clears them. The same numbers as ``count``
    calls of ``next64()``, with a few big-int operations instead of a dozen per draw.
    """
    ones, offsets, mask, lanes = _lanes(count)
    z = (state * ones + offsets) & mask
    z = (((z ^ (z >> 30)) & mask) * 0xBF58476D1CE4E5B9) & mask
    z = (((z ^ (z >> 27)) & mask) * 0x94D049BB133111EB) & mask
    z = (z ^ (z >> 31)) & mask
    return list(lanes.unpack(z.to_bytes(lanes.size, "little"))[::2])


class Rng:
    """SplitMix64 generator with unbiased bounded integers and Fisher-Yates shuffles."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an int, got {type(seed).__name__}")
        self.state = seed & _MASK64

    @classmethod
    def from_state(cls, state: int) -> Rng:
        rng = cls()
        rng.state = state & _MASK64
        return rng

    def next64(self) -> int:
        self.state = z = (self.state + _GOLDEN) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``range(n)`` (Lemire's method, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        # next64() inlined: this is the hottest call of every random playout.
        self.state = z = (self.state + _GOLDEN) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        m = (z ^ (z >> 31)) * n
        low = m & _MASK64
        if low < n:
            threshold = ((1 << 64) - n) % n
            while low < threshold:
                m = self.next64() * n
                low = m & _MASK64
        return m >> 64

    def random(self) -> float:
        """Uniform float in ``[0, 1)`` with 53 random bits."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates with ``below``; the same draws as calling it, with less overhead."""
        top = len(items) - 1
        if top + 1 < BATCH_MIN:
            self._shuffle_down(items, top)
            return
        # The draws are computed together; only Lemire's rare retry (a draw rejected for
        # its bias, then more draws than one per item) leaves the batch for the plain loop.
        start = self.state
        i = top
        for z in _draws(start, top):
            n = i + 1
            m = z * n
            if m & _MASK64 < n and m & _MASK64 < ((1 << 64) - n) % n:
                self.state = (start + (top - i) * _GOLDEN) & _MASK64
                self._shuffle_down(items, i)
                return
            j = m >> 64
            items[i], items[j] = items[j], items[i]
            i -= 1
        self.state = (start + top * _GOLDEN) & _MASK64

    def _shuffle_down(self, items: MutableSequence[T], top: int) -> None:
        """Fisher-Yates over positions ``top`` down to 1, one draw at a time."""
        state = self.state
        for i in range(top, 0, -1):
            n = i + 1
            state = z = (state + _GOLDEN) & _MASK64
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            m = (z ^ (z >> 31)) * n
            low = m & _MASK64
            if low < n:
                threshold = ((1 << 64) - n) % n
                self.state = state
                while low < threshold:
                    m = self.next64() * n
                    low = m & _MASK64
                state = self.state
            j = m >> 64
            items[i], items[j] = items[j], items[i]
        self.state = state

    def spawn(self) -> Rng:
        """An independent generator derived from this one (advances this one)."""
        return Rng(self.next64())

    def clone(self) -> Rng:
        return Rng.from_state(self.state)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other.state == self.state

    def __hash__(self) -> int:
        return hash(self.state)

    def __repr__(self) -> str:
        return f"Rng.from_state({self.state:#x})"

"""SplitMix64 in compiled code: the same numbers as :class:`cardtable.core.Rng`.

Each game of a batch owns one generator, a ``uint64`` entry of a state array, so
deals and random choices depend only on that game's seed and never on a global
generator or on the other games of the batch. ``below`` is Lemire's unbiased bounded
draw and ``shuffle`` the same Fisher-Yates as the reference, so a game dealt here
from a seed holds exactly the cards the reference engine deals from it (tested).

All arithmetic is on ``np.uint64`` on purpose: numba turns a mix of signed and
unsigned 64-bit integers into floats.
"""

from __future__ import annotations

import numpy as np

from .compiled import inline_kernel, kernel

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_ZERO = np.uint64(0)


@inline_kernel
def next64(states, index):
    """The next output of generator ``states[index]`` (advances it)."""
    z = states[index] + GOLDEN
    states[index] = z
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@inline_kernel
def _high(z, n):
    """The high 64 bits of the 128-bit product ``z * n`` for ``n < 2**32``."""
    return ((z >> _S32) * n + (((z & _LOW32) * n) >> _S32)) >> _S32


@inline_kernel
def below(states, index, bound):
    """Uniform integer in ``range(bound)`` (``0 < bound < 2**32``), as ``Rng.below``."""
    n = np.uint64(bound)
    z = next64(states, index)
    low = z * n
    if low < n:
        threshold = (_ZERO - n) % n
        while low < threshold:
            z = next64(states, index)
            low = z * n
    return np.int64(_high(z, n))


@kernel
def shuffle(items, length, states, index):
    """Fisher-Yates over ``items[:length]`` with generator ``states[index]``, as ``Rng.shuffle``."""
    for i in range(length - 1, 0, -1):
        j = below(states, index, i + 1)
        items[i], items[j] = items[j], items[i]

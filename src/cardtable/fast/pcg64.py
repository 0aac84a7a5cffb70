"""NumPy's ``PCG64`` generator and the ``Generator.integers`` draws the envs make, in
compiled code: the same numbers as ``np.random.Generator(np.random.PCG64(...))``.

The Gymnasium envs deal each game from their ``np_random`` (a ``Generator`` on
``PCG64``): ``integers(players)`` for a random seat, ``integers(2**63)`` for the bots'
seed and the deal's seed. The vector env on the batch engine makes these draws inside
its step kernel, so that an autoreset needs no call back into Python; it holds each
env's generator as one row of a ``uint64`` array (:data:`WIDTH` words) and converts
from and to NumPy's generator state (:func:`row_of`, :func:`generator_of`) exactly.

The algorithms are NumPy's own (``numpy/random/src/pcg64`` and
``distributions.c``): a 128-bit LCG stepped before each output, the XSL-RR output
function, 32-bit draws served from the two halves of one 64-bit output (the
``has_uint32`` buffer of the bit generator's state), and Lemire's bounded draw. All
arithmetic is on ``np.uint64`` because numba turns signed/unsigned mixes into floats.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from .compiled import inline_kernel

#: Words of a generator row: the 128-bit state and increment (high word first), the
#: buffered-half flag and the buffered half.
STATE_HI, STATE_LO, INC_HI, INC_LO, HAS_UINT32, UINTEGER = range(6)
WIDTH = 6

_MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645  # PCG_DEFAULT_MULTIPLIER_128
_MUL_HI = np.uint64(_MULTIPLIER >> 64)
_MUL_LO = np.uint64(_MULTIPLIER & (2**64 - 1))
_LOW32 = np.uint64(0xFFFFFFFF)
_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_S1 = np.uint64(1)
_S32 = np.uint64(32)
_S58 = np.uint64(58)
_S63 = np.uint64(63)
_MASK64 = 2**64 - 1


@inline_kernel
def _mul_high(a, b):
    """The high 64 bits of the 128-bit product of two uint64."""
    a_lo, a_hi = a & _LOW32, a >> _S32
    b_lo, b_hi = b & _LOW32, b >> _S32
    low = a_lo * b_lo
    mid1 = a_hi * b_lo
    mid2 = a_lo * b_hi
    carry = ((low >> _S32) + (mid1 & _LOW32) + (mid2 & _LOW32)) >> _S32
    return a_hi * b_hi + (mid1 >> _S32) + (mid2 >> _S32) + carry


@inline_kernel
def next64(rows, i):
    """The next 64-bit output of generator ``rows[i]`` (``bit_generator.random_raw()``)."""
    row = rows[i]
    hi, lo = row[STATE_HI], row[STATE_LO]
    # state = state * multiplier + increment (mod 2**128)
    new_hi = _mul_high(lo, _MUL_LO) + lo * _MUL_HI + hi * _MUL_LO
    product_lo = lo * _MUL_LO
    new_lo = product_lo + row[INC_LO]
    new_hi += row[INC_HI] + (_ONE if new_lo < product_lo else _ZERO)
    row[STATE_HI] = new_hi
    row[STATE_LO] = new_lo
    # XSL-RR: the xor of the halves, rotated right by the top six bits.
    x = new_hi ^ new_lo
    rotation = new_hi >> _S58
    return (x >> rotation) | (x << ((_ZERO - rotation) & _S63))


@inline_kernel
def next32(rows, i):
    """The next 32-bit output: the low half of a new 64-bit output, or the high half
    kept from the last one (PCG64's ``next_uint32``)."""
    row = rows[i]
    if row[HAS_UINT32]:
        row[HAS_UINT32] = _ZERO
        return row[UINTEGER]
    value = next64(rows, i)
    row[HAS_UINT32] = _ONE
    row[UINTEGER] = value >> _S32
    return value & _LOW32


@inline_kernel
def integers_small(rows, i, high):
    """``Generator.integers(high)`` for ``1 <= high <= 2**32 - 1``: Lemire's 32-bit
    bounded draw; ``high == 1`` draws nothing, as in NumPy."""
    bound = np.uint64(high)
    if bound == _ONE:
        return np.int64(0)
    product = next32(rows, i) * bound
    leftover = product & _LOW32
    if leftover < bound:
        threshold = ((_LOW32 - (bound - _ONE)) % bound) & _LOW32
        while leftover < threshold:
            product = next32(rows, i) * bound
            leftover = product & _LOW32
    return np.int64(product >> _S32)


@inline_kernel
def integers_2_63(rows, i):
    """``Generator.integers(2**63)``: Lemire's 64-bit draw with the bound ``2**63``
    keeps the high word of ``x * 2**63``, ``x >> 1``, and never rejects (its
    threshold, ``2**64 mod 2**63``, is 0)."""
    return np.int64(next64(rows, i) >> _S1)


def row_of(generator: np.random.Generator, out: NDArray[np.uint64]) -> None:
    """Write ``generator``'s state (a ``PCG64`` one) into the row ``out``."""
    state: Any = generator.bit_generator.state
    if state["bit_generator"] != "PCG64":
        raise TypeError(f"expected a PCG64 generator, got {state['bit_generator']}")
    inner = state["state"]
    out[STATE_HI] = inner["state"] >> 64
    out[STATE_LO] = inner["state"] & _MASK64
    out[INC_HI] = inner["inc"] >> 64
    out[INC_LO] = inner["inc"] & _MASK64
    out[HAS_UINT32] = state["has_uint32"]
    out[UINTEGER] = state["uinteger"]


def generator_of(row: NDArray[np.uint64]) -> np.random.Generator:
    """A new NumPy generator in the state of ``row`` (it continues the same stream)."""
    bit_generator = np.random.PCG64()
    bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {
            "state": int(row[STATE_HI]) << 64 | int(row[STATE_LO]),
            "inc": int(row[INC_HI]) << 64 | int(row[INC_LO]),
        },
        "has_uint32": int(row[HAS_UINT32]),
        "uinteger": int(row[UINTEGER]),
    }
    return np.random.Generator(bit_generator)

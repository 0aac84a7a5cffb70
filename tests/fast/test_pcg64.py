"""The compiled PCG64 draws are NumPy's: the same numbers, the same state after them."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils import seeding
from numba import njit

from cardtable.fast import pcg64
from cardtable.rl.gym_env import SEED_BOUND

#: The bounds drawn with: 0 stands for ``integers(2**63)``, the others for
#: ``integers(bound)`` (seats, and the 32-bit edge cases: no draw, rejection-heavy).
BOUNDS = [0, 1, 2, 3, 4, 5, 6, 8, 3_000_000_001, 2**32 - 1]


@njit(cache=False)
def _draws(rows, bounds, out):  # pragma: no cover - compiled
    for j in range(bounds.shape[0]):
        if bounds[j] == 0:
            out[j] = pcg64.integers_2_63(rows, 0)
        else:
            out[j] = pcg64.integers_small(rows, 0, bounds[j])


@pytest.mark.parametrize("seed", [None, 0, 1, 12345, 2**70 + 3])
def test_draws_and_state_equal_numpys_generator(seed) -> None:
    """Interleaved 64-bit and 32-bit draws (the 32-bit ones use both halves of a
    64-bit output) give NumPy's numbers and leave NumPy's state, and converting the
    state both ways keeps the stream."""
    assert SEED_BOUND == 2**63  # what integers_2_63 stands for
    generator = seeding.np_random(seed)[0]
    rows = np.zeros((1, pcg64.WIDTH), dtype=np.uint64)
    pcg64.row_of(generator, rows[0])
    bounds = np.random.default_rng(7).choice(BOUNDS, size=400).astype(np.int64)
    out = np.zeros(bounds.size, dtype=np.int64)
    _draws(rows, bounds, out)
    expected = [
        int(generator.integers(SEED_BOUND if bound == 0 else int(bound))) for bound in bounds
    ]
    assert out.tolist() == expected
    assert pcg64.generator_of(rows[0]).bit_generator.state == generator.bit_generator.state


def test_only_pcg64_generators_convert() -> None:
    rows = np.zeros(pcg64.WIDTH, dtype=np.uint64)
    with pytest.raises(TypeError, match="PCG64"):
        pcg64.row_of(np.random.Generator(np.random.MT19937(0)), rows)
    assert not rows.any()

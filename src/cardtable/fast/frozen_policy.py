"""A learned policy's network evaluated inside the kernels: the ``frozen`` opponent of
the vector envs (an earlier policy of the learner, for self-play leagues).

The network is the one of :mod:`cardtable.bots.learned_net`: the observation
normalized by ``(obs - mean) * inv_std``, hidden layers with ``tanh``, a linear policy
head; the opponent plays the legal move with the highest logit (the lowest code among
equal ones), as ``LearnedBot`` does. Its arrays are packed (:func:`pack`) into one row
per policy of a float64 array ``params`` (``mean``, ``inv_std``, then each layer's
weight, ``(inputs, outputs)`` row by row, and bias) with the layer widths ``sizes``; a
pool of several policies of the same shape is several rows. float64 as numpy computes
``LearnedBot``'s logits, so that its moves are the kernel's: float32 loops measured
only 8% faster (11.0 against 12.0 µs for a 191-256-256-38 network, one core).

The kernels take the tuple :func:`frozen_arrays` returns, or None when no seat plays
a frozen policy: numba then prunes the branch and those kernels compile as before.
New weights of the same shape are copied into ``params`` in place (:func:`refill`),
so a trainer refreshes its league without a compile.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .compiled import inline_kernel

#: ``(weight, bias)`` per layer, input first, weight ``(inputs, outputs)``.
Layers = Sequence[tuple[NDArray[Any], NDArray[Any]]]


def layer_sizes(mean: NDArray[Any], layers: Layers) -> NDArray[np.int64]:
    """The widths of the network's layers: the observation's, then each layer's output."""
    return np.array([mean.shape[0], *(bias.shape[0] for _, bias in layers)], dtype=np.int64)


def pack(mean: NDArray[Any], inv_std: NDArray[Any], layers: Layers) -> NDArray[np.float64]:
    """One policy's arrays as one row (the layout of the module)."""
    parts = [np.asarray(mean).ravel(), np.asarray(inv_std).ravel()]
    for weight, bias in layers:
        parts += [np.asarray(weight).ravel(), np.asarray(bias).ravel()]
    return np.concatenate(parts).astype(np.float64)


def frozen_arrays(rows: Sequence[NDArray[np.float64]], sizes: NDArray[np.int64]) -> tuple[Any, ...]:
    """What the kernels take: the policies' rows, the layer widths, room for an
    observation (float32, as the envs encode it) and two layers' activations."""
    params = np.ascontiguousarray(np.stack(rows))
    observation = np.zeros(int(sizes[0]), dtype=np.float32)
    hidden = np.zeros((2, int(sizes.max())), dtype=np.float64)
    return (params, sizes, observation, hidden)


def refill(arrays: tuple[Any, ...], rows: Sequence[NDArray[np.float64]]) -> None:
    """Copy new policies of the same shape into ``arrays`` (no new array: the compiled
    kernels keep running on the same ones)."""
    params = arrays[0]
    params[...] = np.stack(rows)


@inline_kernel
def evaluate(frozen, row):
    """Policy ``row``'s logits for the observation in ``frozen``'s observation array
    (written by the caller): which row of the activations array holds them (a kernel
    without reference counting cannot return a view).

    The weights are read through slices indexed by the loops' own counters: an index
    such as ``p[base + j]`` makes numba check it for a negative value, which keeps LLVM
    from vectorizing the loop (four times slower, measured)."""
    params, sizes, observation, hidden = frozen
    p = params[row]
    width = sizes[0]
    x = hidden[0]
    mean, inv_std = p[:width], p[width : 2 * width]
    for i in range(width):
        x[i] = (observation[i] - mean[i]) * inv_std[i]
    at = 2 * width
    source = 0
    last = sizes.shape[0] - 2
    for layer in range(last + 1):
        inputs, outputs = sizes[layer], sizes[layer + 1]
        x = hidden[source]
        y = hidden[1 - source][:outputs]
        y[:] = 0.0
        for i in range(inputs):
            xi = x[i]
            weights = p[at + i * outputs : at + (i + 1) * outputs]
            for j in range(outputs):
                y[j] += xi * weights[j]
        at += inputs * outputs
        bias = p[at : at + outputs]
        for j in range(outputs):
            y[j] += bias[j]
            if layer < last:
                y[j] = np.tanh(y[j])
        at += outputs
        source = 1 - source
    return source


@inline_kernel
def better(value, code, best_value, best):
    """Whether ``code`` with logit ``value`` beats the best so far (-1: none yet): a
    higher logit, or the same and a lower code (``LearnedBot``'s tie-break)."""
    return best < 0 or value > best_value or (value == best_value and code < best)

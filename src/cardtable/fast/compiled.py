"""The two ways the batch engines compile a kernel.

Both cache the machine code (numba writes it beside the module in ``__pycache__``,
or in its user-wide cache directory when that is not writable; ``NUMBA_CACHE_DIR``
chooses another place) and run without numba's reference counting (``_nrt=False``):
passing the state's arrays from kernel to kernel would otherwise cost two atomic
operations per array and call, most of a move's time, so no kernel allocates an
array. ``inline_kernel`` is for the kernels of every move: numba inlines them into
the loops that call them, because a kernel loaded from the cache can no longer be
inlined by LLVM, and a call passing a state's arrays costs more than the move itself.
"""

from __future__ import annotations

from typing import Any

from numba import njit

_njit: Any = njit  # numba's stubs do not list the (stable) ``_nrt`` option

kernel: Any = _njit(cache=True, _nrt=False)
inline_kernel: Any = _njit(cache=True, _nrt=False, inline="always")

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

import hashlib
import os
from pathlib import Path
from typing import Any

from numba import njit

_njit: Any = njit  # numba's stubs do not list the (stable) ``_nrt`` option
_HERE = Path(__file__).resolve().parent
_STAMP = "cardtable-fast-sources.sha256"


def _drop_stale_cache(folder: Path = _HERE) -> bool:
    """Delete numba's cached kernels beside these modules when any of their sources
    changed since they were cached; whether it deleted them.

    numba checks a cached kernel against its own module's file only, but a kernel
    inlines kernels of the other modules here: after an edit of ``rng.py``, say, the
    cached loops of ``skyjo_kernels.py`` would still run the old code. So the cache is
    kept only together with a hash of every source of this package.
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return False  # a cache elsewhere is the caller's to manage
    digest = hashlib.sha256()
    for source in sorted(folder.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    cache = folder / "__pycache__"
    stamp = cache / _STAMP
    try:
        if stamp.read_text() == digest.hexdigest():
            return False
    except OSError:
        pass
    dropped = False
    try:
        cache.mkdir(exist_ok=True)
        for cached in [*cache.glob("*.nbi"), *cache.glob("*.nbc")]:
            cached.unlink(missing_ok=True)
            dropped = True
        stamp.write_text(digest.hexdigest())
    except OSError:
        return False  # not writable: numba uses its user-wide cache, kept per install
    return dropped


_drop_stale_cache()

kernel: Any = _njit(cache=True, _nrt=False)
inline_kernel: Any = _njit(cache=True, _nrt=False, inline="always")

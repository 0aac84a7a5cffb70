"""How the batch engines compile a kernel, where the machine code is cached, and the
notice printed while a first compile runs.

Every kernel runs without numba's reference counting (``_nrt=False``): passing the
state's arrays from kernel to kernel would otherwise cost two atomic operations per
array and call, most of a move's time, so no kernel allocates an array.

``inline_kernel`` is for the kernels of a move and the helpers of the loops: each is
typed and compiled by numba once (per argument types) and marked ``alwaysinline`` for
LLVM (numba's ``forceinline``), which inlines its machine-level code into every loop
that calls it, as a call passing a state's twenty arrays costs more than the move
itself. Until 2026-12-07 they were inlined by numba itself (``inline="always"``),
which types and lowers the whole body again at every call site: the same machine code,
ten times the compile time (docs/performance.md, "First use").

The cache is keyed by the package's sources: numba checks a cached kernel against its
own module's file only, but a loop carries the code of kernels of other modules (and
constants of ``skipbo.moves`` and ``skyjo.cards``), so after an edit of ``rng.py``,
say, a cached loop of ``skyjo_kernels.py`` would still run the old code. Every kernel
is therefore cached in a folder named by a hash of all those sources and of the
numba and Python versions (:func:`cache_folder`), the first writable of:

1. ``$NUMBA_CACHE_DIR/cardtable-fast-HASH`` when that variable is set;
2. ``cardtable/fast/__pycache__/kernels-HASH`` beside these modules;
3. ``cardtable/fast-HASH`` in the user's cache folder (``~/.cache`` on Linux), for a
   package folder that cannot be written.

Folders of other hashes are deleted when a new one is made (in the user's cache
folder only those unused for :data:`STALE_DAYS` days, as other installs may share it).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.metadata
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, TextIO

import numba
from numba.core import event
from numba.core.caching import CompileResultCacheImpl, FunctionCache, _CacheLocator
from numba.core.registry import CPUDispatcher
from numba.misc.appdirs import AppDirs

_AppDirs: Any = AppDirs  # untyped
_HERE = Path(__file__).resolve().parent
#: Sources outside this package whose constants the kernels compile in.
_CONSTANT_SOURCES = (_HERE.parent / "skipbo" / "moves.py", _HERE.parent / "skyjo" / "cards.py")
#: A folder of another hash in the user's cache unused this long is deleted.
STALE_DAYS = 30


def sources_hash(folder: Path = _HERE) -> str:
    """A hash of everything compiled into the kernels: this package's sources, the
    constants' sources, and the numba, llvmlite and Python versions."""
    digest = hashlib.sha256()
    for source in [*sorted(folder.glob("*.py")), *_CONSTANT_SOURCES]:
        digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    llvmlite = importlib.metadata.version("llvmlite")
    versions = f"numba {numba.__version__} llvmlite {llvmlite} {sys.version}"
    digest.update(versions.encode())
    return digest.hexdigest()[:16]


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def user_cache_root() -> Path:
    """The user's cache folder for cardtable (``$XDG_CACHE_HOME/cardtable`` on Linux)."""
    return Path(_AppDirs(appname="cardtable", appauthor=False).user_cache_dir)


def _prune(parent: Path, prefix: str, keep: Path, max_age_days: float | None) -> None:
    """Delete the folders of other hashes beside ``keep`` (those unused for
    ``max_age_days``, when given). A process still running older sources loses its
    folder: it keeps the kernels it loaded, and numba makes the folder again to cache
    new ones (:meth:`_KeyedCache.save_overload`)."""
    now = time.time()
    for other in parent.glob(prefix + "*"):
        if other == keep or not other.is_dir():
            continue
        if max_age_days is not None and now - other.stat().st_mtime < max_age_days * 86400:
            continue
        shutil.rmtree(other, ignore_errors=True)


def _drop_unkeyed(folder: Path) -> None:
    """Delete kernels cached directly in ``__pycache__`` by versions before the keyed
    folders, which numba would otherwise load without noticing an edit elsewhere."""
    for cached in [*folder.glob("*.nbi"), *folder.glob("*.nbc")]:
        cached.unlink(missing_ok=True)
    (folder / "cardtable-fast-sources.sha256").unlink(missing_ok=True)


def choose_cache_folder(
    key: str, in_tree: Path, user_root: Path, chosen: str | None
) -> Path | None:
    """The first writable of ``chosen/cardtable-fast-KEY`` (``$NUMBA_CACHE_DIR``),
    ``in_tree/kernels-KEY`` and ``user_root/fast-KEY``, made; the folders of other
    keys beside it pruned (see the module). None when none can be written."""
    if chosen:
        folder = Path(chosen) / f"cardtable-fast-{key}"
        if _writable(folder):
            return folder
    folder = in_tree / f"kernels-{key}"
    if _writable(folder):
        _drop_unkeyed(in_tree)
        _prune(in_tree, "kernels-", folder, None)
        return folder
    folder = user_root / f"fast-{key}"
    if _writable(folder):
        _prune(user_root, "fast-", folder, STALE_DAYS)
        return folder
    return None


@functools.cache
def cache_folder() -> Path | None:
    """Where this process caches the kernels (:func:`choose_cache_folder`)."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    return choose_cache_folder(sources_hash(), _HERE / "__pycache__", user_cache_root(), chosen)


class _KeyedLocator(_CacheLocator):
    """numba's cache locator for a kernel of this package: the folder of
    :func:`cache_folder`, fresh as long as the sources' hash (its name) is."""

    def __init__(self, py_func: Any, folder: Path) -> None:
        self._lineno = py_func.__code__.co_firstlineno
        self._folder = folder

    def get_cache_path(self) -> str:
        return str(self._folder)

    def get_source_stamp(self) -> str:
        return self._folder.name  # the hash: a checkout's new file times change nothing

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> _KeyedLocator | None:
        folder = cache_folder()
        return None if folder is None else cls(py_func, folder)


class _KeyedCacheImpl(CompileResultCacheImpl):
    _locator_classes = [_KeyedLocator]  # noqa: RUF012  (numba's own attribute)


class _KeyedCache(FunctionCache):
    _impl_class = _KeyedCacheImpl

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        """The cached kernel, or None (compile it) when the folder cannot be read."""
        try:
            return super().load_overload(sig, target_context)  # type: ignore[no-untyped-call]
        except OSError:
            return None

    def save_overload(self, sig: Any, data: Any) -> None:
        """Cache the kernel. numba makes the folder again if it went away (another
        process with other sources pruned it); if even that fails, the kernel stays
        uncached rather than fail the compile that made it."""
        with contextlib.suppress(OSError):
            super().save_overload(sig, data)  # type: ignore[no-untyped-call]


class _KeyedDispatcher(CPUDispatcher):
    """numba's CPU dispatcher, caching in :func:`cache_folder` rather than numba's
    folders (what ``cache=True`` asks of the dispatcher it makes)."""

    def enable_caching(self) -> None:
        self._cache = _KeyedCache(self.py_func)  # type: ignore[no-untyped-call]


def _compiled(**options: Any) -> Any:
    """A decorator compiling in nopython mode with ``options``, without reference
    counting, cached in :func:`cache_folder` (numba's ``njit`` with our dispatcher)."""

    def decorate(function: Any) -> Any:
        if getattr(numba.config, "DISABLE_JIT", False):  # NUMBA_DISABLE_JIT: plain Python
            return function
        targetoptions = {"nopython": True, "_nrt": False, **options}
        dispatcher = _KeyedDispatcher(py_func=function, locals={}, targetoptions=targetoptions)
        if cache_folder() is not None:
            dispatcher.enable_caching()
        return dispatcher

    return decorate


#: A kernel called from Python or by a loop as a function (its own machine code).
kernel: Any = _compiled(forceinline=False)
#: A kernel of a move or a loop's helper: LLVM inlines it where it is called.
inline_kernel: Any = _compiled(forceinline=True)


class CompileNotice(event.Listener):
    """Says on standard error, once per process, that the kernels are being compiled,
    that this happens once and where they are cached; while they compile, a progress
    line (rewritten in place on a terminal, a line per kernel otherwise). numba sends
    a compile event only for a kernel it did not find in the cache, so a process that
    loads every kernel from the cache prints nothing."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream
        self.announced = False
        self.depth = 0
        self.compiled = 0
        self.started = 0.0
        self.line_open = False

    def _out(self) -> TextIO:
        return self.stream if self.stream is not None else sys.stderr

    @staticmethod
    def _ours(ev: event.Event) -> str | None:
        function = ev.data["dispatcher"].py_func
        module = function.__module__ or ""
        if not module.startswith(__package__ + "."):
            return None
        return f"{module.rsplit('.', 1)[-1]}.{function.__qualname__}"

    def on_start(self, ev: event.Event) -> None:
        name = self._ours(ev)
        if name is None:
            return
        out = self._out()
        if not self.announced:
            self.announced = True
            folder = cache_folder()
            where = f"cached in {folder}" if folder else "no writable cache folder: not cached"
            print(
                "cardtable: compiling the fast engine's kernels for this machine (once; "
                f"{where}; `cardtable fast warm` compiles them all ahead)",
                file=out,
                flush=True,
            )
        if self.depth == 0:
            self.started = time.perf_counter()
        self.depth += 1
        self.compiled += 1
        elapsed = time.perf_counter() - self.started
        status = f"cardtable: compiling {name} ({self.compiled} kernels, {elapsed:.0f} s)"
        if out.isatty():
            print("\r\033[K" + status, end="", file=out, flush=True)
            self.line_open = True

    def on_end(self, ev: event.Event) -> None:
        name = self._ours(ev)
        if name is None:
            return
        self.depth -= 1
        out = self._out()
        if self.depth == 0:
            elapsed = time.perf_counter() - self.started
            kernels = f"{self.compiled} kernels so far"
            status = f"cardtable: compiled {name} in {elapsed:.1f} s ({kernels})"
            if self.line_open:
                print("\r\033[K" + status, file=out, flush=True)
                self.line_open = False
            else:
                print(status, file=out, flush=True)


NOTICE = CompileNotice()
if os.environ.get("CARDTABLE_COMPILE_NOTICE", "1") != "0":
    event.register("numba:compile", NOTICE)  # type: ignore[no-untyped-call]

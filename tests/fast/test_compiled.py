"""Where the kernels are cached, that the cache follows every source they are compiled
from, and the notice of a first compile."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from cardtable.fast import compiled
from cardtable.fast.compiled import CompileNotice, choose_cache_folder, sources_hash

SRC = Path(compiled.__file__).resolve().parents[2]
NOTICE = "cardtable: compiling the fast engine's kernels"
#: Two small kernels of two modules, each compiled on first call.
PROGRAM = """
import numpy as np
from cardtable.fast import rng, skyjo_kernels
from cardtable.fast.compiled import cache_folder
items = np.arange(10, dtype=np.int64)
rng.shuffle(items, 10, np.array([1], dtype=np.uint64), 0)
print(skyjo_kernels.popcount(np.int64(7)))
print(cache_folder())
"""


def run_program(
    env: dict[str, str], pythonpath: Path = SRC, prefix: tuple[str, ...] = ()
) -> tuple[str, str]:
    child_env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH")}
    child_env.update(env, PYTHONPATH=str(pythonpath))
    done = subprocess.run(
        [*prefix, sys.executable, "-c", PROGRAM],
        env=child_env,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return done.stdout, done.stderr


def test_the_notice_of_a_first_compile_is_printed_once_and_never_from_a_warm_cache(
    tmp_path: Path,
) -> None:
    env = {"NUMBA_CACHE_DIR": str(tmp_path)}
    out, err = run_program(env)
    assert out.splitlines()[0] == "3"
    assert err.count(NOTICE) == 1, err  # two kernels compiled, one notice
    assert "once;" in err and f"cached in {tmp_path}" in err
    assert "cardtable: compiled rng.shuffle in" in err  # the progress line, one per kernel
    folder = Path(out.splitlines()[1])
    assert folder.parent == tmp_path and folder.name.startswith("cardtable-fast-")
    assert sorted(folder.glob("rng.shuffle-*.nbi")) and sorted(
        folder.glob("skyjo_kernels.popcount-*.nbc")
    )
    out, err = run_program(env)
    assert out.splitlines()[0] == "3"
    assert "cardtable: compil" not in err  # every kernel loaded from the cache


def _read_only_tree(root: Path) -> None:
    for path in [root, *root.rglob("*")]:
        mode = 0o555 if path.is_dir() else 0o444
        path.chmod(mode)


def test_a_read_only_package_folder_caches_in_the_user_cache_folder(tmp_path: Path) -> None:
    package = tmp_path / "site" / "cardtable"
    shutil.copytree(SRC / "cardtable", package, ignore=shutil.ignore_patterns("__pycache__"))
    _read_only_tree(package / "fast")
    prefix: tuple[str, ...] = ()
    if os.geteuid() == 0:
        # root writes anywhere; without the capability to override file permissions it
        # meets the read-only folder as any user would.
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv (util-linux) to drop CAP_DAC_OVERRIDE")
        prefix = (setpriv, "--bounding-set=-dac_override,-dac_read_search")
    cache_home = tmp_path / "cache"
    env = {"XDG_CACHE_HOME": str(cache_home)}
    try:
        out, err = run_program(env, tmp_path / "site", prefix)
        folder = Path(out.splitlines()[1])
        assert folder.parent == cache_home / "cardtable" and folder.name.startswith("fast-")
        assert f"cached in {folder}" in err
        assert sorted(folder.glob("rng.shuffle-*.nbc"))
        assert not (package / "fast" / "__pycache__").exists()
        out, err = run_program(env, tmp_path / "site", prefix)
        assert "cardtable: compil" not in err  # loaded from the user cache folder
    finally:
        for path in [package, *package.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)


def test_the_hash_follows_every_source_compiled_into_the_kernels(tmp_path: Path) -> None:
    (tmp_path / "rng.py").write_text("x = 1\n")
    (tmp_path / "kernels.py").write_text("y = 2\n")
    first = sources_hash(tmp_path)
    assert sources_hash(tmp_path) == first
    (tmp_path / "rng.py").write_text("x = 3\n")  # another module's edit
    second = sources_hash(tmp_path)
    assert second != first
    (tmp_path / "notes.txt").write_text("not a source")
    assert sources_hash(tmp_path) == second
    assert compiled._HERE.parent / "skipbo" / "moves.py" in compiled._CONSTANT_SOURCES


def test_the_folder_is_the_first_writable_and_other_keys_are_pruned(tmp_path: Path) -> None:
    in_tree, user = tmp_path / "__pycache__", tmp_path / "user"
    in_tree.mkdir()
    (in_tree / "skyjo_kernels.deal-102.py311.nbi").write_text("unkeyed, from before")
    (in_tree / "skyjo_kernels.cpython-311.pyc").write_text("bytecode")
    (in_tree / "kernels-old").mkdir()
    chosen = choose_cache_folder("new", in_tree, user, str(tmp_path / "numba"))
    assert chosen == tmp_path / "numba" / "cardtable-fast-new"
    assert (in_tree / "kernels-old").exists()  # a folder given by the user: nothing pruned
    assert choose_cache_folder("new", in_tree, user, None) == in_tree / "kernels-new"
    assert sorted(p.name for p in in_tree.iterdir()) == [
        "kernels-new",
        "skyjo_kernels.cpython-311.pyc",
    ]
    # The package folder cannot be written (a file stands where the folder would be).
    blocked = tmp_path / "blocked"
    blocked.write_text("")
    user.mkdir()
    (user / "fast-recent").mkdir()
    (user / "fast-stale").mkdir()
    long_ago = time.time() - (compiled.STALE_DAYS + 1) * 86400
    os.utime(user / "fast-stale", (long_ago, long_ago))
    assert choose_cache_folder("new", blocked, user, None) == user / "fast-new"
    # Another install may still use a recent folder of another key.
    assert sorted(p.name for p in user.iterdir()) == ["fast-new", "fast-recent"]
    assert choose_cache_folder("new", blocked, blocked, None) is None


def _event(module: str, name: str) -> SimpleNamespace:
    function = SimpleNamespace(__module__=module, __qualname__=name)
    return SimpleNamespace(data={"dispatcher": SimpleNamespace(py_func=function)})


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_line_is_rewritten_in_place_on_a_terminal() -> None:
    stream = _Terminal()
    notice = CompileNotice(stream)
    outer = _event("cardtable.fast.skyjo_env", "step_envs")
    inner = _event("cardtable.fast.skyjo_kernels", "apply")
    foreign = _event("numba.cpython.builtins", "impl")
    notice.on_start(outer)
    notice.on_start(inner)
    notice.on_start(foreign)
    notice.on_end(foreign)
    notice.on_end(inner)
    notice.on_end(outer)
    text = stream.getvalue()
    assert text.count(NOTICE) == 1
    assert "\r\033[Kcardtable: compiling skyjo_kernels.apply (2 kernels" in text
    assert text.endswith("(2 kernels so far)\n")
    assert text.count("\n") == 2  # the notice, then the finished line
    assert "builtins" not in text


def test_off_a_terminal_each_finished_kernel_gets_a_line() -> None:
    stream = io.StringIO()
    notice = CompileNotice(stream)
    for name in ("new_games", "step_games"):
        event = _event("cardtable.fast.skyjo_kernels", name)
        notice.on_start(event)
        notice.on_end(event)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 3 and lines[0].startswith(NOTICE)
    assert lines[1].startswith("cardtable: compiled skyjo_kernels.new_games in")
    assert lines[2].endswith("(2 kernels so far)")
    assert "\r" not in stream.getvalue()


def test_a_kernel_that_cannot_be_cached_still_runs(tmp_path: Path) -> None:
    # The folder went away mid-run (another process with other sources pruned it) and
    # cannot be made again: a file stands in its place.
    program = """
import shutil
import numpy as np
from cardtable.fast import rng, skyjo_kernels
from cardtable.fast.compiled import cache_folder
rng.shuffle(np.arange(10, dtype=np.int64), 10, np.array([1], dtype=np.uint64), 0)
shutil.rmtree(cache_folder())
cache_folder().write_text("")
print(skyjo_kernels.popcount(np.int64(7)), cache_folder())
"""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(NUMBA_CACHE_DIR=str(tmp_path), PYTHONPATH=str(SRC))
    done = subprocess.run(
        [sys.executable, "-c", program],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    count, folder = done.stdout.split()
    assert count == "3" and Path(folder).is_file()

"""numba's cache of the kernels is dropped whenever any kernel source changes."""

from __future__ import annotations

from cardtable.fast.compiled import _drop_stale_cache


def test_the_cache_is_kept_only_with_the_sources_it_was_built_from(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    (tmp_path / "rng.py").write_text("x = 1\n")
    (tmp_path / "kernels.py").write_text("y = 2\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    (cache / "kernels.loop-1.py311.nbi").write_text("index")
    (cache / "kernels.loop-1.py311.1.nbc").write_text("code")
    (cache / "kernels.cpython-311.pyc").write_text("bytecode")
    assert _drop_stale_cache(tmp_path)  # no stamp yet: nothing is trusted
    assert sorted(p.name for p in cache.iterdir()) == [
        "cardtable-fast-sources.sha256",
        "kernels.cpython-311.pyc",
    ]
    (cache / "kernels.loop-1.py311.nbi").write_text("index")  # compiled again
    assert not _drop_stale_cache(tmp_path)  # same sources: kept
    assert (cache / "kernels.loop-1.py311.nbi").exists()
    (tmp_path / "rng.py").write_text("x = 3\n")  # another module's edit
    assert _drop_stale_cache(tmp_path)
    assert not (cache / "kernels.loop-1.py311.nbi").exists()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "elsewhere"))
    (tmp_path / "rng.py").write_text("x = 4\n")
    assert not _drop_stale_cache(tmp_path)

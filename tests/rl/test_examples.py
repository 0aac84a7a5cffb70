"""The vector-env example runs (briefly) and finishes episodes, some of them truncated."""

from __future__ import annotations

import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "vector_rollout.py"


def test_vector_rollout_example_runs(capsys) -> None:
    spec = importlib.util.spec_from_file_location("vector_rollout", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    report = module.main(["--envs", "4", "--steps", "800", "--max-steps", "30", "--seed", "1"])
    assert report["episodes"] > 0 and report["truncated"] > 0
    assert "episodes" in capsys.readouterr().out


def test_maskable_ppo_example_trains_briefly_on_the_unwrapped_env(capsys) -> None:
    """Where sb3-contrib is installed (it is not a dependency): a few hundred steps."""
    import pytest

    pytest.importorskip("sb3_contrib")
    path = EXAMPLE.parent / "train_skyjo_maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("train_skyjo_maskable_ppo", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    report = module.main(["--steps", "256", "--eval", "4"])
    assert 0.0 <= report["win_rate_trained"] <= 1.0 and report["steps"] == 256

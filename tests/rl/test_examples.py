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

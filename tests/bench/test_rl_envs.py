"""`cardtable bench GAME --rl`: the RL environments' steps per second."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from cardtable.cli import main

from ..test_cli import run


def test_bench_command_reports_steps_per_second(capsys, tmp_path) -> None:
    path = tmp_path / "rl.json"
    code = main(["bench", "skyjo", "--rl", "--seconds", "0.3", "--envs", "2", "--json", str(path)])
    assert code == 0
    out = capsys.readouterr().out
    assert "aec" in out and "gym x2" in out
    assert "sync x2" in out
    assert path.read_text().count("steps_per_second") == 4


def test_rl_bench_with_the_fast_engine_adds_its_vector_env(capsys) -> None:
    pytest.importorskip("numba")
    code, out, err = run(
        capsys, "bench", "skyjo", "--rl", "--engine", "fast", "--seconds", "0.6",
        "--envs", "3", "--json",
    )  # fmt: skip
    assert code == 0, err
    figures = {row["name"]: row for row in json.loads(out)["rl"]}
    assert set(figures) == {"aec", "gym", "gym x3", "sync x3", "fast x3"}
    assert figures["fast x3"]["steps"] > 0 and figures["fast x3"]["engine_moves"] > 0
    code, out, err = run(
        capsys, "bench", "skipbo", "--rl", "--engine", "fast", "--seconds", "0.6", "--envs", "2",
        "--json",
    )  # fmt: skip
    assert code == 0, err
    figures = {row["name"]: row for row in json.loads(out)["rl"]}
    assert figures["fast x2"]["steps"] > 0 and figures["fast x2"]["engine_moves"] > 0

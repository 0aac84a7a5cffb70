"""`cardtable bench --engine fast|reference` and its one-object JSON output."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba")

from cardtable.bench.fast_engine import run_fast_bench
from cardtable.skipbo import SkipBoRules
from cardtable.skyjo import SkyjoRules

from ..test_cli import run


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_bench_json_alone_prints_one_object(capsys, engine: str) -> None:
    code, out, err = run(
        capsys, "bench", "skyjo", "--engine", engine, "--games", "40", "--players", "3", "--json"
    )
    assert code == 0, err
    figures = json.loads(out)  # the whole output is one JSON object
    assert figures["engine"] == engine
    assert figures["moves_per_s"] > 0 and figures["games_per_s"] > 0
    assert figures["moves_per_cpu_s"] > 0
    assert figures["rules"]["players"] == 3
    headline = next(row for row in figures["rows"] if row["name"] == figures["headline"])
    assert headline["games"] == 40


def test_fast_bench_plays_the_same_games_every_run() -> None:
    """Exactly ``games`` games in batches, dealt from seeds 0, 1, ...: the same moves."""
    one = run_fast_bench("skyjo", SkyjoRules(players=2), games=50, batch=16)
    two = run_fast_bench("skyjo", SkyjoRules(players=2), games=50, batch=7)
    assert one.rows[0].games == two.rows[0].games == 50
    assert one.rows[0].count == two.rows[0].count > 50 * 20
    assert one.rows[0].name == "random, batch of 16"


def test_fast_bench_times_every_compiled_bot_after_random_play() -> None:
    """A row per compiled bot, its games those of the tournament seeded 0 (so the same
    moves every run, whatever the batch); the headline stays random play."""
    one = run_fast_bench("skyjo", SkyjoRules(players=3), games=12, batch=12)
    two = run_fast_bench("skyjo", SkyjoRules(players=3), games=12, batch=5)
    assert [row.name for row in one.rows] == [
        "random, batch of 12",
        "greedy, tournament, batch of 12",
        "hard, tournament, batch of 12",
    ]
    for mine, theirs in zip(one.rows[1:], two.rows[1:], strict=True):
        assert mine.games == theirs.games == 12
        assert mine.count == theirs.count > 12 * 50
    skipbo = run_fast_bench("skipbo", SkipBoRules(players=2, stock_size=5), games=4)
    assert [row.name for row in skipbo.rows] == [
        "random, batch of 4",
        "greedy, tournament, batch of 4",
        "hard, tournament, batch of 4",
    ]


def test_fast_bench_table_and_file(capsys, tmp_path) -> None:
    path = tmp_path / "fast.json"
    code, out, err = run(
        capsys, "bench", "skyjo", "--engine", "fast", "--seconds", "0.2", "--json", str(path)
    )
    assert code == 0, err
    assert "compiled batch engine" in out and "random," in out
    figures = json.loads(path.read_text())
    assert figures["moves_per_s"] > 0 and figures["headline"] == "random, batch of 256"


def test_fast_bench_of_skipbo_plays_the_reference_games(capsys) -> None:
    """Skip-Bo's batch engine: the same games every run, and the JSON object of
    ``--engine fast`` for it."""
    one = run_fast_bench("skipbo", SkipBoRules(players=3), games=30, batch=8)
    two = run_fast_bench("skipbo", SkipBoRules(players=3), games=30, batch=30)
    assert one.rows[0].count == two.rows[0].count > 30 * 50
    code, out, err = run(
        capsys, "bench", "skipbo", "--engine", "fast", "--games", "20", "--teams",
        "--players", "4", "--json",
    )  # fmt: skip
    assert code == 0, err
    figures = json.loads(out)
    assert figures["engine"] == "fast" and figures["rules"]["teams"] is True
    assert figures["moves_per_s"] > 0 and figures["games_per_s"] > 0

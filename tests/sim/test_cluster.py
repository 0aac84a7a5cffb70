"""Tournaments and ladders on a local Dask cluster of two worker processes."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("distributed")

from distributed import LocalCluster

from cardtable.cli import main
from cardtable.sim.ladder import run_ladder
from cardtable.sim.tournament import run_tournament
from cardtable.skipbo import GAME as SKIPBO
from cardtable.skipbo import SkipBoRules
from cardtable.skyjo import GAME as SKYJO
from cardtable.skyjo import SkyjoRules


@pytest.fixture(scope="module")
def cluster_address():
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        yield cluster.scheduler_address


def test_a_tournament_on_the_cluster_equals_the_one_core_tournament(cluster_address) -> None:
    for game, rules, bots in (
        (SKYJO, SkyjoRules(players=3), ["greedy", "random"]),
        (SKIPBO, SkipBoRules(players=2, stock_size=5), ["greedy", "random"]),
    ):
        local = run_tournament(game, rules, bots, 24, 9, paired=True)
        counted: list[int] = []
        spread = run_tournament(
            game, rules, bots, 24, 9, paired=True, cluster=cluster_address,
            progress=counted.append,
        )  # fmt: skip
        assert spread.records == local.records
        assert spread.to_json() == local.to_json()
        assert counted and counted[-1] == 24 and counted == sorted(counted)


def test_a_ladder_and_the_sim_command_on_the_cluster(cluster_address, capsys, tmp_path) -> None:
    rules = SkyjoRules(players=2)
    local = run_ladder(SKYJO, rules, ["greedy", "random", "naive"], 8, 3)
    spread = run_ladder(SKYJO, rules, ["greedy", "random", "naive"], 8, 3, cluster=cluster_address)
    assert spread.to_json() == local.to_json()
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    base = ["sim", "skyjo", "--bots", "greedy,random", "--games", "12", "--players", "2"]
    assert main([*base, "--json", str(one)]) == 0
    assert main([*base, "--cluster", cluster_address, "--json", str(two)]) == 0
    capsys.readouterr()
    assert json.loads(one.read_text()) == json.loads(two.read_text())

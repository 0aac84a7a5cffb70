"""`cardtable ladder --engine fast`: the reference ladder's pairs, ratings and table, from
the compiled batch engine (its tournaments play the reference's games, record for record)."""

from __future__ import annotations

import json

import pytest

from cardtable.cli import main
from cardtable.sim.ladder import run_ladder
from cardtable.skipbo import GAME as SKIPBO
from cardtable.skipbo import SkipBoRules
from cardtable.skyjo import GAME as SKYJO
from cardtable.skyjo import SkyjoRules


@pytest.mark.parametrize(
    ("game", "rules", "games", "names"),
    [
        (SKYJO, SkyjoRules(players=2), 24, ["greedy", "random"]),
        (SKYJO, SkyjoRules(players=3), 12, ["greedy", "random"]),
        (SKYJO, SkyjoRules(players=2), 12, ["hard", "greedy", "random"]),
        (SKIPBO, SkipBoRules(stock_size=10), 24, ["greedy", "random"]),
        (SKIPBO, SkipBoRules(players=4, teams=True, stock_size=8), 8, ["greedy", "random"]),
        (SKIPBO, SkipBoRules(stock_size=5), 8, ["hard", "greedy", "random"]),
    ],
    ids=["skyjo-2p", "skyjo-3p", "skyjo-2p-hard", "skipbo-2p", "skipbo-4p-teams", "skipbo-2p-hard"],
)
def test_fast_ladder_equals_the_reference_ladder(game, rules, games, names) -> None:
    fast = run_ladder(game, rules, names, games, 5, engine="fast")
    reference = run_ladder(game, rules, names, games, 5)
    assert fast == reference
    # Not a tie by luck: the pair's wins are those of real games.
    assert sum(fast.pairs[0][2:]) > 0


def test_fast_ladder_progress_counts_every_pair() -> None:
    seen: list[int] = []
    run_ladder(SKYJO, SkyjoRules(), ["random", "greedy"], 8, 1, engine="fast", progress=seen.append)
    assert seen[-1] == 8


def test_fast_ladder_refuses_an_unsupported_bot_before_any_game() -> None:
    seen: list[int] = []
    with pytest.raises(ValueError, match="plays the bots random, greedy, hard only, not expert"):
        run_ladder(
            SKYJO, SkyjoRules(), ["random", "greedy", "expert"], 8, 1, engine="fast",
            progress=seen.append,
        )  # fmt: skip
    assert seen == []  # the random-greedy pair was not played first


def test_fast_ladder_refuses_workers_and_an_unknown_engine() -> None:
    with pytest.raises(ValueError, match="leave out --workers"):
        run_ladder(SKYJO, SkyjoRules(), ["random", "greedy"], 8, 1, engine="fast", workers=2)
    with pytest.raises(ValueError, match="'reference' or 'fast'"):
        run_ladder(SKYJO, SkyjoRules(), ["random", "greedy"], 8, 1, engine="gpu")


def test_ladder_engine_fast_prints_the_reference_table(capsys, tmp_path) -> None:
    fast_path, reference_path = tmp_path / "fast.json", tmp_path / "reference.json"
    base = ["ladder", "skipbo", "--bots", "random,greedy", "--games", "12", "--seed", "3"]
    assert main([*base, "--engine", "fast", "--json", str(fast_path)]) == 0
    fast_out = capsys.readouterr().out
    assert main([*base, "--json", str(reference_path)]) == 0
    reference_out = capsys.readouterr().out
    assert json.loads(fast_path.read_text()) == json.loads(reference_path.read_text())
    assert fast_out == reference_out
    assert "greedy" in fast_out


def test_ladder_engine_fast_defaults_to_the_batch_engine_bots(tmp_path) -> None:
    path = tmp_path / "ladder.json"
    assert main(["ladder", "skyjo", "--games", "4", "--engine", "fast", "--json", str(path)]) == 0
    result = json.loads(path.read_text())
    assert result["anchor"] == "random"
    assert sorted(rating["name"] for rating in result["ratings"]) == ["greedy", "hard", "random"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--bots", "random,greedy,naive"],
            "--engine fast plays the bots random, greedy, hard only, not naive",
        ),
        (["--bots", "greedy,expert@2"], "not expert@2"),
        (["--bots", "random,greedy", "--workers", "2"], "leave out --workers and --cluster"),
        (["--bots", "random,greedy", "--cluster", "tcp://127.0.0.1:1"], "leave out --workers"),
    ],
)
def test_ladder_engine_fast_refuses_what_it_cannot_play(capsys, tmp_path, args, message) -> None:
    path = tmp_path / "ladder.json"
    command = ["ladder", "skyjo", "--games", "4", "--engine", "fast", "--json", str(path)]
    assert main([*command, *args]) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert len(captured.err.strip().splitlines()) == 1
    assert "Traceback" not in captured.err
    assert captured.out == ""
    assert not path.exists()

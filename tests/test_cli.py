import json
from pathlib import Path

import pytest

from cardtable import __version__
from cardtable.cli import main
from cardtable.games import get_game
from cardtable.rules_options import allowed, option_specs
from cardtable.sim import run_tournament


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_sim_skipbo_prints_wins_and_confidence_intervals(capsys):
    code, out, err = run(
        capsys, "sim", "skipbo", "--players", "4", "--teams", "--stock", "5",
        "--games", "6", "--bots", "greedy,random", "--seed", "3",
    )  # fmt: skip
    assert code == 0, err
    assert "Skip-Bo: 6 games, seed 3, seats greedy, random, greedy, random" in out
    assert "players=4, stock_size=5, teams=true" in out
    assert "95% CI" in out and "Win rate" in out and "Points/round" in out
    assert "greedy" in out and "random" in out
    assert "Wins per seat: 0:" in out
    assert "Average game length:" in out and "blocked games:" in out


def test_sim_skyjo_prints_wins_and_confidence_intervals(capsys):
    code, out, err = run(capsys, "sim", "skyjo", "--players", "3", "--games", "5", "--seed", "1")
    assert code == 0, err
    assert "Skyjo: 5 games, seed 1, seats random, random, random" in out
    assert "95% CI" in out and "Average rounds per game:" in out


def test_sim_json_equals_the_in_process_result(capsys, tmp_path: Path):
    path = tmp_path / "result.json"
    code, _, err = run(
        capsys, "sim", "skyjo", "--players", "2", "--target", "40", "--games", "4",
        "--bots", "greedy,random", "--seed", "9", "--json", str(path),
    )  # fmt: skip
    assert code == 0, err
    game = get_game("skyjo")
    rules = game.rules_from_json({"players": 2, "end_score": 40})
    expected = run_tournament(game, rules, ["greedy", "random"], 4, 9).to_json()
    assert json.loads(path.read_text()) == expected


def test_defaults_are_100_games_seed_0_random_bots(capsys, tmp_path: Path):
    path = tmp_path / "result.json"
    code, _, err = run(capsys, "sim", "skyjo", "--players", "2", "--json", str(path))
    assert code == 0, err
    data = json.loads(path.read_text())
    assert (data["games"], data["seed"], data["seat_bots"]) == (100, 0, ["random", "random"])


def test_generic_options_are_read_as_json(capsys, tmp_path: Path):
    path = tmp_path / "result.json"
    code, _, err = run(
        capsys, "sim", "skipbo", "--games", "1", "--option", "stock_size=6",
        "--option", "first_player=1", "--rounds", "--target", "50", "--json", str(path),
    )  # fmt: skip
    assert code == 0, err
    rules = json.loads(path.read_text())["rules"]
    assert (rules["stock_size"], rules["first_player"], rules["rounds"]) == (6, 1, True)
    assert rules["target"] == 50


@pytest.mark.parametrize(
    ("argv", "field"),
    [
        (["sim", "skipbo", "--stock", "3"], "stock_size"),
        (["sim", "skipbo", "--players", "7"], "players"),
        (["sim", "skipbo", "--players", "3", "--teams"], "teams"),
        (["sim", "skyjo", "--option", "end_score=0"], "end_score"),
        (["sim", "skyjo", "--option", "rows_rule=maybe"], "rows_rule"),
        (["sim", "skyjo", "--option", "colour=red"], "colour"),
        (["bench", "skyjo", "--players", "9"], "players"),
    ],
)
def test_bad_option_exits_2_naming_the_field(capsys, argv: list[str], field: str):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert f"option '{field}'" in err
    assert "Traceback" not in err and out == ""


def test_bad_option_message_gives_the_allowed_range(capsys):
    code, _, err = run(capsys, "sim", "skipbo", "--stock", "3")
    assert code == 2
    assert "an integer from 5 to 30 (got 3)" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["sim", "skyjo", "--bots", "greedy,nobody"], "unknown bot 'nobody' for skyjo; known:"),
        (["sim", "skipbo", "--bots", "greedy,"], "--bots needs comma-separated names"),
        (["sim", "skipbo", "--bots", "hard@8,naive"], "bot 'hard' takes no budget"),
        (["ladder", "skyjo", "--bots", "expert@0,hard"], "from 1 to 100000"),
        (["sim", "chess"], "invalid choice: 'chess'"),
        (["rules", "chess"], "invalid choice: 'chess'"),
        (["sim", "skyjo", "--stock", "5"], "--stock does not apply to Skyjo"),
        (["sim", "skyjo", "--teams"], "--teams does not apply to Skyjo"),
        (["sim", "skyjo", "--rounds"], "--rounds does not apply to Skyjo"),
        (["sim", "skyjo", "--option", "players"], "--option needs KEY=VALUE"),
        (["sim", "skyjo", "--players", "3", "--option", "players=3"], "'players' given twice"),
        (["sim", "skyjo", "--games", "0"], "must be at least 1"),
        (["bench", "skyjo", "--seconds", "0"], "must be positive"),
        ([], "required: COMMAND"),
    ],
)
def test_usage_errors_exit_2_with_a_clear_message(capsys, argv: list[str], message: str):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err and out == ""


def test_rules_lists_options_with_defaults(capsys):
    code, out, _ = run(capsys, "rules", "skipbo")
    assert code == 0
    assert "Skip-Bo rules options" in out
    for name in ("players", "stock_size", "teams", "rounds", "target", "first_player"):
        assert name in out
    code, out, _ = run(capsys, "rules", "skyjo")
    assert code == 0
    assert "end_score" in out and "100" in out


@pytest.mark.parametrize("game", ["skipbo", "skyjo"])
def test_rules_lists_each_options_allowed_values_as_the_engine_says(capsys, game):
    code, out, _ = run(capsys, "rules", game)
    assert code == 0
    defaults = get_game(game).rules_type()
    for spec in option_specs(game):
        what = allowed(defaults, spec.name).replace("null or", "null (the rules choose) or")
        default = json.dumps(spec.default)
        assert f"  {spec.name:<22} {what}; default {default}\n" in out, spec.name


def test_rules_shows_the_ranges_and_how_they_follow_the_player_count(capsys):
    _, out, _ = run(capsys, "rules", "skipbo")
    assert "--option NAME=VALUE" in out
    assert "  players                an integer from 2 to 6; default 2\n" in out
    assert "  stock_size             null (the rules choose) or an integer from 5 to 30;" in out
    assert "5 to 30 with 2-4 players; 5 to 27 with 5 players; 5 to\n" in out
    assert "  target                 an integer from 1 to 100000; default 500\n" in out
    assert "  teams                  true or false; default false\n" in out
    assert "0 to 1 with 2 players; 0 to 2 with 3 players" in out  # first_player
    _, out, _ = run(capsys, "rules", "skyjo")
    assert "  end_score              an integer from 1 to 1000; default 100\n" in out
    assert "  closer_doubling        true or false; default true\n" in out


def test_version(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert out.strip() == f"cardtable {__version__}"


@pytest.mark.parametrize("game", ["skipbo", "skyjo"])
def test_bench_runs_and_writes_json(capsys, tmp_path: Path, game: str):
    path = tmp_path / "bench.json"
    code, out, err = run(capsys, "bench", game, "--games", "1", "--json", str(path))
    assert code == 0, err
    assert "clone" in out and "view" in out and "Per second" in out
    rows = json.loads(path.read_text())["rows"]
    assert [row["name"] for row in rows] == [
        "random, apply_action",
        "random, apply_unchecked",
        "random, advance",
        "greedy, apply_action",
        "clone",
        "view",
    ]
    assert all(row["count"] > 0 and row["per_second"] > 0 for row in rows)


def test_demo_announces_the_web_table_and_plays_both_games(capsys):
    code, out, err = run(capsys, "demo")
    assert code == 0, err
    assert "cardtable serve" in out
    assert "Skip-Bo: 50 games, seed 0, seats greedy, random, greedy, random" in out
    assert "Rules: players=4, teams=true" in out
    assert "Skyjo: 50 games, seed 0, seats greedy, random, greedy, random" in out

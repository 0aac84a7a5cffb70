"""The experiment tools of ``lab/``: each runs, is seeded, and every command the docs
print still parses with the tool's own flags."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import re
import shlex
from pathlib import Path

import pytest
from lab.__main__ import TOOLS, main

ROOT = Path(__file__).parent.parent.parent
DOCUMENTED = re.compile(r"`[^`]*?python -m lab ([^`]+)`")
#: A command written with placeholders (``GAME``, ``N``, ``[--seed S]``) is a usage line.
PLACEHOLDER = re.compile(r"\[|\b[A-Z]+\b")
#: Besides docs/*.md, where commands of the tools are printed.
DOCUMENTS = ("README.md", "CHANGELOG.md", "lab/README.md")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_every_tool_is_listed_in_the_readme_and_the_listing(capsys):
    modules = {path.stem for path in (ROOT / "lab").glob("*.py")}
    assert modules - {"__init__", "__main__", "least_squares"} == set(TOOLS)
    readme = (ROOT / "lab" / "README.md").read_text(encoding="utf-8")
    assert re.findall(r"^\| `(\w+)` \|", readme, re.MULTILINE) == list(TOOLS)
    listing = _run(capsys)
    for name in TOOLS:
        assert re.search(rf"^  {name} +\S", listing, re.MULTILINE)


def test_an_unknown_tool_is_refused_by_name(capsys):
    assert main(["no_such_tool"]) == 2
    assert "unknown tool 'no_such_tool'" in capsys.readouterr().err


class _ParsedError(Exception):
    pass


def _documented_commands() -> list[list[str]]:
    pages = [*sorted((ROOT / "docs").glob("*.md")), *(ROOT / name for name in DOCUMENTS)]
    text = "".join(page.read_text(encoding="utf-8") for page in pages)
    commands = [" ".join(match.split()) for match in DOCUMENTED.findall(text)]
    return [shlex.split(command) for command in commands if not PLACEHOLDER.search(command)]


def test_every_documented_command_parses(monkeypatch):
    commands = _documented_commands()
    assert len(commands) >= 20  # the docs print that many; fewer means the pattern broke
    original = argparse.ArgumentParser.parse_args

    def parse_then_stop(self, args=None, namespace=None):  # type: ignore[no-untyped-def]
        original(self, args, namespace)  # a bad flag exits with status 2 here
        raise _ParsedError

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_then_stop)
    for name, *rest in commands:
        assert name in TOOLS, name
        with pytest.raises(_ParsedError):
            importlib.import_module(f"lab.{name}").main(rest)
    # Every tool backs a figure, so every tool has a documented command to check.
    assert set(TOOLS) - {name for name, *_ in commands} == set()


def test_rl_rewards_counts_every_episode_of_both_environments(capsys):
    out = _run(capsys, "rl_rewards", "skyjo", "--episodes", "3")
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["gymnasium", "pettingzoo"]
    for line in lines:
        found = re.search(
            r"(\d+) of 3 episodes paid .* won (\d+), lost (\d+), no reward (\d+)", line
        )
        assert found, line
        paid, won, lost, nothing = map(int, found.groups())
        assert paid == won + lost and won + lost + nothing == 3
    assert _run(capsys, "rl_rewards", "skyjo", "--episodes", "3") == out  # seeded


def test_vector_env_speed_reports_both_engines_per_size(capsys):
    out = _run(capsys, "vector_env_speed", "--envs", "2", "3", "--seconds", "0.25")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [row["envs"] for row in rows] == [2, 3]
    for row in rows:
        for engine in ("reference", "fast"):
            assert row[engine]["steps"] > 0 and row[engine]["steps"] % row["envs"] == 0
        assert row["ratio_in_step"] > 0


def test_the_rlskyjo_yardstick_says_how_to_install_rlskyjo(capsys):
    pytest.importorskip("numpy")  # the project's venv, which never holds rlskyjo
    assert importlib.util.find_spec("rlskyjo") is None
    with pytest.raises(SystemExit) as exit_:
        main(["rlskyjo_yardstick", "--seconds", "1"])
    assert exit_.value.code == 2
    assert "pip install rlskyjo" in capsys.readouterr().err


def test_bot_speed_times_the_positions_it_was_asked_for(capsys):
    out = _run(capsys, "bot_speed", "skyjo", "greedy", "--positions", "20")
    assert re.search(r"skyjo greedy \(CPU\): 20 decisions, median [\d.]+ ms", out)


def test_bot_sweep_finds_every_choice_legal(capsys):
    out = _run(capsys, "bot_sweep", "--positions", "200")
    assert out.startswith("200 positions (")
    assert "every choice legal, no crash" in out


def _wins(out: str) -> tuple[int, int]:
    found = re.search(r"(\d+)/(\d+) wins", out)
    assert found, out
    return int(found[1]), int(found[2])


def test_the_paired_matches_count_every_game_and_repeat_exactly(capsys):
    runs = [
        ("hard_ablation", "no-danger", "--games", "4", "--stock", "5", "--workers", "1"),
        ("expert_experiments", "expert", "--games", "2", "--stock", "5", "--workers", "1",
         "--set", "iterations=2", "--set", "horizon=1"),
        ("skyjo_hard_weights", "--games", "4", "--workers", "1"),
        ("skyjo_expert_experiments", "--games", "4", "--workers", "1", "--set", "iterations=2"),
    ]  # fmt: skip
    for argv in runs:
        first = _run(capsys, *argv)
        wins, games = _wins(first)
        assert 0 <= wins <= games == int(argv[argv.index("--games") + 1])
        assert _wins(_run(capsys, *argv)) == (wins, games)


def test_the_fingerprints_are_seeded_and_see_a_changed_setting(capsys):
    def skipbo(stock: str) -> str:
        out = _run(
            capsys, "skipbo_expert_fingerprint", "--games", "1", "--stock", stock,
            "--iterations", "2", "--horizon", "1",
        )  # fmt: skip
        found = re.search(r"sha256 ([0-9a-f]{16})", out)
        assert found, out
        return found[1]

    base = skipbo("5")
    assert skipbo("5") == base
    assert skipbo("10") != base  # other games, other moves

    def skyjo(*extra: str) -> str:
        return _run(capsys, "skyjo_hard_fingerprint", "--games", "2", *extra).split()[-1]

    digest = skyjo()
    assert re.fullmatch(r"[0-9a-f]{64}", digest)
    assert skyjo() == digest
    assert skyjo("--first", "5") != digest


def test_the_fits_print_weights_for_every_feature(capsys):
    from cardtable.bots.skipbo_value import FEATURES, WIN_FEATURES
    from cardtable.bots.skyjo_value import FEATURES as SKYJO_FEATURES

    def weights(out: str, name: str) -> list[float]:
        found = re.search(rf"^{name} = \(([^)]*)\)$", out, re.MULTILINE)
        assert found, out
        return [float(value) for value in found[1].split(",")]

    out = _run(capsys, "skipbo_leaf_fit", "--games", "5", "--stock", "5", "--turns", "2")
    assert len(weights(out, "MOVER")) == len(weights(out, "OTHER")) == 1 + len(FEATURES)
    out = _run(capsys, "skipbo_win_fit", "--games", "6", "--stock", "5")
    assert len(weights(out, "WIN")) == len(WIN_FEATURES)  # "mover" is the intercept
    out = _run(capsys, "skyjo_leaf_fit", "--games", "5", "--players", "2")
    assert len(weights(out, "WEIGHTS")) == 1 + len(SKYJO_FEATURES)


def test_a_fit_without_a_held_out_game_is_refused(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["skipbo_leaf_fit", "--games", "4"])
    assert exit_.value.code == 2
    assert "--games must be at least 5" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("setting", "words"),
    [("danger=3", "the weights are gift, empty, wild"), ("gift=lots", "'lots' is not a number")],
)
def test_an_ablation_weight_it_does_not_know_is_refused(capsys, setting, words):
    with pytest.raises(SystemExit) as exit_:
        main(["hard_ablation", "weights", "--set", setting, "--games", "2", "--workers", "1"])
    assert exit_.value.code == 2
    assert words in capsys.readouterr().err


def test_an_ablation_weight_is_played_with(capsys):
    out = _run(
        capsys, "hard_ablation", "weights", "--set", "gift=60", "--games", "2", "--stock", "5",
        "--workers", "1",
    )  # fmt: skip
    assert out.startswith("weights {'gift': 60.0} stock 5: ")


def test_the_decision_screens_report_each_variant(capsys):
    out = _run(
        capsys, "skyjo_decision_screen", "--positions", "3", "--every", "30", "--workers", "1",
        "--variant", "base:", "--variant", "few:iterations=2",
    )  # fmt: skip
    assert re.search(r"^base +gain [-+][\d.]+ ± [\d.]+ points a decision", out, re.MULTILINE)
    assert re.search(r"^few +gain ", out, re.MULTILINE)
    out = _run(
        capsys, "skipbo_decision_screen", "--positions", "4", "--stock", "5", "--workers", "1",
        "--variant", "base:", "--variant", "it4:iterations=4",
    )  # fmt: skip
    assert "it4" in out
    assert re.search(r"round +gain [-+][\d.]+ ± [\d.]+ +minus base", out)


def test_the_rollout_cost_covers_both_policies(capsys):
    out = _run(capsys, "skyjo_rollout_cost", "--rounds", "1", "--players", "2")
    assert re.search(r"^greedy: [\d.]+ ms CPU per round, \d+ moves per round", out, re.MULTILINE)
    assert re.search(r"^hard: [\d.]+ ms CPU per round", out, re.MULTILINE)


def test_the_coach_judge_reports_every_kind_and_measure(capsys):
    pytest.importorskip("numba")
    out = _run(
        capsys, "coach_judge", "skyjo", "--per-kind", "1", "--strong", "2", "--expert", "1",
        "--review", "2", "--reference", "0",
    )  # fmt: skip
    for kind in ("high_over_low", "bury_low", "close_behind"):
        assert re.search(rf"^  {kind} +1 of +1 \(100.0%\)", out, re.MULTILINE)
    assert "false alarms on hard's moves: 0 of 2" in out
    assert re.search(r"verdict CPU time over 6 verdicts: p50 \d+ ms, p90 \d+ ms", out)
    assert re.search(r"review of 2 random-move decisions: \d named costly", out)
    # Each reviewed decision counted once, under the type of the move played.
    by_type = re.search(r"^  by the move played: (.*)$", out, re.MULTILINE)
    assert by_type, out
    assert sum(int(n) for n in re.findall(r" of (\d+)", by_type.group(1))) == 2


def test_message_encoding_times_both_encoders_on_both_games(capsys):
    out = _run(
        capsys, "message_encoding", "--players", "2", "--positions", "3", "--seconds", "0.05"
    )
    for name in ("skyjo", "skipbo"):
        assert re.search(
            rf"^{name}, 2 players: 6 messages of \d+ bytes; json [\d.]+ us CPU, "
            r"orjson [\d.]+ us \([\d.]+ times faster\)$",
            out,
            re.MULTILINE,
        ), out


def test_skipbo_round_ends_counts_every_round_and_repeats_exactly(capsys):
    out = _run(capsys, "skipbo_round_ends", "--bots", "hard", "--games", "3")
    assert "round ends: stock emptied 3\n" in out
    assert "longest run of idle turns with nothing to draw: 0" in out
    random = _run(capsys, "skipbo_round_ends", "--bots", "random", "--games", "4")
    ends = re.search(r"round ends: (.*)", random)
    assert ends and sum(int(part.split()[-1]) for part in ends[1].split(", ")) == 4
    assert _run(capsys, "skipbo_round_ends", "--bots", "random", "--games", "4") == random


def test_room_memory_measures_waiting_and_playing_rooms_of_a_real_server(capsys):
    from lab import room_memory

    assert room_memory.main(["--rooms", "3", "--seats", "2"]) == 0
    out = capsys.readouterr().out
    assert "skyjo, 3 rooms of 2 seats each way:" in out
    assert re.search(r"a waiting room, no connection: -?\d+\.\d KiB", out)
    assert re.search(r"a game under way with its 2 connections: -?\d+\.\d KiB", out)


@pytest.mark.parametrize(("game", "option"), [("skipbo", "stock_size=10"), ("skyjo", "players=4")])
def test_learned_moves_gives_hards_values_of_both_moves(capsys, game, option):
    pytest.importorskip("numpy")
    out = _run(capsys, "learned_moves", game, "--positions", "60", "--option", option)
    assert re.search(r"learned plays hard's move in \d+ \(", out)
    shown = re.findall(r"^(hard|learned): +.+\(hard's value -?\d+\.\d\d\)$", out, re.MULTILINE)
    assert shown[:2] == ["hard", "learned"]
    assert re.search(r"of the \d+ differences hard values, \d+ are ties", out)


def test_signin_timing_times_both_kinds_of_failed_sign_in(capsys):
    out = _run(capsys, "signin_timing", "--each", "2")
    rows = [line.split() for line in out.splitlines()[1:]]
    assert [row[:2] for row in rows] == [["unknown", "name"], ["wrong", "password"]]
    assert all(row[2] == "2" and float(row[3]) > 0 for row in rows)

"""``cardtable play``: options become a local game; mistakes end with status 2."""

from __future__ import annotations

import argparse

import pytest

from cardtable.cli import main
from cardtable.tui.command import add_play_parser, build_local, default_name
from cardtable.tui.source import LocalGame


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_play_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(["play", *argv])


def test_options_make_a_local_game_with_bots_by_level() -> None:
    args = parse("skipbo", "--players", "4", "--teams", "--stock", "5", "--bots", "easy,medium")
    source = build_local(args)
    assert isinstance(source, LocalGame)
    assert source.seat_labels() == ["", "naive", "greedy", "naive"]
    assert source.state.rules.teams and source.state.rules.stock_size == 5  # type: ignore[attr-defined]
    game = build_local(parse("skyjo", "--bots", "greedy", "--seed", "4", "--pause", "0"))
    assert (
        game.pause == 0
        and game.state.seed == 4
        and game.seat_labels() == ["", "greedy", "greedy", "greedy"]
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["skyjo", "--stock", "5"], "--stock-size applies to Skip-Bo only"),
        (["skipbo", "--players", "9"], "option 'players'"),
        (["skipbo", "--bots", "genius"], "unknown bot or level 'genius'"),
        ([], "give a GAME"),
        (["--join", "127.0.0.1:9/K7QW3M", "--seed", "3"], "--seed applies to a local game"),
    ],
)
def test_mistakes_end_with_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["play", *argv]) == 2
    assert message in capsys.readouterr().err


def test_play_is_listed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--bots" in out and "--lang" in out and "--join" in out and "--name" in out


@pytest.mark.parametrize(
    ("login", "name"),
    [
        ("ada", "ada"),
        ("Zoë  Müller", "Zoë Müller"),  # what the server would make of it
        ("x" * 24, "x" * 24),
        ("x" * 25, "Host"),  # longer than the server accepts
        ("o'brien", "Host"),  # a character the server refuses
    ],
)
def test_the_default_name_is_the_login_when_the_server_would_take_it(
    monkeypatch: pytest.MonkeyPatch, login: str, name: str
) -> None:
    monkeypatch.setattr("getpass.getuser", lambda: login)
    assert default_name() == name


def test_the_default_name_is_host_without_a_login(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_login() -> str:
        raise OSError("no login")

    monkeypatch.setattr("getpass.getuser", no_login)
    assert default_name() == "Host"

"""``cardtable play``: every rules option of both games, as a flag or ``--option NAME=VALUE``,
reaches the engine's rules; a bad one is refused by name before anything starts."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.cli import main
from cardtable.games import get_game
from cardtable.tui.command import PlayError, build_local, check_mode, host_request
from cardtable.tui.options import allowed, bounds, option_specs, parse_value, spec_of
from cardtable.tui.source import LocalGame

from .test_command import parse

#: One value per option, none of them the default, valid together. The tests insist that
#: this covers every field of the rules types: a new option must be added here.
CHOSEN: dict[str, dict[str, Any]] = {
    "skipbo": {
        "players": 4,
        "stock_size": 12,
        "teams": True,
        "discard_to_partner": True,
        "rounds": True,
        "target": 200,
        "round_bonus": 10,
        "points_per_card": 1,
        "first_player": 2,
        "idle_limit": 50,
        "turn_limit": 900,
        "blocked_limit": 5,
        "edition": 1,
    },
    "skyjo": {
        "players": 3,
        "end_score": 60,
        "rows_rule": True,
        "closer_starts_next": True,
        "closer_doubling": False,
        "turn_limit": 300,
    },
}


#: Options that exclude one of CHOSEN: (the options they replace, their values).
INSTEAD: dict[str, tuple[set[str], dict[str, Any]]] = {
    "skipbo": ({"first_player"}, {"high_card_deal": True}),
    "skyjo": (set(), {}),
}


def variants(game: str) -> list[dict[str, Any]]:
    """CHOSEN, and CHOSEN with the options of INSTEAD in place of those they exclude."""
    dropped, added = INSTEAD[game]
    if not added:
        return [CHOSEN[game]]
    kept = {name: value for name, value in CHOSEN[game].items() if name not in dropped}
    return [CHOSEN[game], {**kept, **added}]


def _flags(game: str, values: dict[str, Any]) -> list[str]:
    argv: list[str] = []
    for name, value in values.items():
        spec = spec_of(game, name)
        assert spec is not None
        if isinstance(value, bool):
            argv.append(spec.flag if value else "--no-" + spec.flag[2:])
        else:
            argv += [spec.flag, str(value)]
    return argv


def _pairs(values: dict[str, Any]) -> list[str]:
    argv: list[str] = []
    for name, value in values.items():
        text = str(value).lower() if isinstance(value, bool) else str(value)
        argv += ["--option", f"{name}={text}"]
    return argv


@pytest.mark.parametrize("game", ["skipbo", "skyjo"])
def test_the_chosen_values_cover_every_option_and_differ_from_the_defaults(game: str) -> None:
    rules_type = get_game(game).rules_type
    covered = {name for values in variants(game) for name in values}
    assert covered == {spec.name for spec in option_specs(game)}
    defaults = rules_type()
    for values in variants(game):
        for name, value in values.items():
            assert getattr(defaults, name) != value, name


@pytest.mark.parametrize(
    ("game", "variant"), [(game, i) for game in CHOSEN for i in range(len(variants(game)))]
)
@pytest.mark.parametrize("style", ["flags", "pairs"])
def test_every_option_reaches_the_engine(game: str, style: str, variant: int) -> None:
    values = variants(game)[variant]
    argv = _flags(game, values) if style == "flags" else _pairs(values)
    source = build_local(parse(game, *argv, "--bots", "easy", "--seed", "5"))
    assert isinstance(source, LocalGame)
    rules = source.state.rules
    for name, value in values.items():
        assert getattr(rules, name) == value, name
    assert rules == get_game(game).rules_type(**values)
    # The same options go to the server when hosting (checked here first).
    name, options, seats = host_request(parse(game, *argv, "--host", "127.0.0.1:1"))
    assert name == game and options == values
    assert seats == [{"kind": "human"}] * values["players"]


def test_old_flags_keep_working_and_auto_is_none() -> None:
    source = build_local(parse("skipbo", "--stock", "7", "--teams", "--rounds", "--players", "4"))
    rules: Any = source.state.rules
    assert (rules.stock_size, rules.teams, rules.rounds, rules.players) == (7, True, True, 4)
    source = build_local(parse("skipbo", "--stock-size", "auto", "--first-player", "1"))
    assert source.state.rules.stock_size is None and source.state.rules.first_player == 1  # type: ignore[attr-defined]
    source = build_local(parse("skyjo", "--option", "rows-rule=yes", "--option", "players=2"))
    assert source.state.rules.rows_rule is True  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("argv", "field", "words"),
    [
        (["skyjo", "--end-score", "0"], "end_score", "an integer from 1 to 1000"),
        (["skyjo", "--option", "rows_rule=maybe"], "rows_rule", "true or false"),
        (["skipbo", "--players", "5", "--stock", "30"], "stock_size", "from 5 to 27"),
        (["skipbo", "--teams"], "teams", "team play needs 4 or 6 players"),
        (["skipbo", "--option", "discard_to_partner=true"], "discard_to_partner", "teams=true"),
        (["skipbo", "--first-player", "2"], "first_player", "from 0 to 1"),
        (["skipbo", "--option", "speed=3"], "speed", "not an option; known: players"),
        (["skyjo", "--end-score", "ten"], "end_score", "an integer from 1 to 1000"),
    ],
)
def test_a_bad_option_names_its_field_and_starts_nothing(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    field: str,
    words: str,
) -> None:
    started: list[object] = []

    def run(app: object) -> None:
        started.append(app)

    monkeypatch.setattr("cardtable.tui.app.TableApp.run", run)
    for extra in ([], ["--host", "127.0.0.1:1"]):  # local, and before a room is created
        assert main(["play", *argv, *extra]) == 2
        err = capsys.readouterr().err
        assert f"option '{field}'" in err and words in err, err
        assert err.startswith("cardtable play: error: ") and err.count("\n") == 1
    assert started == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["skyjo", "--rows-rule", "--stock", "5"], "--stock-size applies to Skip-Bo only"),
        (["skipbo", "--end-score", "50"], "--end-score applies to Skyjo only"),
        (["skyjo", "--option", "players"], "--option needs NAME=VALUE"),
        (["skyjo", "--players", "3", "--option", "players=4"], "option 'players' given twice"),
        (["--host", "h:1"], "--host needs the GAME"),
        (["skyjo", "--host", "h:1", "--seed", "3"], "--seed does not go with --host"),
        (["skyjo", "--host", "h:1", "--join", "h:1/K7QW3M"], "not both"),
        (["--join", "h:1/K7QW3M", "--end-score", "50"], "--join takes the rules from the room"),
        (["skyjo", "--host", "h:1", "--players", "2", "--bots", "easy,hard"], "room for 1 bots"),
    ],
)
def test_mode_and_flag_mistakes(argv: list[str], message: str) -> None:
    with pytest.raises(PlayError, match=message):
        args = parse(*argv)
        check_mode(args)
        if args.host is not None:
            host_request(args)
        else:
            build_local(args)


def test_hosting_seats_bots_from_the_last_seat() -> None:
    _, options, seats = host_request(
        parse("skyjo", "--host", "h:1", "--players", "4", "--bots", "easy,hard")
    )
    assert options == {"players": 4}
    assert seats == [
        {"kind": "human"},
        {"kind": "human"},
        {"kind": "bot", "bot": "naive"},
        {"kind": "bot", "bot": "hard"},
    ]


def test_help_lists_each_games_options_with_allowed_values_and_defaults(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["play", "skyjo", "--help"]) == 0
    out = capsys.readouterr().out
    assert "Skyjo options" in out and "Skip-Bo options" not in out
    for spec in option_specs("skyjo"):
        what = allowed(get_game("skyjo").rules_type(), spec.name)
        assert f"{spec.flag:<22} {what}; default" in out, spec.name
    assert "--end-score            an integer from 1 to 1000; default 100" in out
    assert "--closer-doubling      true or false; default true" in out
    assert main(["play", "--help"]) == 0
    out = capsys.readouterr().out
    assert "Skyjo options" in out and "Skip-Bo options" in out and "--host SERVER" in out
    # Skip-Bo's stock size range follows the player count, read off the engine.
    assert "5 to 30 with 2-4 players; 5 to 27 with 5 players; 5 to" in out
    assert "--stock-size           auto (the rules choose) or an integer from 5 to 30" in out


def test_ranges_and_values_are_read_off_the_engine() -> None:
    skipbo = get_game("skipbo").rules_type
    assert bounds(skipbo(players=6), "stock_size") == (5, 22)
    assert bounds(skipbo(players=3), "first_player") == (0, 2)
    assert bounds(skipbo(), "teams") is None
    assert bounds(get_game("skyjo").rules_type(), "end_score") == (1, 1000)
    stock = spec_of("skipbo", "stock_size")
    teams = spec_of("skipbo", "teams")
    assert stock is not None and stock.optional and stock.kind == "int"
    assert teams is not None and not teams.optional and teams.kind == "bool"
    assert parse_value(stock, "auto") is None and parse_value(stock, "12") == 12
    assert parse_value(teams, "on") is True and parse_value(teams, "No") is False
    assert parse_value(teams, "maybe") == "maybe"  # for the engine to refuse by name

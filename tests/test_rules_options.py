"""The one description of the rules options: each option's advertised bounds are exactly
where the engine's own validation starts refusing, for every player count."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from typing import Any

import pytest

from cardtable import rules_options
from cardtable.core import OptionError, RulesBase
from cardtable.games import game_names, get_game
from cardtable.rules_options import (
    allowed_text,
    bounds,
    bounds_by_players,
    depends_on_players,
    limits,
    option_specs,
    player_counts,
    players_note,
)
from cardtable.tui import options as tui_options

#: Ranges wider than this are checked value by value only near their ends.
EXHAUSTIVE = 20_000


def engine_accepts(rules: RulesBase, name: str, value: object) -> bool:
    """The engine's answer, asked directly (not through the module under test)."""
    try:
        type(rules).from_json({**rules.to_json(), name: value})
    except OptionError as error:
        assert error.field == name, (name, value, error)
        return False
    return True


def numeric_options(game: str) -> list[str]:
    return [spec.name for spec in option_specs(game) if spec.kind == "int"]


def every_rules_at_each_player_count(game: str) -> list[RulesBase]:
    defaults = get_game(game).rules_type()
    return [defaults.replace(players=n) for n in player_counts(game)]


def assert_exact(rules: RulesBase, name: str, low: int, high: int) -> None:
    assert low <= high, (name, low, high)
    assert engine_accepts(rules, name, low), (name, rules, low)
    assert engine_accepts(rules, name, high), (name, rules, high)
    assert not engine_accepts(rules, name, low - 1), (name, rules, low - 1)
    assert not engine_accepts(rules, name, high + 1), (name, rules, high + 1)
    inside = range(low, high + 1)
    if len(inside) > EXHAUSTIVE:  # the ends and a spread of values between them
        inside = range(low, high + 1, len(inside) // 997)
    assert all(engine_accepts(rules, name, value) for value in inside), (name, rules)


@pytest.mark.parametrize("game", game_names())
def test_the_specs_cover_every_field_with_its_kind_default_and_meaning(game: str) -> None:
    rules_type = get_game(game).rules_type
    defaults = rules_type()
    specs = option_specs(game)
    assert [spec.name for spec in specs] == [f.name for f in dataclasses.fields(rules_type)]
    for spec in specs:
        assert spec.default == getattr(defaults, spec.name)
        assert spec.meaning, spec.name  # every option is documented on the rules type
        assert spec.kind == ("bool" if isinstance(spec.default, bool) else "int")
        if spec.default is None:
            assert spec.optional, spec.name


def test_kinds_and_auto_options() -> None:
    kinds = {(s.game, s.name): (s.kind, s.optional) for g in game_names() for s in option_specs(g)}
    assert kinds["skipbo", "stock_size"] == ("int", True)
    assert kinds["skipbo", "first_player"] == ("int", True)
    assert kinds["skipbo", "teams"] == ("bool", False)
    assert kinds["skyjo", "end_score"] == ("int", False)
    assert kinds["skyjo", "closer_doubling"] == ("bool", False)


@pytest.mark.parametrize("game", game_names())
def test_player_counts_are_where_the_engine_starts_refusing(game: str) -> None:
    counts = player_counts(game)
    assert counts == tuple(range(counts[0], counts[-1] + 1))
    assert_exact(get_game(game).rules_type(), "players", counts[0], counts[-1])
    assert {"skipbo": (2, 6), "skyjo": (2, 8)}[game] == (counts[0], counts[-1])


@pytest.mark.parametrize("game", game_names())
def test_every_bound_is_where_the_engine_starts_refusing_for_every_player_count(
    game: str,
) -> None:
    for name in numeric_options(game):
        if name == "players":
            continue
        by_players = bounds_by_players(game, name)
        assert set(by_players) == set(player_counts(game)), name
        for rules in every_rules_at_each_player_count(game):
            low, high = by_players[rules.players]  # type: ignore[attr-defined]
            assert_exact(rules, name, low, high)
        # ``limits`` spans every player count: its ends are accepted at some count.
        low, high = limits(game, name) or (0, -1)
        assert low == min(lo for lo, _ in by_players.values())
        assert high == max(hi for _, hi in by_players.values())


@pytest.mark.parametrize("game", game_names())
def test_yes_no_options_have_no_bounds(game: str) -> None:
    defaults = get_game(game).rules_type()
    for spec in option_specs(game):
        if spec.kind == "bool":
            assert bounds(defaults, spec.name) is None
            assert limits(game, spec.name) is None
            assert bounds_by_players(game, spec.name) == {}
            assert allowed_text(game, spec.name) == "true or false"


def test_the_engines_figures() -> None:
    """Written out, so that a change of the engine's limits is seen here."""
    stock = {2: (5, 30), 3: (5, 30), 4: (5, 30), 5: (5, 27), 6: (5, 22)}
    assert bounds_by_players("skipbo", "stock_size") == stock
    assert bounds_by_players("skipbo", "first_player") == {n: (0, n - 1) for n in range(2, 7)}
    assert limits("skipbo", "first_player") == (0, 5)
    assert limits("skipbo", "target") == (1, 100_000)
    assert limits("skipbo", "round_bonus") == (0, 10_000)
    assert limits("skipbo", "points_per_card") == (0, 1000)
    assert limits("skipbo", "turn_limit") == (100, 1_000_000)
    assert limits("skyjo", "end_score") == (1, 1000)
    assert limits("skyjo", "turn_limit") == (100, 1_000_000)
    depends = {
        (g, s.name) for g in game_names() for s in option_specs(g) if depends_on_players(g, s.name)
    }
    assert depends == {("skipbo", "stock_size"), ("skipbo", "first_player")}


def test_words() -> None:
    assert allowed_text("skipbo", "stock_size") == (
        "auto (the rules choose) or an integer from 5 to 30"
    )
    assert allowed_text("skipbo", "stock_size", "null") == "null or an integer from 5 to 30"
    assert allowed_text("skyjo", "players") == "an integer from 2 to 8"
    assert players_note("skipbo", "stock_size") == (
        "5 to 30 with 2-4 players; 5 to 27 with 5 players; 5 to 22 with 6 players"
    )
    assert players_note("skipbo", "target") == ""
    assert players_note("skipbo", "players") == ""


def test_the_terminal_uses_this_module_not_a_copy() -> None:
    names = ("OptionSpec", "option_specs", "spec_of", "all_option_names", "allowed", "bounds")
    for name in names:
        assert getattr(tui_options, name) is getattr(rules_options, name), name


def test_it_imports_only_core_games_and_engines() -> None:
    code = (
        "import sys, cardtable.rules_options as r\n"
        "[r.limits(g, s.name) for g in r.game_names() for s in r.option_specs(g)]\n"
        "print(' '.join(sorted({m.split('.')[1] for m in sys.modules"
        " if m.startswith('cardtable.')})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    assert set(out.split()) == {"core", "games", "rules_options", "skipbo", "skyjo"}


def test_bounds_follow_the_other_options_as_they_stand() -> None:
    skipbo: Any = get_game("skipbo").rules_type
    assert bounds(skipbo(players=6), "stock_size") == (5, 22)
    assert bounds(skipbo(players=3), "first_player") == (0, 2)
    assert bounds(skipbo(players=2, stock_size=10), "stock_size") == (5, 30)


@pytest.mark.parametrize("game", game_names())
def test_every_label_is_a_key_of_the_four_catalogs(game: str) -> None:
    from cardtable.i18n import LANGUAGES, catalog

    for spec in option_specs(game):
        assert spec.label == f"option.{game}.{spec.name}"
        for lang in LANGUAGES:
            assert catalog(lang).get(spec.label), (lang, spec.label)


@pytest.mark.parametrize("game", game_names())
def test_the_docs_table_is_the_generated_one(game: str) -> None:
    from pathlib import Path

    from cardtable.rules_options import options_markdown

    text = (Path(__file__).parent.parent / "docs" / "rules" / f"{game}.md").read_text("utf-8")
    assert options_markdown(game) + "\n" in text


def test_a_field_declared_without_its_description_is_refused() -> None:
    from cardtable.core import option, option_fields

    @dataclasses.dataclass(frozen=True)
    class Bare(RulesBase):
        size: int = 3

    with pytest.raises(TypeError, match=r"Bare.size is not declared with option\(\)"):
        Bare()

    @dataclasses.dataclass(frozen=True)
    class Texty(RulesBase):
        colour: str = option("red", meaning="The colour.", label="option.x.colour")

    with pytest.raises(TypeError, match=r"int, bool or int \| None"):
        option_fields(Texty)

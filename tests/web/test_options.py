"""What the page is told about each game's options matches what the engine accepts."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.bots import bot_names
from cardtable.core import OptionError
from cardtable.games import game_names, get_game
from cardtable.rules_options import bounds_by_players, option_specs
from cardtable.web.options import HIDDEN, game_options, option_entry


def option(game: str, name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(o for o in game_options(game)["options"] if o["name"] == name)
    return found


def test_skipbo_stock_range_for_each_player_count_is_the_engines():
    stock = option("skipbo", "stock_size")
    players = option("skipbo", "players")
    counts = range(players["min"], players["max"] + 1)
    assert set(stock["max_by_players"]) == {str(n) for n in counts}
    assert stock["max_by_players"]["6"] == 22 and stock["max_by_players"]["2"] == 30
    rules_from_json = get_game("skipbo").rules_from_json
    for n in counts:
        top = stock["max_by_players"][str(n)]
        assert stock["min"] <= top <= stock["max"]
        rules_from_json({"players": n, "stock_size": top})  # the largest is accepted
        rules_from_json({"players": n, "stock_size": stock["min"]})
        with pytest.raises(OptionError) as refused:
            rules_from_json({"players": n, "stock_size": top + 1})
        assert refused.value.field == "stock_size"
        assert refused.value.allowed.endswith(f"from {stock['min']} to {top}")
    assert max(stock["max_by_players"].values()) == stock["max"]


@pytest.mark.parametrize("game", game_names())
def test_every_range_sent_is_accepted_at_both_ends_and_refused_beyond(game):
    rules_from_json = get_game(game).rules_from_json
    for entry in game_options(game)["options"]:
        if "min" not in entry:
            continue
        name = entry["name"]
        base = {"players": 2} if name != "players" else {}
        rules_from_json({**base, name: entry["min"]})
        for value in (entry["min"] - 1, entry["max"] + 1):
            with pytest.raises(OptionError):
                rules_from_json({**base, name: value})
        if "max_by_players" not in entry:
            rules_from_json({**base, name: entry["max"]})  # the same for any player count


#: What the page was sent before the options were read off the engine (the hand-kept
#: table of web/options.py): the same, value for value, now that they are the engine's.
BEFORE: dict[str, list[dict[str, Any]]] = {
    "skipbo": [
        {"name": "players", "type": "int", "optional": False, "default": 2, "min": 2, "max": 6},
        {
            "name": "stock_size",
            "type": "int",
            "optional": True,
            "default": None,
            "min": 5,
            "max": 30,
            "max_by_players": {"2": 30, "3": 30, "4": 30, "5": 27, "6": 22},
        },
        {"name": "teams", "type": "bool", "optional": False, "default": False},
        {"name": "discard_to_partner", "type": "bool", "optional": False, "default": False},
        {"name": "rounds", "type": "bool", "optional": False, "default": False},
        {"name": "target", "type": "int", "optional": False, "default": 500, "min": 1,
         "max": 100000},
        {"name": "round_bonus", "type": "int", "optional": False, "default": 25, "min": 0,
         "max": 10000},
        {"name": "points_per_card", "type": "int", "optional": False, "default": 5, "min": 0,
         "max": 1000},
        # Offered since issue 17 (the first player, sheet 003's deal, the house rules).
        {"name": "first_player", "type": "int", "optional": True, "default": None, "min": 0,
         "max": 5, "max_by_players": {"2": 1, "3": 2, "4": 3, "5": 4, "6": 5}},
        {"name": "high_card_deal", "type": "bool", "optional": False, "default": False},
        {"name": "idle_limit", "type": "int", "optional": False, "default": 200, "min": 1,
         "max": 100000},
        {"name": "blocked_limit", "type": "int", "optional": False, "default": 3, "min": 1,
         "max": 100},
    ],
    "skyjo": [
        {"name": "players", "type": "int", "optional": False, "default": 4, "min": 2, "max": 8},
        {"name": "end_score", "type": "int", "optional": False, "default": 100, "min": 1,
         "max": 1000},
        {"name": "rows_rule", "type": "bool", "optional": False, "default": False},
        {"name": "closer_starts_next", "type": "bool", "optional": False, "default": False},
        {"name": "closer_doubling", "type": "bool", "optional": False, "default": True},
    ],
}  # fmt: skip


@pytest.mark.parametrize("game", game_names())
def test_the_options_sent_are_what_they_were(game):
    options = game_options(game)["options"]
    assert [{k: v for k, v in o.items() if k != "label"} for o in options] == BEFORE[game]
    # Each labelled by its rules option's catalog key (the page shows no copy of its own).
    assert [o["label"] for o in options] == [f"option.{game}.{o['name']}" for o in options]
    assert [set(entry) for entry in game_options(game)["options"]] == [
        set(entry) | {"label"} for entry in BEFORE[game]
    ]


def test_hidden_options_would_be_sent_with_the_engines_ranges():
    """turn_limit and the rules edition are not offered; were they, their ranges would be
    the engine's (the hand table had no range for turn_limit)."""
    assert {"turn_limit", "edition"} == HIDDEN
    first = option_entry("skipbo", "first_player")
    assert (first["min"], first["max"]) == (0, 5)
    assert first["max_by_players"] == {str(n): n - 1 for n in range(2, 7)}
    edition = option_entry("skipbo", "edition")
    assert (edition["min"], edition["max"]) == (1, 2) and "max_by_players" not in edition
    limit = option_entry("skipbo", "turn_limit")
    assert (limit["min"], limit["max"]) == (100, 1_000_000) and "max_by_players" not in limit


@pytest.mark.parametrize("game", game_names())
def test_every_entry_offered_or_not_is_exact_at_every_player_count(game):
    """For every option, the page's range at each player count (``min`` and the count's
    ``max_by_players``, else ``max``) is accepted at both ends and refused one beyond."""
    rules_type = get_game(game).rules_type
    players = option_entry(game, "players")
    for spec in option_specs(game):
        entry = option_entry(game, spec.name)
        if spec.kind == "bool":
            assert "min" not in entry and "max" not in entry and "max_by_players" not in entry
            continue
        counts = [None] if spec.name == "players" else range(players["min"], players["max"] + 1)
        tops = []
        for count in counts:
            base = {} if count is None else {"players": count}
            top = entry.get("max_by_players", {}).get(str(count), entry["max"])
            tops.append(top)
            for value in (entry["min"], top):
                rules_type.from_json({**base, spec.name: value})
            for value in (entry["min"] - 1, top + 1):
                with pytest.raises(OptionError) as refused:
                    rules_type.from_json({**base, spec.name: value})
                assert refused.value.field == spec.name
        assert max(tops) == entry["max"]  # ``max`` is the largest for any count
        if "max_by_players" in entry:
            assert len(set(entry["max_by_players"].values())) > 1


@pytest.mark.parametrize("game", game_names())
def test_no_smallest_value_depends_on_the_player_count(game):
    """The page reads only ``max_by_players``: an option whose smallest value followed the
    player count would need a ``min_by_players`` there first."""
    for spec in option_specs(game):
        lows = {low for low, _ in bounds_by_players(game, spec.name).values()}
        assert len(lows) <= 1, spec.name


@pytest.mark.parametrize("game", game_names())
def test_the_bots_are_offered_weakest_first_with_greedy_chosen(game):
    offered = game_options(game)
    assert offered["bots"][:5] == ["random", "naive", "greedy", "hard", "expert"]
    assert sorted(offered["bots"]) == sorted(bot_names(game))
    assert offered["default_bot"] == "greedy"

"""What the page is told about each game's options matches what the engine accepts."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.core import OptionError
from cardtable.games import game_names, get_game
from cardtable.web.options import game_options


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

"""The bot rooms started beside the load test's rooms."""

from __future__ import annotations

import pytest

from cardtable.bench.loadtest_botrooms import bot_of_room


def test_bot_rooms_take_the_listed_levels_in_turn_as_the_server_names_them():
    bots = [bot_of_room("skyjo", "easy, medium,hard,expert", index) for index in range(6)]
    assert bots == ["naive", "greedy", "hard", "expert", "naive", "greedy"]
    assert bot_of_room("skipbo", "greedy", 5) == "greedy"
    assert bot_of_room("skyjo", "random", 0) == "random"


def test_an_unknown_level_is_refused_by_name_before_any_room_is_made():
    with pytest.raises(KeyError, match="'grandmaster'"):
        bot_of_room("skyjo", "hard,grandmaster", 1)

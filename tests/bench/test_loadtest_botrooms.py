"""The bot rooms started beside the load test's rooms."""

from __future__ import annotations

from cardtable.bench.loadtest_botrooms import bot_of_room


def test_bot_rooms_take_the_listed_levels_in_turn():
    levels = [bot_of_room("easy, medium,hard,expert", index) for index in range(6)]
    assert levels == ["easy", "medium", "hard", "expert", "easy", "medium"]
    assert bot_of_room("greedy", 5) == "greedy"

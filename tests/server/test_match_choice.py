""" "Play now"'s choice of a room and of a bot level, as data in and a choice out
(:mod:`cardtable.server.lobby.choice`); the HTTP side is test_quickmatch.py."""

from __future__ import annotations

from typing import Any

from cardtable.server.lobby.choice import closest_level, open_rooms, ranked, seats_free
from cardtable.server.storage.public_rooms import PublicRoom

FREE = {"kind": "human", "name": None, "token_hash": None}
BOT = {"kind": "bot", "bot": "greedy", "name": "Bot", "token_hash": None}


def taken(name: str) -> dict[str, Any]:
    return {"kind": "human", "name": name, "token_hash": f"hash-{name}"}


def room(code: str, *seats: dict[str, Any], created: float = 0.0) -> PublicRoom:
    return PublicRoom(
        code=code,
        game="skyjo",
        rules={"players": len(seats)},
        seats=list(seats),
        status="lobby",
        table_options=None,
        created_at=created,
    )


def codes(rooms: list[PublicRoom]) -> list[str]:
    return [r.code for r in rooms]


def test_only_rooms_of_the_size_asked_with_a_free_human_seat_are_open():
    full = room("FULL", taken("Ann"), taken("Bob"))
    bots = room("BOTS", taken("Ann"), BOT)
    three = room("THREE", taken("Ann"), FREE, FREE)
    waiting = room("WAIT", taken("Ann"), FREE)
    assert [seats_free(r) for r in (full, bots, three, waiting)] == [0, 0, 2, 1]
    assert codes(open_rooms([full, bots, three, waiting], players=2)) == ["WAIT"]
    assert codes(open_rooms([full, bots, three, waiting], players=3)) == ["THREE"]


def test_a_player_goes_where_the_seated_are_rated_closest_to_them():
    strong = room("STRONG", taken("Ann"), FREE, created=1.0)
    weak = room("WEAK", taken("Bob"), FREE, created=2.0)
    ratings = {("STRONG", 0): 1900, ("WEAK", 0): 1200}
    assert codes(ranked([strong, weak], ratings, 1850)) == ["STRONG", "WEAK"]
    assert codes(ranked([strong, weak], ratings, 1250)) == ["WEAK", "STRONG"]
    # A seated player without a rating counts as a newcomer: 1,500.
    assert codes(ranked([strong, weak], {("STRONG", 0): 1900}, 1450)) == ["WEAK", "STRONG"]


def test_people_before_empty_rooms_then_the_fullest_then_the_oldest():
    empty = room("EMPTY", FREE, FREE, FREE, created=0.0)
    one = room("ONE", taken("Ann"), FREE, FREE, created=3.0)
    two_new = room("TWONEW", taken("Bob"), taken("Cid"), FREE, created=2.0)
    two_old = room("TWOOLD", taken("Dan"), taken("Eve"), FREE, created=1.0)
    order = ranked([empty, one, two_new, two_old], {}, 1500)
    assert codes(order) == ["TWOOLD", "TWONEW", "ONE", "EMPTY"]


def test_the_bot_offered_is_the_level_rated_closest_the_weaker_of_two():
    shown = {"easy": 1100, "medium": 1500, "hard": 1700, "expert": 1800}
    assert closest_level(shown, 1480) == "medium"
    assert closest_level(shown, 1770) == "expert"  # 30 from expert, 70 from hard
    assert closest_level(shown, 1600) == "medium"  # as close to medium as to hard
    assert closest_level(shown, 2400) == "expert"

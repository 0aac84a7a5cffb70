""" "Play now"'s choice of a room and of a bot level, as data in and a choice out
(:mod:`cardtable.server.lobby.choice`); the HTTP side is test_quickmatch.py."""

from __future__ import annotations

from typing import Any

from cardtable.games import get_game
from cardtable.server.ladder import Ladder
from cardtable.server.lobby.choice import (
    closest_level,
    open_rooms,
    ranked,
    room_ladder,
    seats_free,
)
from cardtable.server.storage.public_rooms import PublicRoom

SKYJO = Ladder.SKYJO
FREE = {"kind": "human", "name": None, "token_hash": None}
BOT = {"kind": "bot", "bot": "greedy", "name": "Bot", "token_hash": None}


def taken(name: str) -> dict[str, Any]:
    return {"kind": "human", "name": name, "token_hash": f"hash-{name}"}


def stored(game: str, **options: Any) -> dict[str, Any]:
    """Rules as a room stores them: every field."""
    rules: dict[str, Any] = get_game(game).rules_from_json(options).to_json()
    return rules


def room(code: str, *seats: dict[str, Any], created: float = 0.0, **rules: Any) -> PublicRoom:
    return PublicRoom(
        code=code,
        game="skyjo",
        rules=stored("skyjo", players=len(seats), **rules),
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
    assert codes(ranked([strong, weak], ratings, {SKYJO: 1850})) == ["STRONG", "WEAK"]
    assert codes(ranked([strong, weak], ratings, {SKYJO: 1250})) == ["WEAK", "STRONG"]
    # A seated player without a rating counts as a newcomer: 1,500.
    assert codes(ranked([strong, weak], {("STRONG", 0): 1900}, {SKYJO: 1450})) == [
        "WEAK",
        "STRONG",
    ]


def test_people_before_empty_rooms_then_the_fullest_then_the_oldest():
    empty = room("EMPTY", FREE, FREE, FREE, created=0.0)
    one = room("ONE", taken("Ann"), FREE, FREE, created=3.0)
    two_new = room("TWONEW", taken("Bob"), taken("Cid"), FREE, created=2.0)
    two_old = room("TWOOLD", taken("Dan"), taken("Eve"), FREE, created=1.0)
    order = ranked([empty, one, two_new, two_old], {}, {})
    assert codes(order) == ["TWOOLD", "TWONEW", "ONE", "EMPTY"]


def test_a_room_is_matched_on_the_ladder_its_rules_are_rated_on():
    """Issue 47, finding 6: the player's rating on the room's own ladder, and a
    house-rules room (unrated) matched on no rating, after the rated ones."""
    rated = room("RATED", taken("Ann"), FREE, created=2.0)
    house = room("HOUSE", taken("Bob"), FREE, created=1.0, end_score=60)
    assert (room_ladder(rated), room_ladder(house)) == (SKYJO, None)
    # Bob's seat rated 1,800 on the standard ladder means nothing at a house table.
    ratings = {("RATED", 0): 1100, ("HOUSE", 0): 1800}
    assert codes(ranked([house, rated], ratings, {SKYJO: 1800})) == ["RATED", "HOUSE"]
    teams = PublicRoom(
        code="TEAMS",
        game="skipbo",
        rules=stored("skipbo", players=4, teams=True),
        seats=[taken("Cid"), FREE, FREE, FREE],
        status="lobby",
        table_options=None,
        created_at=0.0,
    )
    alone = PublicRoom(
        code="ALONE",
        game="skipbo",
        rules=stored("skipbo", players=4),
        seats=[taken("Dan"), FREE, FREE, FREE],
        status="lobby",
        table_options=None,
        created_at=0.0,
    )
    seated = {("TEAMS", 0): 1700, ("ALONE", 0): 1300}
    # Strong in teams, weak alone: each room by the player's rating on its own ladder.
    player = {Ladder.SKIPBO_TEAMS: 1700, Ladder.SKIPBO: 1300}
    assert codes(ranked([teams, alone], seated, player)) == ["TEAMS", "ALONE"]
    assert codes(ranked([alone, teams], {("TEAMS", 0): 1300, ("ALONE", 0): 1700}, player)) == [
        "ALONE",
        "TEAMS",
    ]


def test_the_bot_offered_is_the_level_rated_closest_the_weaker_of_two():
    shown = {"easy": 1100, "medium": 1500, "hard": 1700, "expert": 1800}
    assert closest_level(shown, 1480) == "medium"
    assert closest_level(shown, 1770) == "expert"  # 30 from expert, 70 from hard
    assert closest_level(shown, 1600) == "medium"  # as close to medium as to hard
    assert closest_level(shown, 2400) == "expert"

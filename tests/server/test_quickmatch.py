"""``POST /api/quickmatch`` ("Play now"): two players of one game land at one table,
which then leaves the public lobby; a third opens another; a player goes to the room
whose players' rating is the closest to theirs; the bot level offered is the one rated
closest; bad input is refused naming the field and changes nothing."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from cardtable.server.ladder import SCALE, score
from cardtable.server.lobby import quick_match

from .test_accounts import browser, post, register
from .test_public_lobby import codes, fresh_answers, lobby

__all__ = ["fresh_answers"]  # each look-up of the lobby reads the database


def play_now(http: Any, name: str, game: str = "skyjo", **fields: Any) -> dict[str, Any]:
    answer = http.post("/api/quickmatch", json={"game": game, "name": name, **fields})
    assert answer.status_code in (200, 201), answer.text
    body: dict[str, Any] = answer.json()
    return body


def test_two_players_land_at_one_table(tmp_path, database):
    with browser(tmp_path, database) as http:
        ann = play_now(http, "Ann")
        assert ann["created"] is True and ann["seat"] == 0 and ann["host_token"]
        assert ann["rating"] == 1500 and ann["bot"]["level"] == "medium"
        assert ann["wait_seconds"] > 0
        assert codes(lobby(http)) == [ann["code"]]  # public, one seat free
        bob = play_now(http, "Bob")
        assert bob["code"] == ann["code"] and bob["seat"] == 1 and not bob["created"]
        assert "host_token" not in bob
        room = http.get(f"/api/rooms/{ann['code']}").json()
        assert [seat["name"] for seat in room["seats"]] == ["Ann", "Bob"]
        assert room["table"]["public"] is True
        assert codes(lobby(http)) == []  # full: no longer listed
        cid = play_now(http, "Cid")
        assert cid["code"] != ann["code"] and cid["created"]
        other = play_now(http, "Dan", game="skipbo")  # another game: another table
        assert other["code"] not in (ann["code"], cid["code"])
        three = play_now(http, "Eve", players=3)  # another size: another table
        assert three["created"] and three["code"] != cid["code"]


def _rate(tmp_path: Any, user: int, points: int) -> None:
    mu, sigma = 25 + (points - 1500) / SCALE, 50 / SCALE
    with sqlite3.connect(tmp_path / "data" / "cardtable.db") as db:
        db.execute(
            "INSERT INTO ratings (ladder, player, user_id, mu, sigma, score, games, wins,"
            " updated_at) VALUES ('skyjo', ?, ?, ?, ?, ?, 10, 5, 0)",
            (f"user:{user}", user, mu, sigma, score(mu, sigma)),
        )


def _public_room_of(http: Any, name: str, user: int, points: int, tmp_path: Any) -> str:
    """A public 2-player Skyjo room whose one seated player is account ``user``, rated."""
    http.cookies.clear()
    csrf = register(http, name)["csrf_token"]
    _rate(tmp_path, user, points)
    body = {"game": "skyjo", "options": {"players": 2}, "name": name, "table": {"public": True}}
    created = http.post("/api/rooms", json=body).json()
    claim = {"seats": [{"code": created["code"], "token": created["token"]}]}
    assert post(http, "claim", csrf, claim).status_code == 200
    code: str = created["code"]
    return code


def test_a_player_goes_to_the_room_rated_closest_and_gets_the_closest_bot(tmp_path):
    with browser(tmp_path) as http:
        strong = _public_room_of(http, "Ann", 1, 1900, tmp_path)
        weak = _public_room_of(http, "Bob", 2, 1100, tmp_path)
        http.cookies.clear()
        register(http, "Cid")
        _rate(tmp_path, 3, 1800)
        cid = play_now(http, "Cid")
        assert cid["code"] == strong and cid["rating"] == 1800
        assert cid["bot"] == {"level": "expert", "bot": "expert", "rating": 1745}
        http.cookies.clear()
        guest = play_now(http, "Dee")  # the strong room is full now
        assert guest["code"] == weak and guest["rating"] == 1500
        assert guest["bot"]["level"] == "medium"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "chess", "name": "Ann"}, "game"),
        ({"game": "skyjo"}, "name"),
        ({"game": "skyjo", "name": "   "}, "name"),
        ({"game": "skyjo", "name": "Ann", "players": 1}, "players"),
        ({"game": "skyjo", "name": "Ann", "players": 9}, "players"),
    ],
)
def test_bad_input_is_refused_naming_the_field_and_changes_nothing(tmp_path, body, field):
    with browser(tmp_path) as http:
        answer = http.post("/api/quickmatch", json=body)
        assert answer.status_code == 400, answer.text
        assert field in answer.json()["reason"] or answer.json().get("field") == field
        assert http.app.state.table.rooms == {}  # type: ignore[attr-defined]


def test_a_quick_match_needs_the_tables_origin(tmp_path):
    with browser(tmp_path) as http:
        answer = http.post(
            "/api/quickmatch",
            json={"game": "skyjo", "name": "Ann"},
            headers={"Origin": "https://evil.example"},
        )
        assert answer.status_code == 403
        assert http.app.state.table.rooms == {}  # type: ignore[attr-defined]


def test_quick_matches_are_limited_per_address(tmp_path):
    with browser(tmp_path) as http:
        answers = [
            http.post("/api/quickmatch", json={"game": "skyjo", "name": f"P{i}"}).status_code
            for i in range(8)
        ]
        assert answers[0] == 201 and 429 in answers


def test_the_player_who_takes_the_last_seat_starts_the_table(tmp_path, database):
    with browser(tmp_path, database) as http:
        ann = play_now(http, "Ann", players=3)
        bob = play_now(http, "Bob", players=3)
        assert bob["code"] == ann["code"] and bob["started"] is False
        assert http.get(f"/api/rooms/{ann['code']}").json()["status"] == "lobby"
        cid = play_now(http, "Cid", players=3)  # the last free seat
        assert cid["code"] == ann["code"] and cid["started"] is True
        room = http.get(f"/api/rooms/{ann['code']}").json()
        assert room["status"] == "playing" and room["game_no"] == 1
        assert ann["started"] is False  # the host's answer: a new room waits


def test_a_newer_room_of_the_size_asked_for_is_found_past_older_ones(
    tmp_path, database, monkeypatch
):
    """Quick match reads at most ``MAX_READ`` open rooms (3 here): those of the size asked
    for, however many older rooms of other sizes there are."""
    monkeypatch.setattr(quick_match, "MAX_READ", 3)
    with browser(tmp_path, database) as http:
        for index in range(4):
            body = {"game": "skyjo", "options": {"players": 3}, "name": f"Old {index}"}
            created = http.post("/api/rooms", json={**body, "table": {"public": True}})
            assert created.status_code == 201
        body = {"game": "skyjo", "options": {"players": 2}, "name": "New"}
        newer = http.post("/api/rooms", json={**body, "table": {"public": True}}).json()
        found = play_now(http, "Ann", players=2)
        assert found["code"] == newer["code"] and not found["created"]

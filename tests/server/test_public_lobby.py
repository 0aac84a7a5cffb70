"""``GET /api/lobby``: a room its host marks public is listed while a human seat is
free, with who sits there and their rating; it leaves the open list when it fills and
is listed to watch while its game is played; a private room is never listed; refusals
name the field; look-ups are limited per address."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.server.ladder import BOT_SEEDS
from cardtable.server.lobby import public

from .helpers import connect, join, start
from .test_accounts import browser, post, register


@pytest.fixture(autouse=True)
def fresh_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each look-up reads the database (a node reuses an answer for a second)."""
    monkeypatch.setattr(public, "CACHE_SECONDS", 0.0)


def lobby(http: Any, query: str = "") -> dict[str, Any]:
    answer = http.get(f"/api/lobby{query}")
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def codes(body: dict[str, Any], kind: str = "open") -> list[str]:
    return [room["code"] for room in body[kind]]


def new_room(http: Any, public: bool, players: int = 2, **fields: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"game": "skyjo", "options": {"players": players}, **fields}
    body["table"] = {"public": public}
    answer = http.post("/api/rooms", json=body)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def test_a_public_room_is_listed_until_it_fills_then_to_watch(tmp_path, database):
    with browser(tmp_path, database) as http:
        csrf = register(http)["csrf_token"]
        private = new_room(http, False, name="Zed")
        seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "hard"}]
        public = new_room(http, True, players=3, seats=seats, name="Ann")
        code = public["code"]
        claim = {"seats": [{"code": code, "token": public["token"]}]}
        assert post(http, "claim", csrf, claim).status_code == 200
        body = lobby(http)
        assert codes(body) == [code] and body["playing"] == []
        assert private["code"] not in str(body)
        (room,) = body["open"]
        assert room["game"] == "skyjo" and room["rules"]["players"] == 3
        assert room["seats_free"] == 1 and room["table"]["public"] is True
        ann, free, bot = room["seats"]
        assert ann["name"] == "Ann" and ann["taken"] and ann["rating"] == 1500
        assert ann["profile"] == "Ann" and bot["profile"] is None
        assert free == {
            "seat": 1,
            "kind": "human",
            "bot": None,
            "name": None,
            "taken": False,
            "rating": None,
            "profile": None,
        }
        assert bot["bot"] == "hard" and bot["rating"] == BOT_SEEDS["skyjo"]["hard"]
        text = http.get("/api/lobby").text
        assert public["token"] not in text and "token_hash" not in text and "seed" not in text
        assert codes(lobby(http, "?game=skipbo")) == []
        http.cookies.clear()  # Bob's browser (Ann's account sits at this rated table)
        bob = join(http, code, "Bob")  # the last free seat: the room leaves the open list
        assert codes(lobby(http)) == []
        with connect(http, code, public["token"], bob["token"]) as (host, _):
            host.hello()
            start(host, public["host_token"])
            host.until(lambda m: m["type"] == "event" and m["kind"] == "start")
            body = lobby(http)
            assert body["open"] == [] and codes(body, "playing") == [code]


def test_the_host_makes_a_room_public_in_its_lobby(tmp_path, database):
    with browser(tmp_path, database) as http:
        created = new_room(http, False, name="Ann")
        code = created["code"]
        with connect(http, code, created["token"]) as (host,):
            host.hello()
            options = {"type": "table", "host_token": created["host_token"]}
            host.send({**options, "options": {"public": True}})
            host.until(lambda m: m["type"] == "event" and m["room"]["table"]["public"])
            assert codes(lobby(http)) == [code]
            host.send({**options, "options": {"public": False}})
            host.until(lambda m: m["type"] == "event" and not m["room"]["table"]["public"])
            assert codes(lobby(http)) == []


def test_the_fullest_room_is_listed_first(tmp_path):
    with browser(tmp_path) as http:
        empty = new_room(http, True, players=3)["code"]
        half = new_room(http, True, players=3, name="Ann")["code"]
        assert codes(lobby(http)) == [half, empty]
        assert codes(lobby(http, "?limit=1")) == [half]


def test_a_node_reuses_an_answer_for_a_moment(tmp_path, monkeypatch):
    monkeypatch.setattr(public, "CACHE_SECONDS", 60.0)
    with browser(tmp_path) as http:
        assert lobby(http)["open"] == []
        code = new_room(http, True, name="Ann")["code"]
        assert lobby(http)["open"] == []  # the answer of a moment ago
        assert codes(lobby(http, "?limit=10")) == [code]  # another query: read anew


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("?game=chess", "game"),
        ("?limit=0", "limit"),
        ("?limit=x", "limit"),
        ("?limit=101", "limit"),
    ],
)
def test_bad_queries_are_refused_naming_the_field(tmp_path, query, field):
    with browser(tmp_path) as http:
        answer = http.get(f"/api/lobby{query}")
        assert answer.status_code == 400
        assert answer.json()["error"] == "bad_request" and answer.json()["field"] == field


def test_lobby_look_ups_are_limited_per_address(tmp_path):
    with browser(tmp_path) as http:
        answers = [http.get("/api/lobby").status_code for _ in range(40)]
        assert 429 in answers and answers[0] == 200
        limited = http.get("/api/lobby")
        assert limited.status_code == 429 and limited.headers["Retry-After"] == "1"

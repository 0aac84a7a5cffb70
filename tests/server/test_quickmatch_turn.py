"""Quick match (issue 47, finding 6): the wait for a room another node serves happens
outside the game's turn, so other "Play now"s of the game go on meanwhile; a start that
fails after the join undoes the join (no seat nobody can play in a public room); a
room is matched on the ladder its rules are rated on, and a house-rules table is said
to be unrated (``ladder`` null)."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

from cardtable.server.errors import RoomError

from .test_accounts import browser, post, register
from .test_public_lobby import codes, fresh_answers, lobby
from .test_quickmatch import _rate, play_now

__all__ = ["fresh_answers"]  # each look-up of the lobby reads the database


def _in_thread(http: Any, name: str, **fields: Any) -> tuple[threading.Thread, list[Any]]:
    answers: list[Any] = []

    def press() -> None:
        answers.append(play_now(http, name, **fields))

    thread = threading.Thread(target=press, daemon=True)
    thread.start()
    return thread, answers


def test_waiting_for_a_hand_over_does_not_hold_the_game_s_turn(tmp_path, database, monkeypatch):
    """Ann's room is (as far as this node knows) served by another node that has not
    handed it over yet: Ben, sent there, waits for it; Cid's "Play now" of the same game
    is answered meanwhile, and Ben is seated once the room arrives."""
    with browser(tmp_path, database) as http:
        ann = play_now(http, "Ann")
        table = http.app.state.table  # type: ignore[attr-defined]
        real = table.find_room
        arrived = threading.Event()
        asked: list[float] = []

        async def find_room(code: str, *, wait: float = 0.0) -> Any:
            if code == ann["code"] and not arrived.is_set():
                if wait <= 0:
                    raise RoomError("room_elsewhere", "another server holds this room now")
                asked.append(wait)
                while not arrived.is_set():  # the hand-over, up to the lease's length
                    await asyncio.sleep(0.01)
            return await real(code, wait=wait)

        monkeypatch.setattr(table, "find_room", find_room)
        ben, ben_answer = _in_thread(http, "Ben")
        deadline = time.monotonic() + 10
        while not asked:
            assert time.monotonic() < deadline, "Ben never waited for the room"
            time.sleep(0.01)
        cid, cid_answer = _in_thread(http, "Cid", players=3)  # the same game's turn
        cid.join(5)
        answered_while_ben_waited = bool(cid_answer) and ben.is_alive()
        arrived.set()  # the room arrives (before any assert: nothing is left hanging)
        ben.join(10)
        cid.join(10)
        assert answered_while_ben_waited, "Cid waited for Ben's hand-over"
        assert cid_answer[0]["created"] is True
        (seated,) = ben_answer
        assert (seated["code"], seated["seat"], seated["started"]) == (ann["code"], 1, True)


def test_a_start_that_fails_after_the_join_gives_the_seat_back(tmp_path, database):
    with browser(tmp_path, database) as http:
        ann = play_now(http, "Ann")
        storage = http.app.state.table.storage  # type: ignore[attr-defined]
        real_start = storage.start_game
        failures = []

        async def broken_start(*args: Any, **kwargs: Any) -> Any:
            if not failures:
                failures.append(1)
                raise RuntimeError("the database went away")
            return await real_start(*args, **kwargs)

        storage.start_game = broken_start
        with pytest.raises(RuntimeError):  # the test client raises the server's error
            http.post("/api/quickmatch", json={"game": "skyjo", "name": "Ben"})
        room = http.get(f"/api/rooms/{ann['code']}").json()
        assert room["status"] == "lobby"
        assert [seat["taken"] for seat in room["seats"]] == [True, False]
        assert codes(lobby(http)) == [ann["code"]]  # listed again, its seat free
        cid = play_now(http, "Cid")
        assert (cid["code"], cid["seat"], cid["started"]) == (ann["code"], 1, True)


def _public_room(http: Any, name: str, user: int, points: int, tmp_path: Any, **rules: Any) -> str:
    """A public 2-player Skyjo room (house ``rules`` if given) whose one seated player is
    account ``user``, rated ``points`` on the standard ladder."""
    http.cookies.clear()
    csrf = register(http, name)["csrf_token"]
    _rate(tmp_path, user, points)
    options = {"players": 2, **rules}
    body = {"game": "skyjo", "options": options, "name": name, "table": {"public": True}}
    created = http.post("/api/rooms", json=body).json()
    claim = {"seats": [{"code": created["code"], "token": created["token"]}]}
    assert post(http, "claim", csrf, claim).status_code == 200
    code: str = created["code"]
    return code


def test_a_house_rules_table_is_matched_on_no_rating_and_said_unrated(tmp_path):
    with browser(tmp_path) as http:
        house = _public_room(http, "Ann", 1, 1800, tmp_path, end_score=60)
        standard = _public_room(http, "Bob", 2, 1100, tmp_path)
        http.cookies.clear()
        register(http, "Cid")
        _rate(tmp_path, 3, 1800)
        # Ann's 1,800 is a standard-ladder rating: nothing to match at a house table.
        cid = play_now(http, "Cid")
        assert (cid["code"], cid["ladder"], cid["rating"]) == (standard, "skyjo", 1800)
        http.cookies.clear()
        dee = play_now(http, "Dee")  # only the house table is left
        assert (dee["code"], dee["ladder"]) == (house, None)
        assert dee["bot"]["level"] == "medium"  # offered on the game's standard ladder
        eve = play_now(http, "Eve")
        assert eve["created"] is True and eve["ladder"] == "skyjo"

"""Before the start, the room summary says whether the game will be rated as the table
stands (issue 47, finding 5; ``expected_verdict``, docs/protocol.md): worked out in the
server by the rules of the verdict, following the claims of the seats, on SQLite and
PostgreSQL."""

from __future__ import annotations

from typing import Any

from cardtable.server.ladder import Unrated, expected_verdict

from .helpers import create_room, join
from .test_accounts import browser, post, register
from .test_ratings import stored_rules

TAKEN = {"kind": "human", "bot": None, "name": "Ann", "token_hash": "h-ann"}
FREE = {"kind": "human", "bot": None, "name": None, "token_hash": None}
HARD = {"kind": "bot", "bot": "hard", "name": None, "token_hash": None}
RANDOM = {"kind": "bot", "bot": "random", "name": None, "token_hash": None}
SKYJO_2 = stored_rules("skyjo", {"players": 2})


def _expected(seats: list[dict[str, Any]], claims: dict[int, int], **more: Any) -> Any:
    rules = more.pop("rules", stored_rules("skyjo", {"players": len(seats)}))
    judged = expected_verdict("skyjo", rules, seats, claims, coached=more.get("coached", False))
    return judged.ladder, judged.reason


def test_the_expected_verdict_follows_the_verdict_s_rules():
    assert _expected([TAKEN, HARD], {0: 7}) == ("skyjo", None)
    assert _expected([TAKEN, HARD], {}) == (None, Unrated.GUEST_SEAT)
    assert _expected([TAKEN, RANDOM], {0: 7}) == (None, Unrated.UNRATED_BOT)
    assert _expected([TAKEN, HARD], {0: 7}, coached=True) == (None, Unrated.COACHED)
    house = stored_rules("skyjo", {"players": 2, "end_score": 60})
    assert _expected([TAKEN, HARD], {0: 7}, rules=house) == (None, Unrated.NON_STANDARD_RULES)
    assert _expected([TAKEN, {**TAKEN, "token_hash": "h2"}], {0: 7, 1: 7}) == (
        None,
        Unrated.SAME_PLAYER,
    )
    # A free seat counts as the account that will take it and claim it.
    assert _expected([TAKEN, FREE], {0: 7}) == ("skyjo", None)
    assert _expected([HARD, HARD], {}) == (None, Unrated.NO_ACCOUNT)


def _summary(http: Any, code: str) -> dict[str, Any]:
    answer = http.get(f"/api/rooms/{code}")
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def test_the_room_says_before_the_start_whether_its_game_will_be_rated(tmp_path, database):
    with browser(tmp_path, database) as http:
        csrf = register(http)["csrf_token"]
        created = create_room(http, "skyjo", {"players": 2}, None, name="Ann")
        code = created["code"]
        assert created["room"]["expected_verdict"] == {"rated": False, "reason": "guest_seat"}
        claim = {"seats": [{"code": code, "token": created["token"]}]}
        assert post(http, "claim", csrf, claim).json()["claimed"]
        # Ben's seat is free: he may claim it. Rated so far.
        assert _summary(http, code)["expected_verdict"] == {"rated": True, "reason": None}
        http.cookies.clear()  # Ben's own browser, a guest
        ben = join(http, code, "Ben")
        assert _summary(http, code)["expected_verdict"] == {
            "rated": False,
            "reason": "guest_seat",
        }
        csrf = register(http, "Ben")["csrf_token"]
        room = http.app.state.table.rooms[code]  # type: ignore[attr-defined]
        version = room.version
        claim = {"seats": [{"code": code, "token": ben["token"]}]}
        assert post(http, "claim", csrf, claim).json()["claimed"] == [{"code": code, "seat": 1}]
        # The claim is a room event: the table is told the new summary at once.
        assert room.version == version + 1
        assert room.summary()["expected_verdict"] == {"rated": True, "reason": None}
        assert _summary(http, code)["expected_verdict"] == {"rated": True, "reason": None}


def test_a_coached_or_house_rules_table_says_it_will_not_be_rated(tmp_path):
    with browser(tmp_path) as http:
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "hard"}]
        body = {"game": "skyjo", "options": {"players": 2, "end_score": 60}, "seats": seats}
        house = http.post("/api/rooms", json={**body, "name": "Ann"}).json()
        assert house["room"]["expected_verdict"]["reason"] == "non_standard_rules"
        body = {"game": "skyjo", "options": {"players": 2}, "seats": seats, "name": "Ann"}
        coached = http.post("/api/rooms", json={**body, "table": {"coach": True}}).json()
        assert coached["room"]["expected_verdict"]["reason"] == "coached"

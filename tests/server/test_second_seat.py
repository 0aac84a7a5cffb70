"""One account sitting twice at one rated table (issue 29's attacks, docs/players.md
#ratings): a second seat is refused with ``second_seat`` whether the account takes it
(join, quick match) or claims a seat taken as a guest, and nothing changes; at a table
whose rules are no ladder's it may sit twice. On SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from .helpers import create_room, join
from .test_accounts import browser, post, register, signin, whoami
from .test_quickmatch import play_now

RATED = {"players": 2}
UNRATED = {"players": 2, "end_score": 50}


def _seats(http: Any, code: str) -> list[bool]:
    return [seat["taken"] for seat in http.get(f"/api/rooms/{code}").json()["seats"]]


def _claim(http: Any, csrf: str, code: str, token: str) -> dict[str, Any]:
    answer = post(http, "claim", csrf, {"seats": [{"code": code, "token": token}]})
    assert answer.status_code == 200
    body: dict[str, Any] = answer.json()
    return body


def test_an_account_cannot_take_or_claim_a_second_seat_at_a_rated_table(tmp_path, database):
    with browser(tmp_path, database) as http:
        csrf = register(http, "Ann")["csrf_token"]
        room = create_room(http, "skyjo", RATED, name="Ann")
        code = room["code"]
        assert _claim(http, csrf, code, room["token"])["claimed"] == [{"code": code, "seat": 0}]

        # Taking the second seat while signed in: refused, the seat stays free.
        refused = http.post(f"/api/rooms/{code}/join", json={"name": "Ann 2"})
        assert refused.status_code == 409
        assert refused.json()["error"] == "second_seat"
        assert refused.json()["field"] == "seat"
        assert _seats(http, code) == [True, False]

        # Taken as a guest (another browser), then claimed: refused, nothing claimed.
        http.cookies.clear()
        guest = join(http, code, "Ann 2")
        csrf = signin(http, "Ann").json()["csrf_token"]
        answer = _claim(http, csrf, code, guest["token"])
        assert answer == {"claimed": [], "refused": [{"code": code, "error": "second_seat"}]}
        assert whoami(http)["seats"] == [{"code": code, "seat": 0}]
        # The seat already held is still claimed again without complaint.
        assert _claim(http, csrf, code, room["token"])["claimed"] == [{"code": code, "seat": 0}]

        # Another account may claim that guest seat: the table has two players.
        http.cookies.clear()
        other = register(http, "Ben")["csrf_token"]
        assert _claim(http, other, code, guest["token"])["claimed"] == [{"code": code, "seat": 1}]


def test_at_a_table_no_ladder_rates_an_account_may_sit_twice(tmp_path, database):
    with browser(tmp_path, database) as http:
        csrf = register(http, "Ann")["csrf_token"]
        room = create_room(http, "skyjo", UNRATED, name="Ann")
        code = room["code"]
        second = join(http, code, "Ann 2")
        for token, seat in ((room["token"], 0), (second["token"], 1)):
            assert _claim(http, csrf, code, token)["claimed"] == [{"code": code, "seat": seat}]
        assert whoami(http)["seats"] == [{"code": code, "seat": 0}, {"code": code, "seat": 1}]


def test_quick_match_does_not_seat_an_account_twice_at_one_table(tmp_path, database):
    with browser(tmp_path, database) as http:
        csrf = register(http, "Ann")["csrf_token"]
        first = play_now(http, "Ann")
        assert _claim(http, csrf, first["code"], first["token"])["refused"] == []
        again = play_now(http, "Ann")  # a second tab: not the table Ann sits at
        assert again["created"] and again["code"] != first["code"]
        assert _seats(http, first["code"]) == [True, False]
        http.cookies.clear()
        ben = play_now(http, "Ben")  # the next player fills the oldest table first
        assert ben["code"] in (first["code"], again["code"]) and not ben["created"]

"""Accounts: register, sign in and out, sessions and their cookie, CSRF, the sign-in
limits, claiming seats, deleting an account; and every refusal of "Bad input and attack"
that applies (docs/players.md). The storage tests run on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from cardtable.display_names import name_key
from cardtable.online import create_app
from cardtable.server.players.passwords import Cost, Passwords

from .helpers import config, create_room, join

ORIGIN = "http://testserver"
#: "ann" and "ANN" in full-width letters (U+FF41..., U+FF21...).
WIDE_ANN = "\uff41\uff4e\uff4e"
WIDE_ANN_UPPER = "\uff21\uff2e\uff2e"
SECRET = "correct horse battery"


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@contextlib.contextmanager
def browser(tmp_path, db_url: str | None = None, **changes: Any) -> Iterator[TestClient]:
    """A TestClient that sends the table's own Origin, as its page does; the accounts'
    clock is ``http.clock``."""
    app = create_app(config(tmp_path, db_url=db_url, **changes))
    clock = Clock()
    app.state.accounts.clock = clock
    with TestClient(app, headers={"Origin": ORIGIN}) as http:
        http.clock = clock  # type: ignore[attr-defined]
        yield http


def register(http: TestClient, name: str = "Ann", password: str = SECRET) -> dict[str, Any]:
    answer = http.post("/api/account/register", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.text
    body: dict[str, Any] = answer.json()
    return body


def signin(http: TestClient, name: str = "Ann", password: str = SECRET) -> Any:
    return http.post("/api/account/signin", json={"name": name, "password": password})


def post(http: TestClient, path: str, csrf: str | None, body: Any = None) -> Any:
    headers = {} if csrf is None else {"X-CSRF-Token": csrf}
    return http.post(f"/api/account/{path}", json=body or {}, headers=headers)


def whoami(http: TestClient) -> dict[str, Any]:
    body: dict[str, Any] = http.get("/api/account").json()
    return body


def session_cookie(http: TestClient) -> str | None:
    return http.cookies.get("cardtable_session")


def use_cookie(http: TestClient, token: str | None) -> None:
    """Send ``token`` as the session cookie from now on (a copy kept, or a forged one)."""
    http.cookies.clear()
    if token is not None:
        http.cookies.set("cardtable_session", token)


def test_register_signs_in_with_a_strict_httponly_cookie(tmp_path):
    with browser(tmp_path) as http:
        assert whoami(http) == {"signed_in": False}
        answer = http.post("/api/account/register", json={"name": " Ann  Lee ", "password": SECRET})
        assert answer.status_code == 201
        assert answer.headers["Cache-Control"] == "no-store"
        cookie = answer.headers["set-cookie"]
        assert cookie.startswith("cardtable_session=")
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/" in cookie
        assert "Secure" not in cookie  # a table on http
        body = answer.json()
        assert body["name"] == "Ann Lee" and body["signed_in"] is True
        assert SECRET not in answer.text
        me = whoami(http)
        assert me["name"] == "Ann Lee" and me["csrf_token"] == body["csrf_token"]
        assert me["seats"] == []


def test_over_https_the_cookie_is_secure_and_host_prefixed(tmp_path):
    app = create_app(config(tmp_path))
    with TestClient(
        app, base_url="https://testserver", headers={"Origin": "https://testserver"}
    ) as http:
        answer = http.post("/api/account/register", json={"name": "Ann", "password": SECRET})
        assert answer.status_code == 201
        cookie = answer.headers["set-cookie"]
        assert cookie.startswith("__Host-cardtable_session=") and "Secure" in cookie
        assert whoami(http)["name"] == "Ann"


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("", "bad_name"),
        ("   ", "bad_name"),
        ("x" * 25, "bad_name"),
        ("<b>Ann</b>", "bad_name"),
        ("x" * 5000, "bad_request"),
    ],
)
def test_a_bad_name_is_refused_naming_the_field(tmp_path, name, code):
    with browser(tmp_path) as http:
        answer = http.post("/api/account/register", json={"name": name, "password": SECRET})
        assert answer.status_code == 400
        assert answer.json()["error"] == code
        assert answer.json().get("field", "name") == "name" and "name" in answer.json()["reason"]
        assert "set-cookie" not in answer.headers
        assert whoami(http) == {"signed_in": False}


@pytest.mark.parametrize("password", ["", "short", "x" * 257])
def test_a_bad_password_is_refused_naming_the_field(tmp_path, password):
    with browser(tmp_path) as http:
        answer = http.post("/api/account/register", json={"name": "Ann", "password": password})
        assert answer.status_code == 400
        assert answer.json()["error"] == "bad_password" and answer.json()["field"] == "password"
        register(http)  # the name was not taken by the refusal


def test_names_are_one_across_case_and_unicode_forms(tmp_path):
    assert name_key("Ann") == name_key("ANN") == name_key(WIDE_ANN) == name_key(WIDE_ANN_UPPER)
    assert name_key("Straße") == name_key("STRASSE")
    with browser(tmp_path) as http:
        register(http, "Ann")
        for other in ("ANN", WIDE_ANN, " ann "):
            answer = http.post("/api/account/register", json={"name": other, "password": SECRET})
            assert answer.status_code == 409 and answer.json()["error"] == "name_taken", other
        # Signing in by any form of the name finds the account.
        assert signin(http, WIDE_ANN_UPPER).status_code == 200


def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(tmp_path):
    with browser(tmp_path) as http:
        register(http)
        http.cookies.clear()
        wrong = signin(http, "Ann", "not the password")
        unknown = signin(http, "Nobody", "not the password")
        assert wrong.status_code == unknown.status_code == 401
        assert (
            wrong.json()
            == unknown.json()
            == {
                "error": "bad_credentials",
                "reason": "the name or the password is wrong",
            }
        )
        assert "set-cookie" not in wrong.headers and "set-cookie" not in unknown.headers
        assert whoami(http) == {"signed_in": False}


def test_sign_in_rotates_the_session_and_sign_out_ends_it(tmp_path):
    with browser(tmp_path) as http:
        register(http)
        first = session_cookie(http)
        answer = signin(http)
        assert answer.status_code == 200
        second = session_cookie(http)
        assert second and second != first
        # The cookie from before the sign-in no longer works (a fixed session is useless).
        use_cookie(http, first)
        assert whoami(http) == {"signed_in": False}
        use_cookie(http, second)
        csrf = whoami(http)["csrf_token"]
        assert post(http, "signout", csrf).json() == {"signed_in": False}
        # A copy of the cookie kept by a thief is worth nothing now.
        use_cookie(http, second)
        assert whoami(http) == {"signed_in": False}


def test_sign_out_everywhere_ends_every_session(tmp_path):
    with browser(tmp_path) as http:
        register(http)
        laptop = session_cookie(http)
        http.cookies.clear()
        signin(http)
        phone = session_cookie(http)
        csrf = whoami(http)["csrf_token"]
        answer = post(http, "signout-everywhere", csrf)
        assert answer.json() == {"signed_in": False, "sessions_closed": 2}
        for cookie in (laptop, phone):
            use_cookie(http, cookie)
            assert whoami(http) == {"signed_in": False}
        http.cookies.clear()
        assert post(http, "signout-everywhere", None).status_code == 401


def test_an_expired_or_foreign_cookie_is_no_session(tmp_path):
    with browser(tmp_path, session_days=1.0) as http:
        register(http)
        http.clock.now += 86400 - 1  # type: ignore[attr-defined]
        assert whoami(http)["signed_in"] is True
        http.clock.now += 2  # type: ignore[attr-defined]
        answer = http.get("/api/account")
        assert answer.json() == {"signed_in": False}
        assert 'cardtable_session=""' in answer.headers["set-cookie"]  # cleared
    with browser(tmp_path / "other") as http:
        # A cookie from another table (its own database): unknown here.
        use_cookie(http, "A" * 43)
        assert whoami(http) == {"signed_in": False}
        use_cookie(http, "A" * 5000)
        assert whoami(http) == {"signed_in": False}


def test_a_change_on_the_cookie_needs_the_csrf_token_and_the_table_s_origin(tmp_path):
    with browser(tmp_path) as http:
        csrf = register(http)["csrf_token"]
        for forged in (None, "", "0" * 64, csrf[:-1] + ("0" if csrf[-1] != "0" else "1")):
            answer = post(http, "signout-everywhere", forged)
            assert answer.status_code == 403 and answer.json()["error"] == "bad_csrf", forged
            assert post(http, "signout", forged).status_code == 403
        assert whoami(http)["signed_in"] is True  # nothing changed
        # With the cookie, a state change needs the table's own Origin, not merely none.
        no_origin = {"X-CSRF-Token": csrf, "Origin": ""}
        del http.headers["Origin"]
        answer = http.post("/api/account/signout", json={}, headers={"X-CSRF-Token": csrf})
        assert answer.status_code == 403 and answer.json()["error"] == "bad_origin"
        answer = http.post(
            "/api/account/signout", json={}, headers={**no_origin, "Origin": "https://evil.example"}
        )
        assert answer.status_code == 403
        assert whoami(http)["signed_in"] is True
        http.headers["Origin"] = ORIGIN
        assert post(http, "signout", csrf).status_code == 200


def test_sign_ins_are_limited_per_name_then_allowed_again(tmp_path, database):
    with browser(tmp_path, database, signin_per_name=3, signin_window=600.0) as http:
        register(http)
        http.cookies.clear()
        for _ in range(3):
            assert signin(http, "Ann", "wrong password").status_code == 401
            assert signin(http, "Nobody", "wrong password").status_code == 401
        limited = signin(http, "Ann")  # even the right password, now
        unknown = signin(http, "Nobody")
        assert limited.status_code == unknown.status_code == 429
        assert limited.json()["error"] == unknown.json()["error"] == "too_many_attempts"
        assert limited.headers["Retry-After"] == unknown.headers["Retry-After"] == "600"
        assert "set-cookie" not in limited.headers
        assert signin(http, "ANN").status_code == 429  # the same name in another form
        http.clock.now += 600  # type: ignore[attr-defined]
        assert signin(http, "Ann").status_code == 200
        # A success starts the name's count again.
        for _ in range(3):
            assert signin(http, "Ann", "wrong password").status_code == 401
        assert signin(http, "Ann").status_code == 429


def test_sign_ins_and_registrations_are_limited_per_address(tmp_path):
    with browser(tmp_path, signin_per_address=4, register_per_address=2) as http:
        for name in ("Ann", "Ben"):
            register(http, name)
        answer = http.post("/api/account/register", json={"name": "Cat", "password": SECRET})
        assert answer.status_code == 429
        for _ in range(6):  # successes do not count: one address, many players
            assert signin(http, "Ben").status_code == 200
        for name in ("A1", "A2", "A3", "A4"):
            assert signin(http, name, "wrong password").status_code == 401
        assert signin(http, "Ann").status_code == 429
        http.clock.now += 900  # type: ignore[attr-defined]
        assert signin(http, "Ann").status_code == 200


def test_claimed_seats_join_the_account_and_nobody_else_can_take_them(tmp_path, database):
    with browser(tmp_path, database) as http:
        code = create_room(http, "skyjo", {"players": 2})["code"]
        mine = join(http, code, "Ann")
        theirs = join(http, code, "Ben")
        csrf = register(http)["csrf_token"]
        seats = [
            {"code": code, "token": mine["token"]},
            {"code": code, "token": "a" * 32},  # another browser's seat, guessed
            {"code": "ZZZZZZ", "token": theirs["token"]},  # a token of another room
            {"code": "not a code", "token": theirs["token"]},
        ]
        answer = post(http, "claim", csrf, {"seats": seats})
        assert answer.status_code == 200
        assert answer.json() == {
            "claimed": [{"code": code, "seat": 0}],
            "refused": [
                {"code": code, "error": "no_seat"},
                {"code": "ZZZZZZ", "error": "no_seat"},
                {"code": "not a code", "error": "no_seat"},
            ],
        }
        assert post(http, "claim", csrf, {"seats": seats[:1]}).json()["claimed"] == [
            {"code": code, "seat": 0}
        ]  # claiming twice changes nothing
        assert whoami(http)["seats"] == [{"code": code, "seat": 0}]
        # Another account holding the same token cannot take the seat over.
        http.cookies.clear()
        other = register(http, "Cat")["csrf_token"]
        taken = post(http, "claim", other, {"seats": seats[:1]}).json()
        assert taken == {"claimed": [], "refused": [{"code": code, "error": "seat_claimed"}]}
        assert whoami(http)["seats"] == []
        for bad in ({"seats": []}, {"seats": "x"}, {"seats": seats * 13}, {"other": 1}):
            assert post(http, "claim", other, bad).status_code == 400, bad
        http.cookies.clear()
        assert post(http, "claim", None, {"seats": seats[:1]}).status_code == 401


def test_deleting_an_account_keeps_its_games_under_a_neutral_name(tmp_path, database):
    with browser(tmp_path, database) as http:
        room = create_room(
            http,
            "skyjo",
            {"players": 2},
            seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}],
            name="Ann",
        )
        code = room["code"]
        with http.websocket_connect(f"/ws/{code}") as ws:
            ws.send_json({"type": "hello", "token": room["token"]})
            ws.send_json({"type": "start", "host_token": room["host_token"]})
            while True:
                message = ws.receive_json()
                if message["type"] == "event" and message["kind"] == "start":
                    break
        csrf = register(http)["csrf_token"]
        post(http, "claim", csrf, {"seats": [{"code": code, "token": room["token"]}]})
        wrong = post(http, "delete", csrf, {"password": "not the password"})
        assert wrong.status_code == 401 and wrong.json()["field"] == "password"
        assert whoami(http)["signed_in"] is True
        assert post(http, "delete", "0" * 64, {"password": SECRET}).status_code == 403
        deleted = post(http, "delete", csrf, {"password": SECRET})
        assert deleted.json() == {"deleted": True, "signed_in": False}
        assert whoami(http) == {"signed_in": False}
        assert signin(http).status_code == 401
        games = http.get(f"/api/rooms/{code}/games").json()["games"]
        assert games[0]["seats"][0]["name"] == "Former player"
        # The room, still being played on this node, shows the neutral name at once; the
        # seat's token still plays it.
        seat = http.get(f"/api/rooms/{code}").json()["seats"][0]
        assert seat["name"] == "Former player" and seat["taken"] is True
        register(http)  # the name is free again


def test_no_password_or_token_is_stored_as_sent(tmp_path):
    import sqlite3

    with browser(tmp_path) as http:
        register(http)
        token = session_cookie(http)
    with sqlite3.connect(tmp_path / "data" / "cardtable.db") as db:
        (stored,) = db.execute("SELECT password_hash FROM users").fetchone()
        sessions = [row[0] for row in db.execute("SELECT token_hash FROM sessions")]
    assert stored.startswith("$argon2id$") and SECRET not in stored
    assert token not in sessions and len(sessions[0]) == 64


def test_an_unknown_name_is_checked_against_a_dummy_hash_of_the_same_cost():
    passwords = Passwords(Cost(64, 1))

    async def scenario() -> tuple[bool, bool, bool]:
        stored = await passwords.hash(SECRET)
        return (
            await passwords.verify(None, SECRET),
            await passwords.verify(stored, SECRET),
            await passwords.verify("not a hash", SECRET),
        )

    assert asyncio.run(scenario()) == (False, True, False)
    # The dummy was made with the same cost as a real hash, and so takes as long.
    assert passwords._dummy is not None and "m=64,t=1" in passwords._dummy


def test_a_hash_of_another_cost_is_made_again_at_sign_in(tmp_path):
    import sqlite3

    with browser(tmp_path) as http:
        register(http)
        http.app.state.accounts.passwords = Passwords(Cost(128, 1))
        assert signin(http).status_code == 200
    with sqlite3.connect(tmp_path / "data" / "cardtable.db") as db:
        (stored,) = db.execute("SELECT password_hash FROM users").fetchone()
    assert "m=128,t=1" in stored


def test_no_secret_reaches_the_log(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    with browser(tmp_path) as http:
        code = create_room(http, "skyjo", {"players": 2})["code"]
        seat = join(http, code, "Ann")["token"]
        csrf = register(http)["csrf_token"]
        session = session_cookie(http)
        post(http, "claim", csrf, {"seats": [{"code": code, "token": seat}]})
        signin(http, "Ann", "a wrong password")
        post(http, "signout", csrf)
    assert caplog.records  # the server did log (a room, a join)
    for secret in (SECRET, "a wrong password", seat, csrf, session):
        assert secret and secret not in caplog.text

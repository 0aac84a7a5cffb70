"""Sign-in limits an attacker cannot lean on (issue 47, findings 7 to 9): an unknown name
costs the same password check as a wrong password, successful sign-ins are counted too
and an account keeps a bounded number of live sessions, and a stranger's failures under
a name never lock out a browser that signed in to that account before."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from cardtable.server.edges.sessions import BROWSER_COOKIE
from cardtable.server.players.passwords import Passwords

from .test_accounts import SECRET, browser, register, signin, whoami


def test_a_stranger_s_failures_do_not_lock_out_a_browser_that_signed_in_before(tmp_path):
    with browser(tmp_path, signin_per_name=3) as http:
        register(http, "Ann")
        owner_cookie = http.cookies.get(BROWSER_COOKIE)
        assert owner_cookie  # the known-browser cookie, set at registration
        http.cookies.clear()
        for _ in range(4):  # a stranger guesses Ann's password from a new browser
            http.post("/api/account/signin", json={"name": "Ann", "password": "wrong guess 1"})
        locked = signin(http, "Ann")
        assert locked.status_code == 429 and locked.json()["error"] == "too_many_attempts"
        # Ann's own browser, which signed in before, is not locked out by them...
        http.cookies.clear()
        http.cookies.set(BROWSER_COOKIE, owner_cookie)
        assert signin(http, "Ann").status_code == 200
        assert whoami(http)["name"] == "Ann"
        # ...and has a limit of its own: its own failures lock it, after as many.
        for _ in range(4):
            http.post("/api/account/signin", json={"name": "Ann", "password": "wrong guess 2"})
        assert signin(http, "Ann").status_code == 429


def test_a_made_up_browser_cookie_is_a_stranger(tmp_path):
    with browser(tmp_path, signin_per_name=2) as http:
        register(http, "Ann")
        http.cookies.clear()
        http.cookies.set(BROWSER_COOKIE, "x" * 43)
        for _ in range(3):
            http.post("/api/account/signin", json={"name": "Ann", "password": "wrong guess 1"})
        assert signin(http, "Ann").status_code == 429


def test_successful_sign_ins_are_counted_per_address(tmp_path):
    with browser(tmp_path, signins_per_address=4, signins_per_account=100) as http:
        register(http, "Ann")
        answers = [signin(http, "Ann").status_code for _ in range(5)]
        assert answers == [200, 200, 200, 200, 429]
        assert signin(http, "Ann").json()["error"] == "too_many_attempts"


def test_successful_sign_ins_are_counted_per_account(tmp_path):
    with browser(tmp_path, signins_per_account=3, signins_per_address=100) as http:
        register(http, "Ann")
        register(http, "Ben")
        answers = [signin(http, "Ann").status_code for _ in range(4)]
        assert answers == [200, 200, 200, 429]
        assert signin(http, "Ben").status_code == 200  # another account is not held up


def _session_count(http: TestClient, name: str) -> int:
    storage = http.app.state.table.storage  # type: ignore[attr-defined]

    async def count() -> int:
        import sqlalchemy as sa

        from cardtable.display_names import name_key
        from cardtable.server.storage.tables import sessions

        user = await storage.user_by_key(name_key(name))
        async with storage._engine().connect() as connection:
            found = await connection.execute(
                sa.select(sa.func.count()).where(sessions.c.user_id == user.id)
            )
            return int(found.scalar_one())

    counted: int = http.portal.call(count)  # type: ignore[union-attr]
    return counted


def test_an_account_keeps_a_bounded_number_of_live_sessions(tmp_path):
    with browser(tmp_path, sessions_per_account=3) as http:
        register(http, "Ann")
        first = http.cookies.get("cardtable_session")
        for _ in range(5):
            http.cookies.clear()  # a new browser each time: five more sessions
            assert signin(http, "Ann").status_code == 200
            http.clock.now += 1  # type: ignore[attr-defined]
        assert _session_count(http, "Ann") == 3
        http.cookies.clear()
        http.cookies.set("cardtable_session", first)
        assert whoami(http) == {"signed_in": False}  # the oldest session ended


def test_an_unknown_name_costs_the_same_password_check(tmp_path, monkeypatch):
    checked: list[str | None] = []
    real = Passwords.verify

    async def counting(self: Any, stored: str | None, password: str) -> bool:
        checked.append(stored)
        return await real(self, stored, password)

    monkeypatch.setattr(Passwords, "verify", counting)
    with browser(tmp_path) as http:
        register(http, "Ann")
        http.cookies.clear()
        assert signin(http, "Nobody", SECRET).status_code == 401
        assert signin(http, "Ann", "a wrong password").status_code == 401
    assert len(checked) == 2  # one check each: the unknown name against a dummy hash
    assert checked[0] is None and checked[1] is not None

"""The account page in Chromium: register (the seats this browser holds join the
account), stay signed in across a reload, sign out, a wrong password told in the page's
language, sign in, delete the account; the session cookie is out of the page's reach,
every change the page asks passes the table's Origin and CSRF checks, and an axe audit
of both forms of the page finds nothing serious."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from cardtable.web.catalogs import web_catalog

from ..live_server import running_server
from .pages import TIMEOUT, create_table, new_page, toast_shows
from .test_accessibility import serious

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # A cheap password hash: what is tested is the page, not Argon2's cost.
    with running_server(
        tmp_path_factory.mktemp("account-data"), password_memory_kib=64, password_time_cost=1
    ) as url:
        yield url


def fill(page: Any, form: str, name: str | None, password: str) -> None:
    if name is not None:
        page.fill(f"#{form}-name", name)
    page.fill(f"#{form}-password", password)
    page.click(f"#{form}-button")


def member(page: Any) -> str:
    page.wait_for_selector("#signed-in-as", timeout=TIMEOUT)
    text: str = page.inner_text("#signed-in-as")
    return text


def guest(page: Any) -> None:
    page.wait_for_selector("body[data-account='guest'] #signin-form", timeout=TIMEOUT)


def test_register_sign_out_sign_in_and_delete_from_the_page(server, browser):
    page = new_page(browser, server, lang="fr")
    french = web_catalog("fr")
    code = create_table(page, "skyjo", "Ann", {"players": 2}, ["greedy"])
    page.goto(server + "/#/account")
    guest(page)
    assert serious(page) == []
    fill(page, "register", "Ann Lee", PASSWORD)
    assert member(page) == french["web.account.signed_in_as"].replace("{name}", "Ann Lee")
    assert serious(page) == []
    # The seat of the table created above joined the account.
    page.wait_for_selector(
        f"#account-seats:text-is('{french['web.account.seats'].replace('{n}', '1')}')",
        timeout=TIMEOUT,
    )
    assert page.inner_text("#account-link") == "Ann Lee"
    assert "cardtable_session" not in page.evaluate("document.cookie")  # HttpOnly
    summary = page.request.get(f"{server}/api/account").json()
    assert summary["seats"] == [{"code": code, "seat": 0}]
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=TIMEOUT)
    assert member(page)
    page.click("#signout-button")
    guest(page)
    assert page.request.get(f"{server}/api/account").json() == {"signed_in": False}
    fill(page, "signin", "ann lee", "not the password")
    toast_shows(page, french["web.error.bad_credentials"])
    fill(page, "signin", None, PASSWORD)
    assert member(page)
    # A table created while signed in joins the account at once.
    page.goto(server + "/#/")
    page.wait_for_selector("#create", timeout=TIMEOUT)
    second = create_table(page, "skipbo", "Ann", {"players": 2}, ["greedy"])
    page.wait_for_function(
        "code => fetch('/api/account').then(r => r.json())"
        ".then(me => me.seats.some(s => s.code === code))",
        arg=second,
        timeout=TIMEOUT,
        polling=200,
    )
    assert {"code": second, "seat": 0} in page.request.get(f"{server}/api/account").json()["seats"]
    page.goto(server + "/#/account")
    fill(page, "delete", None, PASSWORD)
    guest(page)
    assert page.request.get(f"{server}/api/account").json() == {"signed_in": False}
    games = page.request.post(
        f"{server}/api/account/signin", data={"name": "Ann Lee", "password": PASSWORD}
    )
    assert games.status == 401
    assert page.errors == []


def test_a_refused_name_says_why_in_the_page_s_language(server, browser):
    """The server's reason for a name the rule allows but the table refuses, worded by
    the page: a mix of scripts (which ones), a bot's label, a look-alike of a taken name."""
    page = new_page(browser, server, lang="de")
    german = web_catalog("de")
    page.goto(server + "/#/account")
    guest(page)
    bad_name = german["web.error.bad_name"]
    fill(page, "register", "Iv\u0430n", PASSWORD)  # a Cyrillic a among Latin letters
    mixed = german["web.name.mixed_scripts"].replace("{scripts}", "Cyrillic, Latin")
    toast_shows(page, f"{bad_name} ({mixed})")
    fill(page, "register", "Bot \ua78f hard", PASSWORD)  # U+A78F looks like the middle dot
    reserved = german["web.name.reserved"].replace("{label}", "Bot · hard")  # as shown
    toast_shows(page, f"{bad_name} ({reserved})")
    fill(page, "register", "Bob Lane", PASSWORD)
    assert member(page)
    page.click("#signout-button")
    guest(page)
    fill(page, "register", "B0b Lane", PASSWORD)  # a zero for the O
    toast_shows(page, f"{german['web.error.name_taken']} ({german['web.name.looks_taken']})")
    assert page.errors == []

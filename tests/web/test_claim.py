"""A seat taken while signed in is claimed for the account, and the page waits for the
answer (issue 47, finding 5): a refusal is shown (the game will then be unrated), a
limit (429 with Retry-After) or a lost connection is tried again, and before the start
the lobby says whether the game will be rated, as the server judges the table. The
claim's answers are made by Playwright where a real server would not give them."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from cardtable.web.catalogs import web_catalog

from ..live_server import running_server
from .pages import TIMEOUT, create_table, new_page, toast_shows

PASSWORD = "correct horse battery"
ENGLISH = web_catalog("en")
CLAIM = "**/api/account/claim"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(
        tmp_path_factory.mktemp("claim-data"), password_memory_kib=64, password_time_cost=1
    ) as url:
        yield url


def signed_in_page(browser: Any, server: str, name: str) -> Any:
    page = new_page(browser, server)
    page.goto(server + "/#/account")
    page.fill("#register-name", name)
    page.fill("#register-password", PASSWORD)
    page.click("#register-button")
    page.wait_for_selector("#signed-in-as", timeout=TIMEOUT)
    page.goto(server + "/#/")
    page.wait_for_selector("#create", timeout=TIMEOUT)
    return page


def failed(why_key: str) -> str:
    return ENGLISH["web.claim.failed"].replace("{why}", ENGLISH[why_key])


def expected_line(page: Any, rated: bool) -> str:
    page.wait_for_selector(f"#expected-verdict[data-rated='{str(rated).lower()}']", timeout=TIMEOUT)
    text: str = page.inner_text("#expected-verdict")
    return text


def test_a_refused_claim_is_shown_and_the_lobby_says_unrated(server, browser):
    page = signed_in_page(browser, server, "Ann")
    refusal = {"claimed": [], "refused": [{"code": "x", "error": "second_seat"}]}
    page.route(
        CLAIM,
        lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(refusal)
        ),
    )
    create_table(page, "skyjo", "Ann", {"players": 2}, ["greedy"])
    toast_shows(page, failed("web.error.second_seat"))
    page.wait_for_selector("#claim-trouble", timeout=TIMEOUT)
    assert page.inner_text("#claim-trouble") == failed("web.error.second_seat")
    # The server never saw a claim: the seat is a guest's, and the lobby says so.
    line = expected_line(page, False)
    assert ENGLISH["web.lobby.will_not_be_rated"] in line
    assert ENGLISH["web.rated.reason.guest_seat"] in line
    assert page.errors == []
    page.context.close()


def test_a_limited_claim_is_tried_again_after_retry_after(server, browser):
    page = signed_in_page(browser, server, "Ben")
    asked: list[float] = []

    def limit_once(route: Any) -> None:
        asked.append(time.monotonic())
        if len(asked) == 1:
            route.fulfill(
                status=429,
                headers={"Retry-After": "1"},
                content_type="application/json",
                body=json.dumps({"error": "too_many_requests", "reason": "slow down"}),
            )
        else:
            route.continue_()

    page.route(CLAIM, limit_once)
    create_table(page, "skyjo", "Ben", {"players": 2}, ["greedy"])
    line = expected_line(page, True)  # claimed at the second try: the table is rated
    assert line == ENGLISH["web.lobby.will_be_rated"].replace(
        "{ladder}", ENGLISH["web.board.ladder_skyjo"]
    )
    assert len(asked) == 2 and asked[1] - asked[0] >= 0.9  # after the Retry-After
    assert page.locator("#claim-trouble").count() == 0
    assert page.errors == []
    page.context.close()


def test_a_claim_that_never_gets_through_is_tried_a_few_times_then_shown(server, browser):
    page = signed_in_page(browser, server, "Cid")
    tries: list[int] = []

    def lost(route: Any) -> None:
        tries.append(1)
        route.abort("connectionreset")

    page.route(CLAIM, lost)
    create_table(page, "skyjo", "Cid", {"players": 2}, ["greedy"])
    page.wait_for_selector("#claim-trouble", timeout=TIMEOUT + 10_000)
    assert page.inner_text("#claim-trouble") == failed("web.error.network")
    assert len(tries) == 4  # CLAIM_TRIES in account.js: bounded
    assert ENGLISH["web.rated.reason.guest_seat"] in expected_line(page, False)
    page.context.close()

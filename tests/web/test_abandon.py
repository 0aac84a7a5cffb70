"""Closing the tab does not dodge a rated loss (issue 47, finding 2): a signed-in
player starts a rated game (standard rules, against a bot of a level) and closes the
tab; past the grace period a bot plays the seat to the end, and the game is rated with
that player last, whatever the bot made of the cards: their rating goes down, as their
profile shows. (A rated game cannot be shortened: a shorter stock or a lower end score
is a house rule, unrated; a 2-player Skyjo game of bots takes a few seconds.)"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from ..live_server import running_server
from .pages import TIMEOUT, create_table, new_page, start

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(
        tmp_path_factory.mktemp("abandon-data"),
        password_memory_kib=64,
        password_time_cost=1,
        grace_seconds=0.2,  # a closed tab, not a dropped connection
    ) as url:
        yield url


def test_closing_the_tab_in_a_rated_game_rates_the_leaver_last(server, browser):
    page = new_page(browser, server)
    page.goto(server + "/#/account")
    page.fill("#register-name", "Ann")
    page.fill("#register-password", PASSWORD)
    page.click("#register-button")
    page.wait_for_selector("#signed-in-as", timeout=TIMEOUT)
    page.goto(server + "/#/")
    page.wait_for_selector("#create", timeout=TIMEOUT)
    code = create_table(page, "skyjo", "Ann", {"players": 2}, ["greedy"])
    page.wait_for_selector("#expected-verdict[data-rated='true']", timeout=TIMEOUT)
    start(page)
    context = page.context
    page.close()  # the tab, mid-game

    deadline = time.monotonic() + 90
    while True:  # the bot finishes the game, then it is judged
        recent = context.request.get(f"{server}/api/players/Ann").json()["recent"]
        if recent and recent[0]["rating_change"] is not None:
            break
        assert time.monotonic() < deadline, "the game was never rated"
        time.sleep(0.25)
    result = context.request.get(f"{server}/api/rooms/{code}/games/1").json()["result"]
    assert result["stand_in_moves"]["0"] > 5  # the bot played the seat: abandoned
    game = recent[0]
    assert game["rated"] is True and game["ladder"] == "skyjo"
    assert game["rating_change"] < 0  # last, even if the bot won the cards for Ann

    # Ann's profile in a new tab says the same.
    profile = context.new_page()
    profile.goto(server + "/#/player/Ann")
    profile.wait_for_selector("#profile-recent tbody tr td.change", timeout=TIMEOUT)
    shown = profile.inner_text("#profile-recent tbody tr td.change")
    assert shown == f"\u2212{-game['rating_change']}"
    context.close()

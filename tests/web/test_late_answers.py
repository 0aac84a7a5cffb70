"""A page waiting for the server is left before the answer comes (the answer held back
with ``page.route``): the answer, when it comes, does not replace the page the user went
to. For the profile, the leaderboard and the replay, the pages that fetch as they open."""

from __future__ import annotations

from typing import Any

import pytest

from .pages import TIMEOUT, new_page

#: (what is held back, the page that asks for it, the page the user goes to instead and
#: what shows that page).
CASES = {
    "profile": ("**/api/players/**", "#/player/Nobody", "#/leaderboard", "#board"),
    "leaderboard": ("**/api/leaderboard/**", "#/leaderboard/skipbo", "#/rules/skyjo", ".rules"),
    "replay": ("**/api/rooms/*/games/*", "#/replay/ABCDEF/1", "#/learn", ".learnlist"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_late_answer_does_not_replace_the_page_the_user_went_to(server, browser, case):
    held_back, asking, destination, shown = CASES[case]
    page = new_page(browser, server)
    held: list[Any] = []

    def hold(route: Any) -> None:  # (Playwright takes no bound method of a list)
        held.append(route)

    page.route(held_back, hold)
    page.evaluate("hash => { location.hash = hash; }", asking)
    for _ in range(int(TIMEOUT / 50)):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, f"the {case} page asked nothing"
    page.evaluate("hash => { location.hash = hash; }", destination)
    page.wait_for_selector(shown, timeout=TIMEOUT)
    drawn = page.evaluate("document.querySelector('#app').innerHTML")
    held[0].continue_()  # the answer comes now
    page.wait_for_timeout(500)
    assert page.evaluate("location.hash") == destination
    assert page.evaluate("document.querySelector('#app').innerHTML") == drawn
    assert page.errors == []

"""An axe-core audit (axe-playwright-python) of the home page, a lobby, a Skip-Bo table, a
Skyjo table, the lessons and a player's profile: no serious or critical violation; cards
have accessible names."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

from .pages import LESSON_AT, TIMEOUT, create_table, device_page, new_page, start, until
from .seatplay import play_seat_to_end, seat_token

# Where browser tests are required (CI), the audit is too: a missing package fails.
if os.environ.get("CARDTABLE_BROWSER_TESTS") == "required":
    import axe_playwright_python.sync_playwright as axe_sync
else:
    axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")


def serious(page: Any) -> list[str]:
    results = axe_sync.Axe().run(page)
    assert len(results.response["passes"]) > 10  # the audit did run over the page
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def test_home_and_lobby(server, browser):
    page = new_page(browser, server)
    assert serious(page) == []
    create_table(page, "skyjo", "Alice", {"players": 3}, ["greedy", "human"])
    assert serious(page) == []
    page.context.close()


@pytest.mark.parametrize("game", ["skipbo", "skyjo"])
def test_a_table(server, browser, game):
    page = new_page(browser, server)
    options: dict[str, Any] = {"players": 2}
    if game == "skipbo":
        options.update(stock_size=5, first_player=0)  # the bot cannot win before our move
    create_table(page, game, "Alice", options, ["greedy"])
    start(page)
    page.wait_for_selector(".src-legal, .tgt-legal", timeout=TIMEOUT)
    page.wait_for_function("!document.querySelector('.ghost, .landing')", timeout=TIMEOUT)
    assert serious(page) == []
    # Every card and pile on the table has a name a screen reader says.
    unnamed = page.eval_on_selector_all(
        ".board [data-id]",
        "els => els.filter(e => !(e.getAttribute('aria-label') || '').trim())"
        ".map(e => e.dataset.id)",
    )
    assert unnamed == [] or all(i.startswith("handof:") for i in unnamed)
    # Named by what a player needs: where a card is and what it shows, whose pile it is,
    # its top card and how many cards it holds.
    if game == "skyjo":
        cell = page.get_attribute('[data-id="cell:0:5"]', "aria-label")
        assert re.fullmatch(r"row 2, column 2: (face down|-?\d+)", cell), cell
        grid = page.locator('[data-id="cell:0:5"]').evaluate("e => e.closest('.grid').ariaLabel")
        assert grid == "Your grid"
    else:
        stock = page.get_attribute('[data-id="stock:0"]', "aria-label")
        assert re.fullmatch(r"Your stock pile: top card (\d+|Skip-Bo card), 5 cards", stock), stock
    page.context.close()


def test_the_lessons(server, browser):
    page = new_page(browser, server, lang="fr")
    page.goto(server + "/#/learn")
    page.wait_for_selector("#learn-skipbo", timeout=TIMEOUT)
    assert serious(page) == []
    page.click("#learn-skipbo")
    until(page, LESSON_AT, [0, 0])
    page.click('[data-id="hand:5"]')  # a wrong move (a discard): its explanation is shown
    page.click('[data-id="disc:0:0"]')
    page.wait_for_selector("#lesson-feedback.wrong", timeout=TIMEOUT)
    assert serious(page) == []
    assert page.get_attribute("#lesson-quote", "lang") == "fr"
    page.context.close()


def test_the_offline_page(server, browser):
    page = new_page(browser, server, lang="it")
    page.goto(server + "/offline")
    page.wait_for_selector("body[data-offline='it']", timeout=TIMEOUT)
    assert serious(page) == []
    page.context.close()


def test_a_player_profile(server, browser):
    """After a rated game: the ratings with their plot, the tables of games, on a phone
    (the tables scroll sideways, each a region the keyboard reaches) and a laptop."""
    page = device_page(browser, server, "phone")
    page.goto(server + "/#/account")
    page.fill("#register-name", "Axel")
    page.fill("#register-password", "correct horse battery")
    page.click("#register-button")
    page.wait_for_selector("#profile-link", timeout=TIMEOUT)
    page.goto(server + "/#/")
    code = create_table(page, "skyjo", "Axel", {"players": 2}, ["greedy"])
    start(page)
    assert play_seat_to_end(server, code, seat_token(page, code))["rated"]
    page.goto(server + "/#/player/Axel")
    page.wait_for_selector("svg.ratingplot", timeout=TIMEOUT)
    assert serious(page) == []
    page.set_viewport_size({"width": 1280, "height": 900})
    assert serious(page) == []
    page.context.close()

"""The table fits the window: every player count of both games at 1280x800 and 1920x1080
without page scroll (no seat outside the window), and on a 375x812 phone one's own area,
the piles in the middle and the turn bar on screen. Screenshots of each layout are kept
in artifacts/screenshots (not committed) for a reviewer."""

from __future__ import annotations

from typing import Any

import pytest

from .pages import TIMEOUT, create_table, start

DESKTOP = [(1280, 800), (1920, 1080)]
TABLES = (
    [("skyjo", n, False) for n in range(2, 9)]
    + [("skipbo", n, False) for n in range(2, 7)]
    + [("skipbo", 4, True), ("skipbo", 6, True)]
)


def open_table(
    browser: Any,
    server: str,
    size: tuple[int, int],
    game: str,
    players: int,
    teams: bool,
    phone: bool = False,
    page: Any = None,
) -> Any:
    """A started table of ``game`` on a page of a new context, or on ``page`` again (a
    context's first load of the page costs seconds under load, a later one a fraction)."""
    if page is None:
        width, height = size
        context = browser.new_context(
            viewport={"width": width, "height": height},
            locale="en",
            bypass_csp=True,
            has_touch=phone,
            is_mobile=phone,
        )
        context.add_init_script("localStorage.setItem('cardtable.lang', 'en')")
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.errors = errors
    page.goto(server + "/")
    page.wait_for_selector("#create", timeout=TIMEOUT)
    options: dict[str, Any] = {"players": players}
    if game == "skipbo":
        options["stock_size"] = 10
        if teams:
            options["teams"] = True
    create_table(page, game, "Alice", options, ["greedy"] * (players - 1))
    start(page)
    page.wait_for_function("document.querySelectorAll('[data-seat]').length > 0", timeout=TIMEOUT)
    return page


def outside(page: Any, selector: str) -> list[str]:
    found: list[str] = page.eval_on_selector_all(
        selector,
        """els => els.filter(e => {
          const r = e.getBoundingClientRect();
          return r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight;
        }).map(e => `${e.dataset.seat || e.className} ${e.getBoundingClientRect().top}`)""",
    )
    return found


@pytest.mark.parametrize("size", DESKTOP, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_player_count_fits_the_window(server, browser, shots, size):
    page = None  # one page, from table to table (an error on any stays in page.errors)
    for game, players, teams in TABLES:
        page = open_table(browser, server, size, game, players, teams, page=page)
        name = f"layout-{game}-{players}{'-teams' if teams else ''}-{size[0]}x{size[1]}.png"
        page.screenshot(path=shots / name)
        scroll = page.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
        )
        assert scroll[0] <= size[0] and scroll[1] <= size[1], (name, scroll)
        assert page.locator("[data-seat]").count() == players
        assert outside(page, "[data-seat], .board, #turnbar") == [], name
        # Cards stay a readable size.
        card = page.locator("[data-seat] .card").first.bounding_box()
        assert card["width"] >= 20, (name, card)
        assert not page.errors, name
    page.context.close()


@pytest.mark.parametrize("game", ["skipbo", "skyjo"])
def test_a_phone_shows_one_s_own_area_the_piles_and_the_turn(server, browser, shots, game):
    page = open_table(browser, server, (375, 812), game, 2, False, phone=True)
    page.screenshot(path=shots / f"layout-{game}-2-phone-375x812.png")
    middle = ".building" if game == "skipbo" else ".center"
    own = ".player.mine" if game == "skipbo" else ".gridbox.mine"
    assert outside(page, f"{own}, {middle}, #turnbar") == []
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375
    assert not page.errors
    page.context.close()


PHONE_TABLES = [
    ("skipbo", 3, False),
    ("skipbo", 4, True),
    ("skipbo", 6, False),
    ("skyjo", 3, False),
    ("skyjo", 5, False),
    ("skyjo", 8, False),
]


@pytest.mark.parametrize(
    "game, players, teams",
    PHONE_TABLES,
    ids=[f"{g}-{n}{'-teams' if t else ''}" for g, n, t in PHONE_TABLES],
)
def test_a_phone_shows_the_other_players_compact_and_opens_one_when_tapped(
    server, browser, shots, game, players, teams
):
    page = open_table(browser, server, (375, 812), game, players, teams, phone=True)
    page.wait_for_selector("[data-seat].compact .seattoggle", timeout=TIMEOUT)
    name = f"layout-{game}-{players}{'-teams' if teams else ''}-phone-375x812.png"
    page.screenshot(path=shots / name)
    middle = ".building" if game == "skipbo" else ".center"
    own = ".ours" if game == "skipbo" else ".gridbox.mine"  # with the hand
    # One's own area, the piles, the turn bar and whoever is playing: all on screen.
    assert outside(page, f"{own}, {middle}, #turnbar, .player.turn, .gridbox.turn") == [], name
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    # Every other player not on one's team is one line, with no piles or grid.
    others = players - (2 if teams else 1)
    assert page.locator("[data-seat].compact").count() == others, name
    assert (
        page.locator("[data-seat].compact [data-id^='disc:'], [data-seat].compact .grid").count()
        == 0
    )
    # A tap opens one, another tap closes it again.
    toggle = page.locator("[data-seat].compact .seattoggle").first
    seat = toggle.evaluate("b => b.closest('[data-seat]').dataset.seat")
    opened = f"[data-seat='{seat}'].compact.open"
    toggle.tap()
    page.wait_for_selector(opened, timeout=TIMEOUT)
    assert toggle.get_attribute("aria-expanded") == "true"
    inside = ".grid" if game == "skyjo" else f"[data-id^='disc:{seat}:']"
    assert page.locator(f"{opened} {inside}").count() >= 1
    page.screenshot(path=shots / name.replace(".png", "-open.png"))
    toggle.tap()
    page.wait_for_function(f'!document.querySelector("{opened}")', timeout=TIMEOUT)
    assert toggle.get_attribute("aria-expanded") == "false"
    assert not page.errors
    page.context.close()

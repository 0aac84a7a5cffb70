"""What the Skip-Bo view says of the deal and of a round running dry, shown on the page:
sheet 003's draw for the deal (the view's `cut`) opens the game log, the dealer (`dealer`)
is marked at their seat, and once nothing is left to draw the turns without a card built
(`idle_turns`) are counted against the house rule's limit."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.i18n import LANGUAGES
from cardtable.skipbo import SkipBoRules, SkipBoState
from cardtable.skipbo.view import build_view
from cardtable.web.catalogs import browser_catalog

from .pages import TIMEOUT, create_table, new_page, start


def test_the_draw_for_the_deal_opens_the_log_and_the_dealer_is_marked(server, browser, shots):
    page = new_page(browser, server)
    code = create_table(
        page,
        "skipbo",
        "Alice",
        {"players": 3, "stock_size": 5, "high_card_deal": True},
        ["greedy", "greedy"],
    )
    start(page)
    page.wait_for_selector(".badge.dealer", timeout=TIMEOUT)
    view = page.request.get(f"{server}/api/rooms/{code}/games/1/steps/0").json()["view"]
    assert view["cut"] and view["dealer"] is not None
    words = browser_catalog("en")
    names = [
        "Alice (you)",
        *(words["web.seat.bot"].format(level=words["web.bot.greedy"], n=n) for n in (2, 3)),
    ]

    def card(value: int) -> str:
        return words["web.card.wild"] if value == 0 else str(value)

    draws = f"; {words['web.skipbo.cut_then']} ".join(
        ", ".join(f"{names[seat]} {card(value)}" for seat, value in draw) for draw in view["cut"]
    )
    oldest = page.locator(".loglist li").last
    page.locator("details.log").evaluate("d => d.open = true")
    assert oldest.inner_text() == words["web.log.skipbo.cut"].format(draws=draws)
    # One dealer badge, at the dealer's seat (the player left of them started).
    assert page.locator(".badge.dealer").count() == 1
    dealer = page.locator(".badge.dealer").evaluate("b => b.closest('[data-seat]').dataset.seat")
    assert dealer == str(view["dealer"])
    page.screenshot(path=shots / "skipbo-dealer.png")
    assert not page.errors
    page.context.close()


def test_a_table_without_the_draw_has_no_dealer_and_no_draw_line(server, browser):
    page = new_page(browser, server)
    create_table(page, "skipbo", "Alice", {"players": 2, "stock_size": 5}, ["greedy"])
    start(page)
    page.wait_for_selector(".src-legal, .handcard", timeout=TIMEOUT)
    assert page.locator(".badge.dealer").count() == 0
    lines = page.locator(".loglist li").all_inner_texts()
    assert not [line for line in lines if line.startswith("Draw for the deal")]
    page.context.close()


# The page draws a board from a view; the view of a round with nothing left to draw and
# three turns without a build is made by the engine itself.
RENDER = """([view, lang]) => Promise.all([
    pageModule("skipbo.js"), pageModule("i18n.js")])
  .then(async ([skipbo, i18n]) => {
    await i18n.loadLanguage(lang);
    const ctx = { me: 0, name: (s) => `P${s}`, presence: () => null, interactive: false,
                  compact: false, expanded: () => false, toggle: () => {} };
    const board = skipbo.render(view, ctx);
    const line = board.querySelector(".warning.idle");
    return line ? line.textContent.trim() : null;
  })"""


def idle_view(idle: int, edition: int = 2) -> dict[str, Any]:
    state = SkipBoState.new(SkipBoRules(players=2, stock_size=5, idle_limit=40, edition=edition), 7)
    state.idle = idle
    view: dict[str, Any] = build_view(state, 0)
    return view


@pytest.mark.parametrize("lang", LANGUAGES)
def test_turns_without_a_build_are_counted_against_the_limit(server, browser, lang):
    page = new_page(browser, server, lang=lang)
    words = browser_catalog(lang)
    assert page.evaluate(RENDER, [idle_view(0), lang]) is None
    for idle, form in ((1, "one"), (3, "other")):
        shown = page.evaluate(RENDER, [idle_view(idle), lang])
        assert shown == words[f"web.skipbo.idle.{form}"].format(count=idle, limit=40), shown
    # A replay of rules edition 1 (blocked after one idle turn per seat) shows no count.
    assert page.evaluate(RENDER, [idle_view(1, edition=1), lang]) is None
    assert not page.errors
    page.context.close()

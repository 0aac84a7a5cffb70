"""What belongs to the reader is "yours" in every language ("Your stock pile", "Votre
talon", "Dein Spielerstapel", "Il tuo mazzo"), never "Alice (you)'s stock pile"."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.i18n import LANGUAGES
from cardtable.web.catalogs import browser_catalog

from .pages import TIMEOUT, create_table, new_page, start


def _switch(page: Any, lang: str) -> None:
    page.select_option("#lang", lang)
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)


def _labels(page: Any) -> list[str]:
    found: list[str] = page.eval_on_selector_all(
        ".board [aria-label]", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    return found


def test_the_reader_s_own_piles_are_named_as_theirs_in_every_language(server, browser):
    page = new_page(browser, server, lang="en")
    create_table(page, "skipbo", "Alice", {"players": 2, "stock_size": 5}, ["greedy"])
    start(page)
    for lang in LANGUAGES:
        _switch(page, lang)
        words = browser_catalog(lang)
        you = words["web.seat.you"].format(name="Alice")
        page.wait_for_function(
            "text => document.querySelector('.player.mine .discards')"
            ".getAttribute('aria-label') === text",
            arg=words["web.skipbo.discards_of_you"],
            timeout=TIMEOUT,
        )
        labels = _labels(page)
        assert not [label for label in labels if you in label and label != you], (lang, labels)
        stock = page.get_attribute('[data-id="stock:0"]', "aria-label")
        mine = words["web.skipbo.stock_pile_you.other"].split("{")[0]
        assert stock.startswith(mine), (lang, stock)
        # The other player's piles keep their owner's name.
        theirs = page.get_attribute('[data-id="stock:1"]', "aria-label")
        assert theirs.startswith(words["web.skipbo.stock_pile.other"].split("{")[0]), theirs
        pile = page.get_attribute('[data-id="disc:0:0"]', "aria-label")
        assert pile.startswith(words["web.skipbo.discard_empty_you"].split("{")[0]), (lang, pile)
    assert not page.errors
    page.context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_log_lines_about_the_reader_s_things_say_yours(server, browser, lang):
    page = new_page(browser, server, lang=lang)
    words = browser_catalog(lang)
    text = """([key, params, me]) => pageModule("words.js").then((m) =>
        m.lineText({ seat: 0, parts: [{ key, params }] }, (s) => ["Alice", "Bob"][s], me))"""
    emptied = ["web.log.skipbo.stock_emptied", {"name": {"seat": 0}}]
    assert page.evaluate(text, [*emptied, 0]) == words["web.log.skipbo.stock_emptied_you"]
    assert page.evaluate(text, [*emptied, 1]) == words["web.log.skipbo.stock_emptied"].format(
        name="Alice"
    )
    assert page.evaluate(text, [*emptied, None]) == words["web.log.skipbo.stock_emptied"].format(
        name="Alice"
    )
    discarded = [
        "web.log.skipbo.discarded",
        {"name": {"seat": 1}, "card": 5, "pile": 2, "owner": {"seat": 0}},
    ]
    assert page.evaluate(text, [*discarded, 0]) == words["web.log.skipbo.discarded_you"].format(
        name="Bob", card=5, pile=2
    )
    row = ["web.log.skyjo.row", {"name": {"seat": 0}, "card": 4, "row": 3}]
    assert page.evaluate(text, [*row, 0]) == words["web.log.skyjo.row_you"].format(card=4, row=3)
    assert page.evaluate(text, [*row, 1]) == words["web.log.skyjo.row"].format(
        name="Alice", card=4, row=3
    )
    assert not page.errors
    page.context.close()

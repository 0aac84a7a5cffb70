"""Server errors that are not the engine's refusals are told in the page's language from
their code (and, for a refused option, what it allows), never with the server's English
reason; they are worded again when the language changes."""

from __future__ import annotations

from typing import Any

from cardtable.web.catalogs import browser_catalog, web_catalog

from .pages import MISSING, TIMEOUT, create_table, new_page, start, toast_shows
from .test_lobby_options import set_option

SEND = """async ([action, back]) => { const conn = (await shownPage()).room.conn;
  conn.send({type: "move", token: conn.token, version: conn.version - back, action}); }"""


def _switch(page: Any, lang: str) -> None:
    page.select_option("#lang", lang)
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)


def test_stale_version_and_bad_move_are_told_in_french_then_german(server, browser):
    page = new_page(browser, server, lang="fr")
    create_table(page, "skyjo", "Alice", {"players": 2}, ["greedy"])
    start(page)
    page.wait_for_selector(".tgt-legal", timeout=TIMEOUT)  # our set-up turn
    legal = page.evaluate("async () => (await shownPage()).room.conn.version")
    assert legal > 1
    # A move sent for an older version: the server says "the room is at version ...".
    page.evaluate(SEND, [14, 1])
    stale = web_catalog("fr")["web.error.stale_version"]
    assert toast_shows(page, stale) == "La table a changé : la revoici"
    # An action code outside the game: the server's reason is the engine's English.
    page.evaluate(SEND, [99_999, 0])
    shown = toast_shows(page, web_catalog("fr")["web.error.bad_move"])
    assert "(" not in shown and "action" not in shown
    _switch(page, "de")
    assert toast_shows(page, web_catalog("de")["web.error.bad_move"]) == "Kein Zug dieses Spiels"
    assert page.evaluate(MISSING) == []
    assert not page.errors


def test_a_refused_option_says_what_it_allows_in_the_page_s_language(server, browser):
    host = new_page(browser, server, lang="it")
    create_table(host, "skipbo", "Alice", {"players": 3, "stock_size": 25}, ["human", "human"])
    # Six players leave room for 22 stock cards each: the server refuses the stock size.
    set_option(host, "players", 6)
    error = host.locator("#lobby-opt-stock_size-error")
    error.wait_for(timeout=TIMEOUT)
    allowed = browser_catalog("it")["allowed.optional_int"].format(low=5, high=22)
    assert allowed == "auto (vuoto) o un numero intero da 5 a 22"
    assert allowed in error.inner_text()
    assert "integer" not in error.inner_text() and "null or" not in error.inner_text()
    _switch(host, "fr")
    host.wait_for_function(
        "text => document.querySelector('#lobby-opt-stock_size-error').textContent.includes(text)",
        arg="auto (vide) ou un nombre entier de 5 à 22",
    )
    # In English the same words as the engine's.
    _switch(host, "en")
    host.wait_for_function(
        "text => document.querySelector('#lobby-opt-stock_size-error').textContent.includes(text)",
        arg="(null or an integer from 5 to 22)",
    )
    assert not host.errors


def test_an_unknown_code_falls_back_to_the_english_reason(server, browser):
    page = new_page(browser, server, lang="fr")
    words = """data => pageModule("roomtext.js").then((m) => m.errorText(data))"""
    shown = page.evaluate(words, {"code": "brand_new", "reason": "a reason in English"})
    assert shown == f"{web_catalog('fr')['web.error.unknown']} (a reason in English)"
    known = page.evaluate(words, {"code": "not_your_turn", "reason": "it is seat 1's turn"})
    assert known == "Ce n'est pas votre tour"
    assert not page.errors

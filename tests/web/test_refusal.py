"""A refused move is told in the page's language, worded again when the language changes,
with no English left in it; Skip-Bo cards are named with their article in each language."""

from __future__ import annotations

import functools

from cardtable.core import Refusal
from cardtable.i18n import translate
from cardtable.i18n.refusals import render_refusal
from cardtable.skipbo import GAME as SKIPBO
from cardtable.skipbo import PlayFromDiscard
from cardtable.skyjo.moves import DRAW
from cardtable.web.catalogs import web_catalog

from .pages import MISSING, SHORT_GAMES, TIMEOUT, create_table, new_page, start

SEND = """async (action) => { const conn = (await shownPage()).room.conn;
  conn.send({type: "move", token: conn.token, version: conn.version, action}); }"""
WORDS = (
    """([key, params]) => pageModule("words.js")"""
    """.then((m) => m.refusalText(key, params))"""
)


def _expected(lang: str, refusal: Refusal) -> str:
    head = web_catalog(lang)["web.error.illegal_move"]
    return f"{head} ({render_refusal(refusal, functools.partial(translate, lang))})"


def _switch(page, lang: str) -> None:
    page.select_option("#lang", lang)
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)


def test_a_refused_move_is_told_in_french_after_english(server, browser):
    page = new_page(browser, server)
    create_table(page, "skyjo", "Alice", {"players": 2}, ["greedy"])
    start(page)
    page.wait_for_selector(".tgt-legal", timeout=TIMEOUT)  # our set-up turn
    page.evaluate(SEND, DRAW)  # drawing before the set-up is done
    toast = page.locator("#toast")
    toast.wait_for(state="visible", timeout=TIMEOUT)
    refusal = Refusal.of("refusal.skyjo.setup_first")
    assert toast.inner_text() == _expected("en", refusal)
    assert toast.inner_text() == (
        "Move refused (the round has not started: each player first turns two cards face up)"
    )
    _switch(page, "fr")
    page.wait_for_function("document.querySelector('#toast').textContent.startsWith('Coup')")
    assert toast.inner_text() == _expected("fr", refusal)
    assert "round" not in toast.inner_text()
    assert page.evaluate(MISSING) == []
    assert not page.errors


def test_a_skip_bo_refusal_and_its_cards_in_german_and_english(server, browser):
    page = new_page(browser, server, lang="de")
    create_table(page, "skipbo", "Alice", SHORT_GAMES["skipbo"], ["greedy"])
    start(page)
    page.wait_for_selector("#hint", timeout=TIMEOUT)  # shown on our turn only
    page.evaluate(SEND, SKIPBO.encode(PlayFromDiscard(discard=2, pile=0)))
    toast = page.locator("#toast")
    toast.wait_for(state="visible", timeout=TIMEOUT)
    empty = Refusal.of("refusal.skipbo.discard_empty", discard=3)
    assert (
        toast.inner_text()
        == _expected("de", empty)
        == "Zug abgelehnt (dein Hilfsstapel 3 ist leer)"
    )
    # The cards of a refusal with their article, as the Python clients word them.
    for lang in ("de", "en", "it"):
        if lang != "de":
            _switch(page, lang)
        for needed, card in ((8, 0), (3, 11), (12, 5)):
            refusal = Refusal.of("refusal.skipbo.pile_needs", pile=2, needed=needed, card=card)
            shown = page.evaluate(WORDS, [refusal.key, dict(refusal.params)])
            assert shown == render_refusal(refusal, functools.partial(translate, lang)), lang
    assert shown == "il mazzo di costruzione 2 richiede un 12, non un 5"
    assert page.evaluate(MISSING) == []
    assert not page.errors

"""The hint button: the server's move advisor stars a legal move for the seat to move."""

from __future__ import annotations

import json
import re

from .pages import (
    SHORT_GAMES,
    TIMEOUT,
    click_id,
    create_table,
    ids,
    new_page,
    reason_pattern,
    start,
    version,
    wait_change,
)


def test_hint_button_stars_a_legal_move_that_can_be_played(server, browser, shots):
    page = new_page(browser, server)
    create_table(page, "skipbo", "Alice", SHORT_GAMES["skipbo"], ["greedy"])
    start(page)
    page.wait_for_selector("#hint", timeout=TIMEOUT)  # shown on our turn only
    sources = ids(page, ".src-legal")
    page.click("#hint")
    page.wait_for_selector(".hinted", timeout=TIMEOUT)
    banner = page.inner_text("#turnbar .banner")
    assert "Suggested" in banner and "%" in banner, banner
    page.screenshot(path=shots / "skipbo-hint.png", full_page=True)
    hinted = ids(page, ".hinted")
    source = next(ident for ident in hinted if ident in sources)  # the move starts on a legal card
    before = version(page)
    click_id(page, source)
    targets = [ident for ident in ids(page, ".hinted") if ident != source]
    if targets:
        assert set(targets) <= set(ids(page, ".tgt-legal"))
        click_id(page, targets[0])
    wait_change(page, before)
    assert not page.errors


WHY = {"en": "Why: {reason}", "fr": "Pourquoi : {reason}"}


def test_the_hint_s_reason_is_worded_again_in_french(server, browser):
    page = new_page(browser, server)
    create_table(page, "skyjo", "Alice", {"players": 2}, ["greedy"])
    start(page)
    page.wait_for_selector("#hint", timeout=TIMEOUT)
    page.click("#hint")
    page.wait_for_selector("#hint-reason", timeout=TIMEOUT)
    reason = page.locator("#hint-reason")
    parts = json.loads(reason.get_attribute("data-parts"))
    assert parts and all(part["key"].startswith("advice.skyjo.") for part in parts)
    english = reason.inner_text()
    assert reason_pattern("en", WHY["en"], parts).match(english), english
    page.select_option("#lang", "fr")
    page.wait_for_function(
        "document.querySelector('#hint-reason')?.textContent.startsWith('Pourquoi')",
        timeout=TIMEOUT,
    )
    french = reason.inner_text()
    assert reason_pattern("fr", WHY["fr"], parts).match(french), french
    assert page.locator("#hint-reason [lang=en]").count() == 0
    assert "Conseil" in page.inner_text("#turnbar .banner")
    assert not page.errors


def test_the_hint_button_at_a_rated_table_says_what_it_would_cost(server, browser):
    rated = new_page(browser, server)
    create_table(rated, "skyjo", "Alice", {"players": 2}, ["greedy"])  # the ladder's rules
    start(rated)
    rated.wait_for_selector("#hint", timeout=TIMEOUT)
    cost = rated.locator("#hint-cost")
    assert cost.inner_text() == "makes this game unrated"
    assert rated.get_attribute("#hint", "aria-describedby") == "hint-cost"
    rated.click("#hint")
    told = re.compile(r"asked for a hint: this game is no longer rated\.$")
    rated.get_by_text(told).first.wait_for(timeout=TIMEOUT)
    rated.wait_for_selector("#hint-cost", state="detached", timeout=TIMEOUT)  # said once
    unrated = new_page(browser, server)
    create_table(unrated, "skipbo", "Bea", SHORT_GAMES["skipbo"], ["greedy"])  # house rules
    start(unrated)
    unrated.wait_for_selector("#hint", timeout=TIMEOUT)
    assert unrated.locator("#hint-cost").count() == 0
    assert not rated.errors and not unrated.errors

"""The post-game review: on the final scores, a player asks how their moves compare."""

from __future__ import annotations

import json
import re

from .pages import (
    SHORT_GAMES,
    TIMEOUT,
    create_table,
    new_page,
    play_until_over,
    reason_pattern,
    skipbo_step,
    start,
)

#: A review of a whole short game runs in the server's bot threads: give it time.
REVIEW_TIMEOUT = 90_000


def test_review_my_moves_lists_the_costliest_with_the_better_move(server, browser, shots):
    page = new_page(browser, server)
    code = create_table(page, "skipbo", "Alice", SHORT_GAMES["skipbo"], ["greedy"])
    start(page)
    play_until_over([page], skipbo_step)
    page.wait_for_selector("#review:not([disabled])", timeout=TIMEOUT)
    assert page.inner_text("#review") == "Review my moves"
    page.click("#review")
    page.wait_for_selector("#review-list", timeout=REVIEW_TIMEOUT)
    section = page.locator("#review-list")
    assert section.locator("h3").inner_text() == "Your moves, reviewed"
    summary = section.locator("p").first.inner_text()
    reviewed, decisions, best = map(int, re.findall(r"\d+", summary)[:3])
    assert 0 < reviewed <= decisions and best <= reviewed
    items = section.locator("li.reviewed")
    if items.count():
        assert items.count() <= 5 and best < reviewed  # a listed move cost something
        for index in range(items.count()):
            text = items.nth(index).inner_text()
            assert re.search(r"This move cost you about [\d.]+% of your chance to win", text)
            assert re.search(r"^Move \d+: ", text) and "Better: " in text and "Why: " in text
    else:
        assert best == reviewed
        assert "None of the reviewed moves cost you" in section.inner_text()
    assert page.locator("#review").count() == 0  # asked and answered
    page.screenshot(path=shots / "skipbo-review.png", full_page=True)

    # A spectator of the finished game gets the final scores but no review button.
    viewport = {"width": 1280, "height": 900}
    watcher = browser.new_context(viewport=viewport, bypass_csp=True).new_page()
    watcher.goto(f"{server}/r/{code}/watch")
    watcher.wait_for_selector(".match-summary", timeout=TIMEOUT)
    watcher.wait_for_selector("#replay", timeout=TIMEOUT)
    assert watcher.locator("#review").count() == 0
    assert not page.errors


def test_the_review_speaks_the_page_s_language(server, browser):
    page = new_page(browser, server, lang="fr")
    create_table(page, "skipbo", "Aline", SHORT_GAMES["skipbo"], ["greedy"])
    start(page)
    play_until_over([page], skipbo_step)
    page.wait_for_selector("#review:not([disabled])", timeout=TIMEOUT)
    assert page.inner_text("#review") == "Analyser mes coups"
    page.click("#review")
    page.wait_for_selector("#review-list", timeout=REVIEW_TIMEOUT)
    text = page.inner_text("#review-list")
    # Counted as French counts: "1 décision", "2 décisions", "le meilleur coup 1 fois".
    assert "Vos coups analysés" in text
    assert re.search(
        r"Coups analysés : \d+ sur (vos|votre) \d+ décisions? avec un choix ; "
        r"le meilleur coup \d+ fois\.",
        text,
    ), text
    for index in range(page.locator("#review-list li.reviewed").count()):
        item = page.locator("#review-list li.reviewed").nth(index).inner_text()
        assert "Ce coup vous a coûté environ" in item and "Mieux : " in item
        # The advisor's reason is worded in French from its parts, nothing left in English.
        why = page.locator("#review-list li.reviewed .why").nth(index)
        parts = json.loads(why.get_attribute("data-parts"))
        assert parts and all(part["key"].startswith("advice.skipbo.") for part in parts)
        assert reason_pattern("fr", "Pourquoi : {reason}", parts).match(why.inner_text())
        assert why.locator("[lang=en]").count() == 0
    assert not page.errors

"""Each move's card flies a short way to where it lands; a key or a touch ends the
flight at once; with reduced motion asked for, nothing flies. The turn sound: off by
default, a switch on the table turns it on (remembered), and it plays only then."""

from __future__ import annotations

from typing import Any

import pytest

from .pages import (
    PAGE_HOOKS,
    TIMEOUT,
    create_table,
    dismiss_round_summary,
    over,
    skyjo_step,
    start,
)

# Counts the flying cards, and at each one's start presses a key or touches the table,
# in turn: the flight running then ([1 animation, ...]) must be over at once ([..., 0]),
# not 260 ms later.
WATCH_FLIGHTS = """
window.__flights = 0;
window.__skipped = [];
window.__sizes = [];
new MutationObserver((records) => {
  for (const record of records) for (const node of record.addedNodes) {
    if (!(node instanceof HTMLElement) || !node.classList.contains("flying")) continue;
    window.__flights += 1;
    // The flying copy is drawn at the size of the card where it lands (its face, its
    // number), though it flies outside the board that scales the cards.
    const land = [...document.querySelectorAll(".landing")]
      .find((el) => Math.abs(el.getBoundingClientRect().left - parseFloat(node.style.left)) < 0.5);
    const sizes = (el) => [...el.querySelectorAll(".face, .big")].map((e) => e.offsetHeight);
    if (land) window.__sizes.push([sizes(node), sizes(land)]);
    // Nor does it turn over on its way (only its flight moves it).
    const turning = [...node.querySelectorAll("*")].filter((e) => e.getAnimations().length);
    if (turning.length) window.__turning = (window.__turning || 0) + 1;
    if (window.__skipKey) {
      const running = node.getAnimations().length;
      const touch = window.__skipped.length % 2 === 1;
      const skip = touch
        ? new PointerEvent("pointerdown", { bubbles: true, pointerType: "touch", button: 0 })
        : new KeyboardEvent("keydown", { key: "Shift", bubbles: true });
      document.querySelector(".roomhost").dispatchEvent(skip);
      window.__skipped.push([touch ? "touch" : "key", running, node.getAnimations().length]);
    }
  }
}).observe(document, { childList: true, subtree: true });
"""

# The turn sound's plays, without playing anything.
SPY_PLAY = """
window.__plays = [];
HTMLMediaElement.prototype.play = function () {
  window.__plays.push(this.src);
  return Promise.resolve();
};
"""


def _page(browser: Any, server: str, motion: str) -> Any:
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, locale="en", bypass_csp=True, reduced_motion=motion
    )
    context.add_init_script("localStorage.setItem('cardtable.lang', 'en')")
    context.add_init_script(WATCH_FLIGHTS)
    context.add_init_script(SPY_PLAY)
    context.add_init_script(PAGE_HOOKS)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(server + "/")
    page.wait_for_selector("#create", timeout=TIMEOUT)
    return page


def _moves(page: Any, count: int) -> None:
    made = 0
    while made < count and not over(page):
        if dismiss_round_summary(page):
            continue
        if skyjo_step(page):
            made += 1
        else:
            page.wait_for_timeout(30)


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_moves_fly_unless_reduced_motion_is_asked_and_a_key_skips_a_flight(server, browser, motion):
    page = _page(browser, server, motion)
    assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches") == (
        motion == "reduce"
    )
    create_table(page, "skyjo", "Alice", {"players": 2, "end_score": 30}, ["greedy"])
    start(page)
    page.wait_for_selector(".tgt-legal", timeout=TIMEOUT)
    _moves(page, 6)
    flights = page.evaluate("window.__flights")
    if motion == "reduce":
        assert flights == 0
        assert page.locator(".ghost, .landing").count() == 0
    else:
        assert flights >= 3  # the player's moves and the bot's
        sizes = page.evaluate("window.__sizes")
        assert sizes and all(flying == landed for flying, landed in sizes), sizes
        assert page.evaluate("window.__turning || 0") == 0
        page.evaluate("window.__skipKey = true")
        _moves(page, 6)
        skipped = page.evaluate("window.__skipped")
        assert {how for how, _, _ in skipped} == {"key", "touch"}, skipped
        assert all(counts == [1, 0] for _, *counts in skipped), skipped
    assert not page.errors
    page.context.close()


def test_the_turn_sound_is_off_by_default_remembered_and_played_only_when_on(server, browser):
    page = _page(browser, server, "reduce")
    create_table(page, "skyjo", "Alice", {"players": 2, "end_score": 30}, ["greedy"])
    start(page)
    page.wait_for_selector(".tgt-legal", timeout=TIMEOUT)
    switch = page.locator("#sound")
    assert switch.get_attribute("aria-pressed") == "false"
    _moves(page, 6)  # the turn came back to Alice at least twice
    assert page.evaluate("window.__plays") == []
    switch.click()
    assert switch.get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('cardtable.sound')") == "on"
    _moves(page, 6)
    plays = page.evaluate("window.__plays")
    assert plays and all(src.endswith("/sounds/turn.wav") for src in plays), plays
    # Remembered: the page opened again has the sound on.
    page.reload()
    page.wait_for_selector("#sound", timeout=TIMEOUT)
    assert page.locator("#sound").get_attribute("aria-pressed") == "true"
    # And off again: no more plays.
    page.locator("#sound").click()
    assert page.evaluate("localStorage.getItem('cardtable.sound')") is None
    before = len(page.evaluate("window.__plays"))
    _moves(page, 6)
    assert len(page.evaluate("window.__plays")) == before
    assert not page.errors
    page.context.close()

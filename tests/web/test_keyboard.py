"""Whole 2-player games of both games with the keyboard only, on a 375x812 touch phone
(a keyboard attached) and at 1280x800: after each move the focus lands on a card that
can be played, so each move takes a key press or two, not thirty."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .pages import DEVICES, TIMEOUT, over, rematch, short_game, version

STATIC = Path(__file__).parents[2] / "src" / "cardtable" / "web" / "static"
FOCUSED_LEGAL = """() => {
  const el = document.activeElement;
  return Boolean(el && (el.classList.contains('src-legal') || el.classList.contains('tgt-legal')));
}"""


def play_by_keyboard(page: Any, limit: int = 400) -> tuple[int, int]:
    """Press Enter on the focused card when it can be played, else Tab; return the key
    presses and the moves they made."""
    presses = moves = 0
    while not over(page):
        assert moves < limit, "the game did not end"
        if page.locator("#summary .continue").count():
            # The round's scores: the dialog took the focus on its Continue button.
            page.wait_for_function(
                "document.activeElement && document.activeElement.matches('#summary .continue')",
                timeout=TIMEOUT,
            )
            page.keyboard.press("Enter")
            presses += 1
            continue
        if not page.locator(".src-legal, .tgt-legal").count():
            page.wait_for_timeout(30)
            continue
        before = version(page)
        page.keyboard.press("Enter" if page.evaluate(FOCUSED_LEGAL) else "Tab")
        presses += 1
        # A move marks the board waiting until the server's answer, which brings the new
        # version in the same drawing (a selection sends nothing and waits for nothing).
        page.wait_for_function("!document.querySelector('.board.waiting')", timeout=TIMEOUT)
        if version(page) != before:
            moves += 1
    return presses, moves


@pytest.mark.parametrize("device", DEVICES)
def test_a_whole_skyjo_game_by_keyboard(server, browser, shots, device):
    page = short_game(browser, server, device, "skyjo")
    # The tab says it is this player's turn: its title and a dot on its icon.
    icon = "document.querySelector('link[rel=icon]').href"
    assert page.title().startswith("● Your turn · ")
    assert page.evaluate(icon).endswith("/favicon-turn.svg")
    presses, moves = play_by_keyboard(page)
    assert not page.title().startswith("●")
    assert page.evaluate(icon).endswith("/favicon.svg")
    assert moves >= 6
    # Setting up, drawing and placing: the focus is already where the move is made.
    assert presses <= 1.5 * moves + 10, (presses, moves)
    page.screenshot(path=shots / f"keyboard-skyjo-summary-{device}.png")
    assert not page.errors
    page.context.close()


@pytest.mark.parametrize("device", DEVICES)
def test_a_whole_skipbo_game_by_keyboard_with_the_arrows_and_the_help(
    server, browser, shots, device
):
    page = short_game(browser, server, device, "skipbo")
    page.wait_for_function(FOCUSED_LEGAL, timeout=TIMEOUT)
    # The arrows move between cards by where they are: Right then Left comes back.
    page.evaluate("window.firstFocus = document.activeElement")
    page.keyboard.press("ArrowRight")
    moved = page.evaluate(
        "[document.activeElement.dataset.id, document.activeElement !== window.firstFocus]"
    )
    assert moved[0] and moved[1]
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement === window.firstFocus")
    # Moved by keys, the focus shows its ring in the focus colour, which no card state
    # uses (see below).
    ring = page.evaluate(
        "[document.activeElement.matches(':focus-visible'),"
        " getComputedStyle(document.activeElement).outlineColor]"
    )
    assert ring == [True, "rgb(123, 44, 255)"], ring
    # "?" lists the shortcuts; Escape closes the list and gives the focus back.
    page.keyboard.press("?")
    page.wait_for_selector("#keys-dialog", timeout=TIMEOUT)
    assert page.evaluate("document.activeElement.id") == "keys-close"
    assert page.locator("#keys-dialog kbd").count() >= 6
    page.screenshot(path=shots / f"keyboard-help-{device}.png")
    page.keyboard.press("Escape")
    page.wait_for_selector("#keys-dialog", state="detached", timeout=TIMEOUT)
    page.keyboard.press("Tab")  # back on the table from the help button
    presses, moves = play_by_keyboard(page)
    for _ in range(3):
        if moves >= 5:
            break
        rematch(page)  # the bot won at once: another game (the host's rematch)
        more_presses, more_moves = play_by_keyboard(page)
        presses, moves = presses + more_presses, moves + more_moves
    assert moves >= 5
    assert presses <= 2.5 * moves + 10, (presses, moves)
    # The final scores can be closed to look at the table, and opened again.
    page.keyboard.press("Escape")
    page.wait_for_selector(".match-summary", state="detached", timeout=TIMEOUT)
    page.click("#show-scores")
    page.wait_for_selector(".match-summary", timeout=TIMEOUT)
    assert not page.errors
    page.context.close()


def test_the_focus_colour_marks_the_focus_only():
    """The keyboard focus ring's colour (--focus) is used by focus rules alone, so it
    never looks like a playable, selected, target or hinted card."""
    css = (STATIC / "css" / "style.css").read_text(encoding="utf-8")
    assert "--focus: #7b2cff" in css
    rules = re.findall(r"([^{}]+)\{([^{}]*)\}", css)
    using = [selector.strip() for selector, body in rules if "var(--focus)" in body]
    assert using and all("focus" in selector for selector in using), using
    assert css.count("#7b2cff") == 1

"""Whole 2-player games of both games played by dragging the cards: with a finger on a
375x812 touch screen (the page takes the touch instead of scrolling) and with the mouse
at 1280x800; a card is picked by a tap or a click (the places it may go light up), then
dragged there. Every touch and click must be answered: none may be lost."""

from __future__ import annotations

from typing import Any

import pytest

from .pages import (
    DEVICES,
    SHORT_GAMES,
    TIMEOUT,
    create_table,
    device_page,
    dismiss_round_summary,
    ids,
    over,
    rematch,
    settle,
    short_game,
    shots_dir,
    start,
    version,
)


def centre(page: Any, ident: str) -> tuple[float, float]:
    element = page.locator(f'[data-id="{ident}"]').first
    element.scroll_into_view_if_needed()
    box = element.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def tap(page: Any, ident: str) -> None:
    """A tap with a finger on a touch screen, a click of the mouse elsewhere."""
    if page.device == "phone":
        page.touchscreen.tap(*centre(page, ident))
    else:
        page.mouse.click(*centre(page, ident))


def drag(page: Any, source: str, target: str) -> None:
    """A real drag from one card to another: touchstart, moves and touchend on a touch
    screen (through the DevTools protocol: Playwright has no finger drag), the mouse
    pressed, moved and released elsewhere."""
    (x0, y0), (x1, y1) = centre(page, source), centre(page, target)
    steps = [(x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10) for i in range(1, 11)]
    if page.device != "phone":
        page.mouse.move(x0, y0)
        page.mouse.down()
        for x, y in steps:
            page.mouse.move(x, y)
        page.mouse.up()
        return
    cdp = page.context.new_cdp_session(page)
    touch = "Input.dispatchTouchEvent"
    cdp.send(touch, {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for x, y in steps:
        cdp.send(touch, {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send(touch, {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def changed(page: Any, before: str, seconds: float = TIMEOUT / 1000) -> bool:
    for _ in range(int(seconds / 0.05)):
        if version(page) != before or over(page):
            return True
        page.wait_for_timeout(50)
    return False


def play(page: Any, step: Any, limit: int = 400) -> tuple[int, int]:
    moves = drags = retries = 0
    while not over(page):
        assert moves < limit, "the game did not end"
        if dismiss_round_summary(page):
            continue
        if not page.locator(".src-legal, .tgt-legal").count():
            page.wait_for_timeout(30)
            continue
        settle(page)
        before = version(page)
        made = step(page)
        if made < 0:
            retries += 1
            assert retries < 5, "no move could be made"
            continue
        drags += made
        if not changed(page, before):
            # A touch or click the page did not act on (issue 19: the page waited for
            # the click Chromium makes from a tap, and now and then it made none; taps are
            # acted on when the finger is lifted). Kept as a screenshot for the reviewer.
            page.screenshot(path=shots_dir() / f"{page.device}-lost-at-version-{before}.png")
            raise AssertionError(f"a {page.device} input was left unanswered at version {before}")
        moves += 1
    return moves, drags


def skyjo_drag(page: Any) -> int:
    sources, targets = ids(page, ".src-legal"), ids(page, ".tgt-legal")
    if "held" in sources and targets:
        drag(page, "held", targets[0])
        return 1
    tap(page, targets[0] if targets else ("draw" if "draw" in sources else sources[0]))
    return 0


def skipbo_drag(page: Any) -> int:
    sources = sorted(
        (s for s in ids(page, ".src-legal") if s != "endturn"),
        key=lambda s: (not s.startswith("stock"), not s.startswith("disc"), s),
    )
    for source in sources:
        tap(page, source)  # pick: the places it may go light up
        targets = ids(page, '.tgt-legal[data-id^="build:"]') or (
            ids(page, '.tgt-legal[data-id^="disc:"]') if source.startswith("hand:") else []
        )
        if targets:
            drag(page, source, targets[0])
            return 1
        tap(page, source)  # again: put back
    if not page.locator('[data-id="endturn"]').count():
        return -1  # the table changed under the taps: look again
    tap(page, "endturn")
    return 0


# Each game's way to play a move by drag, and the least moves and drags of a whole game.
PLAYS = {"skyjo": (skyjo_drag, 6, 2), "skipbo": (skipbo_drag, 5, 5)}


@pytest.mark.parametrize("game", PLAYS)
@pytest.mark.parametrize("device", DEVICES)
def test_a_whole_game_by_drag(server, browser, shots, device, game):
    page = short_game(browser, server, device, game)
    step, least_moves, least_drags = PLAYS[game]
    moves = drags = games = 0
    while moves < least_moves or drags < least_drags:  # a bot may win a game quickly
        if games:
            rematch(page)
        made, dragged = play(page, step)
        moves, drags, games = moves + made, drags + dragged, games + 1
        assert games <= 4, (moves, drags)
    page.screenshot(path=shots / f"drag-{game}-{device}.png")
    assert not page.errors
    page.context.close()


def test_a_tap_is_answered_when_the_finger_lifts_even_with_no_click_after_it(server, browser):
    """Chromium now and then makes no click from a tap (traced after a finger drag); the
    page acts on the lifted pointer, and the click that usually follows is not acted on
    a second time (which would drop the selection again)."""
    page = device_page(browser, server, "phone")
    create_table(page, "skipbo", "Alice", SHORT_GAMES["skipbo"], ["greedy"])
    start(page)
    page.wait_for_selector('.src-legal[data-id^="hand:"]', timeout=TIMEOUT)
    card = ids(page, '.src-legal[data-id^="hand:"]')[0]
    selected = f'[data-id="{card}"].selected'
    # A pointer pressed and lifted with no click after it (as the traced lost taps).
    page.eval_on_selector(
        f'[data-id="{card}"]',
        """el => {
          const r = el.getBoundingClientRect();
          const at = { bubbles: true, pointerId: 77, pointerType: "touch", isPrimary: true,
                       clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, button: 0 };
          el.dispatchEvent(new PointerEvent("pointerdown", at));
          el.dispatchEvent(new PointerEvent("pointerup", at));
        }""",
    )
    page.wait_for_selector(selected, timeout=TIMEOUT)
    assert page.locator('.tgt-legal[data-id^="disc:"]').count() == 4
    # A real tap: the pointer's release and then Chromium's click; it unselects once.
    tap(page, card)
    page.wait_for_function(f"!document.querySelector('{selected}')", timeout=TIMEOUT)
    page.wait_for_timeout(300)  # the click after the tap, if it were acted on, reselects
    assert not page.locator(selected).count()
    tap(page, card)
    page.wait_for_selector(selected, timeout=TIMEOUT)
    page.wait_for_timeout(300)
    assert page.locator(selected).count()
    assert not page.errors
    page.context.close()

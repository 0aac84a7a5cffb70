"""Whole 2-player games on a 375x812 touch screen: cards dragged with a finger (the page
takes the touch instead of scrolling), and tap to select, then tap to place."""

from __future__ import annotations

from typing import Any

from .pages import (
    TIMEOUT,
    create_table,
    dismiss_round_summary,
    ids,
    over,
    start,
    version,
)


def phone(browser: Any, server: str) -> Any:
    context = browser.new_context(
        viewport={"width": 375, "height": 812},
        has_touch=True,
        is_mobile=True,
        locale="en",
        bypass_csp=True,
    )
    context.add_init_script("localStorage.setItem('cardtable.lang', 'en')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.goto(server + "/")
    page.wait_for_selector("#create", timeout=TIMEOUT)
    return page


def centre(page: Any, ident: str) -> tuple[float, float]:
    element = page.locator(f'[data-id="{ident}"]').first
    element.scroll_into_view_if_needed()
    box = element.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def tap(page: Any, ident: str) -> None:
    page.touchscreen.tap(*centre(page, ident))


def finger_drag(page: Any, source: str, target: str) -> None:
    """A real touch sequence (touchstart, moves, touchend) from one card to another."""
    (x0, y0), (x1, y1) = centre(page, source), centre(page, target)
    cdp = page.context.new_cdp_session(page)
    cdp.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]}
    )
    for i in range(1, 11):
        x, y = x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def settle(page: Any) -> None:
    page.wait_for_function("!document.querySelector('.ghost, .landing')", timeout=TIMEOUT)


def shots_dir() -> Any:
    from .pages import SHOTS

    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


def changed(page: Any, before: str, seconds: float = 10.0) -> bool:
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
            # A touch the page did not act on: a tap that selected nothing, a drag that
            # landed nowhere (issue 19: the page waited for the click Chromium makes
            # from a tap, and now and then it made none; taps are now acted on when the
            # finger is lifted). Kept as a screenshot for the reviewer.
            page.screenshot(path=shots_dir() / f"touch-lost-at-version-{before}.png")
            raise AssertionError(f"a touch was left unanswered at version {before}")
        moves += 1
    return moves, drags


def skyjo_touch(page: Any) -> int:
    sources, targets = ids(page, ".src-legal"), ids(page, ".tgt-legal")
    if "held" in sources and targets:
        finger_drag(page, "held", targets[0])
        return 1
    tap(page, targets[0] if targets else ("draw" if "draw" in sources else sources[0]))
    return 0


def skipbo_touch(page: Any) -> int:
    sources = sorted(
        (s for s in ids(page, ".src-legal") if s != "endturn"),
        key=lambda s: (not s.startswith("stock"), not s.startswith("disc"), s),
    )
    for source in sources:
        tap(page, source)  # tap to select: the places it may go light up
        targets = ids(page, '.tgt-legal[data-id^="build:"]') or (
            ids(page, '.tgt-legal[data-id^="disc:"]') if source.startswith("hand:") else []
        )
        if targets:
            finger_drag(page, source, targets[0])
            return 1
        tap(page, source)  # tap again: unselected
    if not page.locator('[data-id="endturn"]').count():
        return -1  # the table changed under the taps: look again
    tap(page, "endturn")
    return 0


def test_a_whole_skyjo_game_by_touch(server, browser, shots):
    page = phone(browser, server)
    create_table(page, "skyjo", "Alice", {"players": 2, "end_score": 20}, ["greedy"])
    start(page)
    page.wait_for_selector(".tgt-legal", timeout=TIMEOUT)
    moves, drags = play(page, skyjo_touch)
    assert moves >= 6 and drags >= 2, (moves, drags)
    page.screenshot(path=shots / "touch-skyjo-375.png")
    assert not page.errors
    page.context.close()


def test_a_whole_skipbo_game_by_touch(server, browser, shots):
    page = phone(browser, server)
    create_table(page, "skipbo", "Alice", {"players": 2, "stock_size": 5}, ["greedy"])
    start(page)
    page.wait_for_selector(".src-legal", timeout=TIMEOUT)
    moves, drags = play(page, skipbo_touch)
    assert moves >= 5 and drags >= 5, (moves, drags)
    page.screenshot(path=shots / "touch-skipbo-375.png")
    assert not page.errors
    page.context.close()


def test_a_tap_is_answered_when_the_finger_lifts_even_with_no_click_after_it(server, browser):
    """Chromium now and then makes no click from a tap (traced after a finger drag); the
    page acts on the lifted pointer, and the click that usually follows is not acted on
    a second time (which would drop the selection again)."""
    page = phone(browser, server)
    create_table(page, "skipbo", "Alice", {"players": 2, "stock_size": 5}, ["greedy"])
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

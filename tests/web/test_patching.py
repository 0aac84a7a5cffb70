"""Server events patch the page instead of rebuilding it: the click being made, the field
being typed into and a drag in progress all survive them."""

from __future__ import annotations

from .pages import (
    COUNT_HANDLED,
    SHORT_GAMES,
    TIMEOUT,
    create_table,
    dismiss_round_summary,
    new_page,
    settle,
    skyjo_step,
    start,
    version,
    wait_change,
)


def room(page, server, code):
    return page.request.get(f"{server}/api/rooms/{code}").json()


def test_typing_a_number_then_clicking_create_creates_the_room_on_that_first_click(server, browser):
    page = new_page(browser, server)
    page.check("input[name=game][value=skyjo]")
    page.fill("#your-name", "Alice")
    # Still in the field: the click's press takes the focus, the change redraws the form
    # (three seats now) under the pointer, and the click must still land on Create.
    page.fill("#opt-players", "3")
    assert page.evaluate("document.activeElement.id") == "opt-players"
    page.click("#create")
    page.wait_for_selector("#room-code", timeout=TIMEOUT)
    code = page.inner_text("#room-code")
    assert len(room(page, server, code)["seats"]) == 3
    assert not page.errors
    page.context.close()


def test_typing_an_option_then_clicking_start_starts_with_it_on_that_first_click(server, browser):
    page = new_page(browser, server)
    code = create_table(page, "skyjo", "Alice", {"players": 2}, ["greedy"])
    page.wait_for_selector("#start:not([disabled])", timeout=TIMEOUT)
    page.evaluate("window.startButton = document.querySelector('#start')")
    page.fill("#lobby-opt-end_score", "50")
    page.click("#start")
    page.wait_for_selector(".board", timeout=TIMEOUT)
    summary = room(page, server, code)
    assert summary["status"] == "playing" and summary["rules"]["end_score"] == 50
    assert not page.errors
    page.context.close()


def test_a_server_event_mid_drag_neither_cancels_the_drag_nor_waits_for_it(server, browser):
    page = new_page(browser, server)
    code = create_table(page, "skipbo", "Alice", SHORT_GAMES["skipbo"], ["greedy"])
    start(page)
    page.wait_for_selector('.src-legal[data-id^="hand:"]', timeout=TIMEOUT)
    page.wait_for_function("!document.querySelector('.ghost, .landing')", timeout=TIMEOUT)
    card = page.locator('.src-legal[data-id^="hand:"]').first
    page.evaluate("window.dragged = document.querySelector('.src-legal[data-id^=\"hand:\"]')")
    box = card.bounding_box()
    page.mouse.move(box["x"] + 10, box["y"] + 10)
    page.mouse.down()
    page.mouse.move(box["x"] + 30, box["y"] - 40, steps=5)
    page.wait_for_selector(".ghost", timeout=TIMEOUT)
    # A spectator arrives: the presence message reaches the page during the drag, and
    # the table is redrawn (patched) at once.
    page.evaluate(COUNT_HANDLED)
    watcher = new_page(browser, server)
    watcher.goto(f"{server}/r/{code}/watch")
    page.wait_for_function("window.handled.presence > 0", timeout=TIMEOUT)
    assert page.locator(".ghost").count() == 1
    assert page.evaluate("document.body.contains(window.dragged)")
    before = version(page)
    target = page.locator('[data-id="disc:0:0"]').bounding_box()
    page.mouse.move(target["x"] + 10, target["y"] + 10, steps=6)
    page.mouse.up()
    wait_change(page, before)  # the drop played the move (a discard ends the turn)
    assert page.locator('[data-id="disc:0:0"] .fancard').count() == 1
    assert not page.errors
    for p in (page, watcher):
        p.context.close()


# Records whether each press of the pointer began on a card still landing (flying in).
WATCH_PRESSES = """
window.__pressedLanding = [];
document.addEventListener("pointerdown", (e) => {
  window.__pressedLanding.push(Boolean(e.target.closest && e.target.closest(".landing")));
}, true);
"""


def test_a_drag_started_while_the_card_is_still_flying_in_is_played(server, browser, shots):
    """Issue 19: a drag started within about 0.3 s of the last card landing failed (the
    landing card was hidden and the page rebuilt). The card just drawn flies to the held
    place; it is dragged from there onto the grid at once, before its flight ends."""
    page = new_page(browser, server, motion="no-preference")
    page.add_init_script(WATCH_PRESSES)
    page.reload()
    page.wait_for_selector("#create", timeout=TIMEOUT)
    create_table(page, "skyjo", "Alice", {"players": 2, "end_score": 100}, ["greedy"])
    start(page)
    caught = 0
    for _ in range(8):  # turns: a slow machine may end a flight before the press
        while not page.locator('[data-id="draw"].src-legal').count():
            dismiss_round_summary(page)
            if not skyjo_step(page):  # the setup's reveals, or the bot's turn
                page.wait_for_timeout(30)
        settle(page)
        before = version(page)
        page.click('[data-id="draw"]')
        wait_change(page, before)  # drawn: the card flies to the held place
        drawn = version(page)
        source = page.locator('[data-id="held"]').bounding_box()
        target = page.locator(".tgt-legal").first.bounding_box()
        page.mouse.move(source["x"] + 10, source["y"] + 10)
        page.mouse.down()
        page.mouse.move(target["x"] + 10, target["y"] + 10, steps=4)
        page.mouse.up()
        wait_change(page, drawn)  # the drop played the exchange (nobody else may move)
        caught += page.evaluate("window.__pressedLanding.at(-1)")
        if caught >= 2:
            break
    page.screenshot(path=shots / "drag-while-flying.png")
    assert caught >= 1, "no press began during a flight: the case was not tried"
    assert not page.errors
    page.context.close()

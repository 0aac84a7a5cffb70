"""Server events patch the page instead of rebuilding it: the click being made, the field
being typed into and a drag in progress all survive them."""

from __future__ import annotations

from .pages import TIMEOUT, create_table, new_page, start, version, wait_change


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
    code = create_table(page, "skipbo", "Alice", {"players": 2, "stock_size": 5}, ["greedy"])
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
    draws = page.evaluate("document.body.dataset.draws")
    watcher = new_page(browser, server)
    watcher.goto(f"{server}/r/{code}/watch")
    page.wait_for_function(f"document.body.dataset.draws !== '{draws}'", timeout=TIMEOUT)
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

"""The public lobby page in Chromium (#/lobby): a room its host makes public appears in
the list of another browser by itself (polling), one click there takes its free seat,
and the filled room leaves the list; once its game starts it is listed to watch, and
one click opens it as a spectator; "Play now" in two browsers lands at one table, and
after the wait bots of the level rated closest fill it; an axe audit finds nothing
serious. The list is patched in place: a Join button keeps the keyboard focus across
polls, and a change of language leaves one poll loop running."""

from __future__ import annotations

from typing import Any

from cardtable.web.catalogs import web_catalog

from .pages import TIMEOUT, create_table, new_page, start
from .test_accessibility import serious
from .test_board_fit import post

#: A poll interval (s) the tests give the page in the lobby's answers: many polls soon.
FAST_POLL = 0.2


def open_lobby(page) -> None:
    page.click("#lobby-link")
    page.wait_for_selector("body[data-page='lobby'] #lobby-playing", timeout=TIMEOUT)


def test_a_public_room_is_listed_then_leaves_the_list_when_it_fills(server, browser):
    host = new_page(browser, server)
    code = create_table(host, "skyjo", "Ann", {"players": 2}, ["human"])
    watcher = new_page(browser, server, lang="fr")
    open_lobby(watcher)
    assert watcher.locator(f"li[data-code='{code}']").count() == 0  # still private
    host.click("#table-public")
    row = f"#lobby-open li[data-code='{code}']"
    watcher.wait_for_selector(row, timeout=TIMEOUT)  # the list updates by itself
    text = watcher.inner_text(row)
    assert "Skyjo" in text and "1 place libre" in text and "2 joueurs" in text
    assert "Ann" in text and "place libre" in text

    guest = new_page(browser, server)
    guest.evaluate("localStorage.setItem('cardtable.name', 'Bea')")
    open_lobby(guest)
    guest.click(f"{row} button[data-join='{code}']")  # one click: seated
    guest.wait_for_selector("#room-code", timeout=TIMEOUT)
    assert guest.evaluate(f"JSON.parse(localStorage.getItem('cardtable.room.{code}')).seat") == 1
    watcher.wait_for_selector(row, state="detached", timeout=TIMEOUT)

    start(host)
    watch = f"#lobby-playing a[data-watch='{code}']"
    watcher.wait_for_selector(watch, timeout=TIMEOUT)
    watcher.click(watch)  # one click: watching
    watcher.wait_for_selector(".board", timeout=TIMEOUT)
    assert watcher.evaluate("location.hash") == f"#/room/{code}/watch"
    for page in (host, watcher, guest):
        assert page.errors == []


def test_two_browsers_press_play_now_and_land_at_one_table(server, browser):
    first, second = new_page(browser, server), new_page(browser, server, lang="de")
    for page, name in ((first, "Ann"), (second, "Bea")):
        open_lobby(page)
        page.fill("#quick-name", name)
    first.click("#play-now-skipbo")
    first.wait_for_selector("#room-code", timeout=TIMEOUT)
    code = first.inner_text("#room-code")
    first.wait_for_selector("#quick-wait", timeout=TIMEOUT)  # the host sees the wait
    assert "Waiting for players" in first.inner_text("#quick-wait")
    assert first.is_disabled("#quick-bots")  # bots only after the wait
    second.click("#play-now-skipbo")
    # "Play now" took the last free seat: the table starts without the host's Start.
    for page in (first, second):
        page.wait_for_selector(".board", timeout=TIMEOUT)
    assert second.evaluate("location.hash") == f"#/room/{code}"  # one table
    for page in (first, second):
        assert page.errors == []


def test_after_the_wait_bots_near_the_players_rating_take_the_empty_seats(server, browser):
    page = new_page(browser, server)
    open_lobby(page)
    page.fill("#quick-name", "Solo")
    page.click("#play-now-skyjo")
    page.wait_for_selector("#quick-wait", timeout=TIMEOUT)
    code = page.inner_text("#room-code")
    # As if the wait were over (it is 20 s): the seat remembers when it began.
    key = f"cardtable.room.{code}"
    page.evaluate(
        f"(() => {{ const s = JSON.parse(localStorage.getItem('{key}'));"
        f" s.quick.since -= 60000; localStorage.setItem('{key}', JSON.stringify(s)); }})()"
    )
    page.reload()
    page.wait_for_selector("#quick-bots:not([disabled])", timeout=TIMEOUT)
    # The bot level rated closest to a new player's 1,500: medium.
    assert page.inner_text("#quick-bots") == "Play with bots: Bot · medium (1,500)"
    page.click("#quick-bots")
    page.wait_for_selector(".board", timeout=TIMEOUT)
    assert page.errors == []


def test_a_room_made_public_at_creation_is_listed(server, browser):
    host = new_page(browser, server, lang="it")
    host.check("#create-public")
    code = create_table(host, "skyjo", "Ugo", {"players": 2}, ["human"])
    watcher = new_page(browser, server, lang="it")
    open_lobby(watcher)
    row = f"#lobby-open li[data-code='{code}']"
    watcher.wait_for_selector(row, timeout=TIMEOUT)
    assert "1 posto libero" in watcher.inner_text(row)
    assert serious(watcher) == []  # the page with a room listed: nothing serious for axe
    host.wait_for_selector("#table-public:checked", timeout=TIMEOUT)  # the host's box says so


def fast_polls(page: Any) -> list[Any]:
    """Answer the page's lobby polls from the server with ``FAST_POLL`` as the interval;
    returns the list of the polls seen (growing)."""
    seen: list[Any] = []

    def answer(route: Any) -> None:
        seen.append(route)
        response = route.fetch()
        body = response.json()
        body["poll_seconds"] = FAST_POLL
        route.fulfill(response=response, json=body)

    page.route("**/api/lobby", answer)
    return seen


def wait_count(page: Any, seen: list[Any], count: int) -> None:
    for _ in range(int(TIMEOUT / 50)):
        if len(seen) >= count:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"{len(seen)} lobby polls, waited for {count}")


def test_a_join_button_keeps_the_keyboard_focus_across_polls(server, browser):
    seats = [{"kind": "human"}, {"kind": "human"}]
    code = post(
        f"{server}/api/rooms",
        {"game": "skyjo", "options": {"players": 2}, "seats": seats, "name": "Ann"}
        | {"table": {"public": True}},
    )["code"]
    page = new_page(browser, server)
    polls = fast_polls(page)
    open_lobby(page)
    button = f"#lobby-open button[data-join='{code}']"
    page.wait_for_selector(button, timeout=TIMEOUT)
    page.focus(button)
    page.evaluate("window.focused = document.activeElement")
    wait_count(page, polls, len(polls) + 4)
    page.wait_for_timeout(100)  # the last answer drawn
    # The very button, still in the page and focused: Enter joins from the keyboard.
    assert page.evaluate(
        "document.activeElement === window.focused && window.focused.isConnected"
    ), page.evaluate("document.activeElement.tagName")
    assert page.errors == []


def test_a_change_of_language_leaves_one_poll_loop(server, browser):
    page = new_page(browser, server)
    # Every poll waits for its answer, held here: each loop has one poll waiting, so the
    # polls held are the loops running.
    held: list[Any] = []
    holding = [True]
    empty = {"open": [], "playing": [], "poll_seconds": FAST_POLL}

    def poll(route: Any) -> None:
        held.append(route)
        if not holding[0]:
            route.fulfill(json=empty)

    page.route("**/api/lobby", poll)
    page.click("#lobby-link")
    page.wait_for_selector("body[data-page='lobby'] #quick-form", timeout=TIMEOUT)
    wait_count(page, held, 1)
    for lang in ("fr", "de"):
        page.select_option("#lang", lang)
        title = web_catalog(lang)["web.publobby.title"]
        page.wait_for_function(
            "text => document.querySelector('.publiclobby h1').textContent === text",
            arg=title,
            timeout=TIMEOUT,
        )
        page.wait_for_timeout(300)
        assert len(held) == 1, f"{len(held)} poll loops after the change to {lang}"
    # Answered, the loop goes on polling.
    holding[0] = False
    held[0].fulfill(json=empty)
    wait_count(page, held, 4)
    page.wait_for_selector("#lobby-open", timeout=TIMEOUT)
    assert page.errors == []

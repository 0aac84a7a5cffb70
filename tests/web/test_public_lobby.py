"""The public lobby page in Chromium (#/lobby): a room its host makes public appears in
the list of another browser by itself (polling), one click there takes its free seat,
and the filled room leaves the list; once its game starts it is listed to watch, and
one click opens it as a spectator."""

from __future__ import annotations

from .pages import TIMEOUT, create_table, new_page, start


def open_lobby(page) -> None:
    page.click("#lobby-link")
    page.wait_for_selector("body[data-page='lobby'][data-lobby-polls]", timeout=TIMEOUT)


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

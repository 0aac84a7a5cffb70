"""End-to-end: whole games through the page in the system Chromium."""

from __future__ import annotations

import pytest

from .pages import (
    CONN,
    MISSING,
    SHORT_GAMES,
    TIMEOUT,
    create_table,
    new_page,
    no_horizontal_scroll,
    over,
    play_until_over,
    skipbo_step,
    skyjo_step,
    start,
    version,
    wait_change,
)


def _home(page, server):
    """The home page again in the same page, for the next table: a context's first load
    of the page costs seconds under load, a later one a fraction."""
    if page.url.rstrip("/") != server:
        page.goto(server + "/")
        page.wait_for_selector("body[data-ready='1']", timeout=TIMEOUT)
        page.wait_for_selector("#create", timeout=TIMEOUT)


def test_skyjo_against_three_bots_to_the_final_scores(server, browser, shots):
    page = new_page(browser, server)
    create_table(page, "skyjo", "Alice", {"players": 4, "end_score": 30}, ["greedy"] * 3)
    page.screenshot(path=shots / "skyjo-lobby.png", full_page=True)
    start(page)
    page.wait_for_selector(".tgt-legal", timeout=TIMEOUT)
    page.screenshot(path=shots / "skyjo-table.png", full_page=True)
    dragged = []

    def step(p):
        drag = not dragged and bool(p.locator('[data-id="held"].src-legal').count())
        if drag:
            dragged.append(True)
        return skyjo_step(p, drag=drag)

    moves = play_until_over([page], step)
    assert moves >= 4 and dragged
    summary = page.locator(".match-summary")
    assert summary.locator("table.scores.final tbody tr").count() == 4
    assert page.locator(".loglist li").count() > 10
    # The score panel has a column per round; each total is the sum of its row.
    rows = page.eval_on_selector_all(
        "#score-panel tbody tr",
        "trs => trs.map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent))",
    )
    rounds = page.locator("#score-panel thead th").count() - 2
    assert rounds >= 1 and len(rows) == 4
    for row in rows:
        assert len(row) == rounds + 1
        assert sum(int(v.replace("\u2212", "-")) for v in row[:-1]) == int(row[-1])
    page.screenshot(path=shots / "skyjo-summary.png", full_page=True)
    # The replay viewer steps through the finished game.
    page.click("#replay")
    page.wait_for_selector(".replay .board", timeout=TIMEOUT)
    total = int(page.get_attribute("#replay-range", "max"))
    assert page.input_value("#replay-range") == str(total)  # it opens at the end
    page.click("#replay-prev")
    page.wait_for_function(f"document.querySelector('#replay-range').value === '{total - 1}'")
    page.screenshot(path=shots / "skyjo-replay.png", full_page=True)
    assert not page.errors


def test_short_skipbo_game_with_a_reload_in_the_middle(server, browser, shots):
    page = new_page(browser, server)
    code = create_table(page, "skipbo", "Alice", SHORT_GAMES["skipbo"], ["greedy"])
    start(page)
    page.wait_for_selector(".src-legal", timeout=TIMEOUT)
    page.screenshot(path=shots / "skipbo-table.png", full_page=True)
    reloaded = []

    def every(p, moves):
        # After our first move: the bot cannot have won yet, as we start.
        if moves == 1 and not reloaded:
            reloaded.append(True)
            p.reload()
            p.wait_for_selector(".board", timeout=TIMEOUT)
            assert code in p.url
            p.wait_for_selector(".handcard, .match-summary", timeout=TIMEOUT)

    play_until_over([page], skipbo_step, every=every)
    assert reloaded
    page.screenshot(path=shots / "skipbo-summary.png", full_page=True)
    assert page.locator("#rematch").count() == 1
    page.click("#rematch")
    # The rematch goes back to the lobby, same seats: the host may change the options
    # before starting the next game.
    page.wait_for_function("document.body.dataset.page === 'lobby'", timeout=TIMEOUT)
    assert page.input_value("#lobby-opt-stock_size") == "5"
    page.fill("#lobby-opt-stock_size", "6")
    page.dispatch_event("#lobby-opt-stock_size", "change")
    page.wait_for_function(
        "document.querySelector('#lobby-opt-stock_size').value === '6'"
        " && !document.querySelector('#lobby-options[aria-busy=\"true\"]')",
        timeout=TIMEOUT,
    )
    assert page.locator(f"a[href$='/replay/{code}/1']").count() == 1  # the game just played
    start(page)
    page.wait_for_selector(".src-legal", timeout=TIMEOUT)
    assert not over(page)
    summary = page.request.get(f"{server}/api/rooms/{code}").json()
    assert (summary["game_no"], summary["rules"]["stock_size"]) == (2, 6)
    assert not page.errors


def test_while_offline_the_table_offers_no_move_and_offers_them_again_once_back(server, browser):
    page = new_page(browser, server, lang="fr")
    create_table(page, "skipbo", "Alice", SHORT_GAMES["skipbo"], ["greedy"])
    start(page)
    page.wait_for_selector(".src-legal", timeout=TIMEOUT)
    # Hold the page offline: its reconnection attempts do nothing until let go.
    page.evaluate(f"async () => {{ const c = {CONN}; c.connect = () => {{}}; c.drop(); }}")
    page.wait_for_selector(".tablepage.disconnected", timeout=TIMEOUT)
    assert page.locator(".src-legal, .tgt-legal, #hint").count() == 0
    assert "Reconnexion à la table" in page.inner_text("#turnbar")
    cards = page.locator(".handcard")
    assert cards.count() and not any(cards.nth(i).is_enabled() for i in range(cards.count()))
    page.evaluate(f"async () => {{ const c = {CONN}; delete c.connect; c.connect(); }}")
    page.wait_for_selector(".src-legal", timeout=TIMEOUT)
    assert page.locator(".tablepage.disconnected").count() == 0
    assert "Reconnexion" not in page.inner_text("#turnbar")
    assert skipbo_step(page)
    assert not page.errors
    page.context.close()


def test_two_humans_in_two_browsers(server, browser, shots):
    alice = new_page(browser, server)
    code = create_table(alice, "skyjo", "Alice", {"players": 2, "end_score": 1}, ["human"])
    bob = new_page(browser, server)
    bob.goto(f"{server}/r/{code}")
    bob.wait_for_selector("#join", timeout=TIMEOUT)
    bob.fill("#join-name", "Bob")
    bob.click("#join")
    alice.wait_for_selector("#start:not([disabled])", timeout=TIMEOUT)
    start(alice)
    bob.wait_for_selector(".board", timeout=TIMEOUT)
    # Keyboard play: Alice turns up a card with Tab focus and Enter.
    alice.wait_for_selector(".tgt-legal", timeout=TIMEOUT)
    alice.locator(".tgt-legal").first.focus()
    before = version(alice)
    alice.keyboard.press("Enter")
    wait_change(alice, before)
    assert "Bob" in alice.inner_text(".scores")
    dropped = []

    def every(p, moves):
        if moves == 6 and not dropped:  # a dropped connection resyncs unnoticed
            dropped.append(True)
            p.evaluate(
                f"async () => {{ window.conn = {CONN};"
                " window.dropped = window.conn.ws; window.conn.drop(); }"
            )
            # The page reconnects by itself; the next move waits for the new socket
            # (while offline, the table offers no move).
            p.wait_for_function(
                "window.conn.ws !== window.dropped && window.conn.ws.readyState === WebSocket.OPEN",
                timeout=TIMEOUT,
            )

    play_until_over([alice, bob], skyjo_step, every=every)
    assert dropped
    bob.screenshot(path=shots / "two-humans-summary.png", full_page=True)
    assert alice.locator("#rematch").count() == 1 and bob.locator("#rematch").count() == 0
    assert not alice.errors and not bob.errors


@pytest.mark.parametrize("lang", ["en", "fr", "de", "it"])
def test_each_language_renders_the_tables_without_a_missing_key(server, browser, shots, lang):
    page = new_page(browser, server, lang=lang)
    for game, options, seats in (
        ("skyjo", {"players": 3}, ["greedy", "random"]),
        ("skipbo", {"players": 3, "stock_size": 5, "first_player": 0}, ["greedy", "random"]),
    ):
        _home(page, server)
        assert page.evaluate("document.documentElement.lang") == lang
        create_table(page, game, "Zoé", options, seats)
        start(page)
        page.wait_for_selector(".src-legal, .tgt-legal", timeout=TIMEOUT)
        page.locator("details.log").evaluate("d => d.open = true")
        page.screenshot(path=shots / f"{game}-table-{lang}.png", full_page=True)
        page.goto(f"{server}/#/rules/{game}")
        page.wait_for_selector(".rules h2", timeout=TIMEOUT)
        assert page.evaluate(MISSING) == []
        assert not page.errors
    page.context.close()


def test_phone_width_has_no_horizontal_scroll(server, browser, shots):
    page = new_page(browser, server, width=375)
    for game, options, seats in (
        ("skyjo", {"players": 8}, ["greedy"] * 7),
        (
            "skipbo",
            {"players": 6, "stock_size": 5, "teams": True, "first_player": 0},
            ["greedy"] * 5,
        ),
    ):
        _home(page, server)
        no_horizontal_scroll(page)
        create_table(page, game, "Alice", options, seats)
        no_horizontal_scroll(page)
        start(page)
        page.wait_for_selector(".src-legal, .tgt-legal", timeout=TIMEOUT)
        page.wait_for_timeout(300)
        no_horizontal_scroll(page)
        page.screenshot(path=shots / f"{game}-table-375.png", full_page=True)
    page.context.close()

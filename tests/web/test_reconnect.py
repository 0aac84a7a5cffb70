"""The page rides out its server going away (issue 18): a killed and restarted server,
and a room handed over between servers (4009 room_moved, "no room" while the new
server adopts it, 1013 room_elsewhere). It reconnects with jittered back-off, resumes
from its last version, and shows no error; only a lasting "no room" is final."""

from __future__ import annotations

import json
from typing import Any

from ..server.test_restart import Server
from .pages import (
    TIMEOUT,
    create_table,
    new_page,
    over,
    play_until_over,
    skyjo_step,
    start,
    version,
)

# Every toast (error message) the page shows, and whether the table, once shown, ever
# gave way to something else ("table not found").
WATCH_ERRORS = """
window.__toasts = [];
window.__table = "never";
new MutationObserver(() => {
  const toast = document.getElementById("toast");
  if (toast && !toast.hidden && toast.textContent) window.__toasts.push(toast.textContent);
  const shown = Boolean(document.querySelector(".tablepage"));
  if (shown && window.__table === "never") window.__table = "shown";
  if (!shown && window.__table === "shown") window.__table = "lost";
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
"""


def _watched(browser: Any, base: str) -> Any:
    page = new_page(browser, base)
    page.context.add_init_script(WATCH_ERRORS)
    page.reload()
    page.wait_for_selector("#create", timeout=TIMEOUT)
    return page


def test_a_game_goes_on_when_its_server_is_killed_and_started_again(tmp_path, browser):
    server = Server(tmp_path)
    server.start()
    try:
        page = _watched(browser, server.base)
        create_table(page, "skyjo", "Alice", {"players": 2, "end_score": 25}, ["greedy"])
        start(page)
        page.wait_for_selector(".tgt-legal", timeout=TIMEOUT)
        killed: list[str] = []

        def every(p: Any, moves: int) -> None:
            if moves in (4, 12) and len(killed) < 2:
                killed.append(version(p))
                server.kill()  # kill -9: no close frame, the socket just ends
                p.wait_for_selector(".tablepage.disconnected", timeout=TIMEOUT)
                server.start()
                p.wait_for_selector(".tablepage:not(.disconnected)", timeout=TIMEOUT)

        play_until_over([page], skyjo_step, every=every)
        assert len(killed) == 2
        assert over(page)
        assert page.evaluate("window.__table") == "shown"
        assert page.evaluate("window.__toasts") == []
        assert not page.errors
        page.context.close()
    finally:
        server.stop()


def _hand_over_route(page: Any, script: list[str], hellos: list[dict[str, Any]]) -> Any:
    """Route the room's sockets: the first to the server; when `hand_over()` is called,
    that socket is closed as a drained server closes it, and each next attempt gets the
    next answer of `script` ("no_room", "elsewhere", or "server")."""
    live: dict[str, Any] = {"ws": None}
    attempts = iter(["server", *script])

    def handler(ws: Any) -> None:
        answer = next(attempts, "server")
        if answer == "no_room":
            ws.send(json.dumps({"type": "error", "code": "no_room", "reason": "no live room"}))
            ws.close(code=4004)
            return
        if answer == "elsewhere":
            ws.send(json.dumps({"type": "error", "code": "room_elsewhere", "reason": "later"}))
            ws.close(code=1013)
            return
        upstream = ws.connect_to_server()

        def to_server(message: Any) -> None:
            data = json.loads(message)
            if data.get("type") == "hello":
                hellos.append(data)
            upstream.send(message)

        ws.on_message(to_server)
        live["ws"] = ws

    page.route_web_socket("**/ws/*", handler)

    def hand_over() -> None:
        ws = live["ws"]
        ws.send(json.dumps({"type": "error", "code": "room_moved", "reason": "reconnect"}))
        ws.close(code=4009)

    return hand_over


def test_a_room_handed_over_to_another_server_goes_on_without_an_error(server, browser):
    page = _watched(browser, server)
    hellos: list[dict[str, Any]] = []
    hand_over = _hand_over_route(page, ["no_room", "no_room", "elsewhere"], hellos)
    create_table(page, "skyjo", "Alice", {"players": 2, "end_score": 25}, ["greedy"])
    start(page)
    page.wait_for_selector(".tgt-legal", timeout=TIMEOUT)
    moved: list[str] = []

    def every(p: Any, moves: int) -> None:
        if moves == 5 and not moved:
            moved.append(version(p))
            p.evaluate("async () => { window.conn = (await shownPage()).room.conn; }")
            hand_over()
            p.wait_for_function(
                "() => { const c = window.conn;"
                " return c.ws && c.ws.readyState === WebSocket.OPEN"
                " && c.lastDelay !== null && c.attempt === 0; }",
                timeout=TIMEOUT,
            )

    play_until_over([page], skyjo_step, every=every)
    assert moved and over(page)
    # It greeted twice: first, and once resumed, from the version it had.
    assert len(hellos) == 2
    assert "last_version" not in hellos[0] or hellos[0]["last_version"] is None
    assert hellos[1]["last_version"] == int(moved[0])
    # Each wait was jittered back-off: within [half, all] of 250 ms doubled per attempt.
    delay = page.evaluate("window.conn.lastDelay")
    assert 250 * 2**3 / 2 <= delay <= 250 * 2**3
    assert page.evaluate("window.__table") == "shown"
    assert page.evaluate("window.__toasts") == []
    assert not page.errors
    page.context.close()


def test_a_room_that_stays_missing_is_given_up_with_the_table_not_found_page(server, browser):
    page = _watched(browser, server)
    hand_over = _hand_over_route(page, ["no_room"] * 20, [])
    create_table(page, "skyjo", "Alice", {"players": 2, "end_score": 25}, ["greedy"])
    start(page)
    page.wait_for_selector(".tgt-legal", timeout=TIMEOUT)
    page.evaluate("async () => { (await shownPage()).room.conn.handoverTries = 2; }")
    hand_over()
    page.wait_for_selector("a[href^='#/replay/']", timeout=TIMEOUT)
    assert page.evaluate("async () => (await shownPage()).room.conn.missing") == 3
    assert not page.errors
    page.context.close()


def test_backoff_is_exponential_capped_and_jittered(server, browser):
    page = new_page(browser, server)
    waits = page.evaluate(
        """() => pageModule("conn.js").then((m) => [0, 1, 2, 3, 4, 5, 6, 9]
             .map((n) => [m.backoff(n, () => 0), m.backoff(n, () => 1)]))"""
    )
    assert waits == [
        [125, 250], [250, 500], [500, 1000], [1000, 2000],
        [2000, 4000], [4000, 8000], [4000, 8000], [4000, 8000],
    ]  # fmt: skip
    page.context.close()

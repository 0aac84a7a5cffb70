"""Table life in the page: two players chat, a spectator reads but cannot write (until
the host allows it), the host sets a turn time limit in the lobby, and a turn that runs
out is played by a bot for the absent player, with the notice in the log."""

from __future__ import annotations

import time
from typing import Any

from .pages import TIMEOUT, create_table, new_page, skyjo_step, start, version, wait_change
from .test_lobby_options import join

# The shortest limit the server allows: the test waits that long for the bot once.
LIMIT = 10


def chat_lines(page: Any) -> list[str]:
    lines: list[str] = page.locator("#chat-list .chatline:not(.reaction)").all_inner_texts()
    return lines


def say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.click("#chat-send")


def wait_lines(page: Any, count: int) -> None:
    page.wait_for_function(
        f"document.querySelectorAll('#chat-list .chatline:not(.reaction)').length >= {count}",
        timeout=TIMEOUT,
    )


def _own_turn_again(page: Any) -> bool:
    """The page's player may move and the turn is theirs, not the rest of a timed-out turn
    the bot is still playing (their moves are offered then too: one takes the turn back).
    The newest log line tells: the time-out notice, or a bot's move "for you", means the
    bot's turn goes on (under load its moves came seconds apart, and CI failed on it)."""
    return bool(
        page.evaluate(
            """() => {
                if (!document.querySelector('.tgt-legal, .src-legal')) return false;
                const newest = document.querySelector('.loglist li');
                if (!newest) return true;
                return !newest.classList.contains('timeout')
                    && !newest.textContent.endsWith('(played by a bot for you)');
            }"""
        )
    )


def test_chat_spectator_rule_and_a_timed_out_turn_played_by_a_bot(server, browser, shots):
    alice = new_page(browser, server)
    code = create_table(alice, "skyjo", "Alice", {"players": 2}, ["human"])
    bob = join(browser, server, code, "Bob")
    watcher = new_page(browser, server)
    watcher.goto(f"{server}/r/{code}/watch")
    watcher.wait_for_selector("#chat", timeout=TIMEOUT)

    # Players chat; markup is shown as text, never parsed.
    say(alice, "Hello <b>Bob</b> & co")
    for page in (alice, bob, watcher):
        wait_lines(page, 1)
    assert chat_lines(bob) == ["Alice: Hello <b>Bob</b> & co"]
    assert bob.locator("#chat-list b").count() == 0
    assert alice.input_value("#chat-input") == ""
    # What Bob is typing survives a message arriving meanwhile (the page is patched).
    bob.click("#chat-input")
    bob.keyboard.type("Hi Al")
    say(alice, "Are you there?")
    wait_lines(bob, 2)
    assert bob.input_value("#chat-input") == "Hi Al"
    assert bob.evaluate("document.activeElement.id") == "chat-input"
    bob.keyboard.type("ice?")
    bob.keyboard.press("Enter")
    wait_lines(watcher, 3)
    assert chat_lines(watcher) == [
        "Alice: Hello <b>Bob</b> & co",
        "Alice: Are you there?",
        "Bob: Hi Alice?",
    ]
    assert chat_lines(alice)[0] == "Alice (you): Hello <b>Bob</b> & co"
    # The field holds what the server allows.
    assert alice.get_attribute("#chat-input", "maxlength") == "200"
    # The spectator reads but has nothing to write with.
    assert watcher.locator("#chat-input").count() == 0
    assert watcher.locator("#chat-readonly").count() == 1
    assert watcher.locator(".reactionbutton").count() == 0

    # A quick reaction: an icon shipped with the page, named for screen readers.
    bob.click(".reactionbutton[data-reaction=clap]")
    alice.wait_for_selector("#chat-list .chatline.reaction svg.reaction-clap", timeout=TIMEOUT)
    assert "Applause" in alice.locator("#chat-list .chatline.reaction").first.inner_text()

    # The host's table options in the lobby: a refused limit is named with its range.
    assert alice.get_attribute("#table-turn-seconds", "max") == "600"
    alice.fill("#table-turn-seconds", "5")
    alice.dispatch_event("#table-turn-seconds", "change")
    error = alice.locator("#table-turn-seconds-error")
    error.wait_for(timeout=TIMEOUT)
    assert "10 to 600 seconds" in error.inner_text()
    alice.fill("#table-turn-seconds", str(LIMIT))
    alice.dispatch_event("#table-turn-seconds", "change")
    bob.wait_for_function(
        "document.querySelector('#table-options [data-option=turn_seconds] dd')"
        f".textContent === '{LIMIT} s per move'",
        timeout=TIMEOUT,
    )
    assert alice.locator("#table-turn-seconds-error").count() == 0
    # Spectators may write once the host allows it.
    alice.click("#table-spectator-chat")
    watcher.wait_for_selector("#chat-input", timeout=TIMEOUT)
    say(watcher, "Good luck")
    wait_lines(alice, 4)
    assert chat_lines(alice)[3] == "Spectator 1: Good luck"
    alice.screenshot(path=shots / "table-life-lobby.png", full_page=True)

    start(alice)
    for page in (bob, watcher):
        page.wait_for_selector(".board", timeout=TIMEOUT)
    # Everyone sees the countdown of the player to move.
    for page in (alice, bob, watcher):
        page.wait_for_selector("#turn-timer", timeout=TIMEOUT)
    first = alice.get_attribute("#turn-timer", "data-seat")
    late, other, late_name = (alice, bob, "Alice") if first == "0" else (bob, alice, "Bob")
    # Nobody moves: the time runs out and a bot plays the turn, said in every log (the
    # late player's own in their words). Under load the other player's time may run out
    # too: the line is looked for among all of them.
    for page, notice in [
        (other, f"Time is up for {late_name}: a bot plays this turn."),
        (watcher, f"Time is up for {late_name}: a bot plays this turn."),
        (late, "Your time is up: a bot plays this turn."),
    ]:
        page.wait_for_function(
            "text => [...document.querySelectorAll('.loglist li')]"
            ".some(li => li.textContent === text)",
            arg=notice,
            timeout=TIMEOUT + LIMIT * 1000,
        )
    other.wait_for_function(
        "[...document.querySelectorAll('.loglist li')].some(li => "
        f"li.textContent.endsWith('(played by a bot for {late_name})'))",
        timeout=TIMEOUT,
    )
    # The host lifts the limit during the game (the table panel, the host's only): the
    # countdown goes, and the rest of the test runs no race against the clock.
    assert bob.locator("#table-panel").count() == 0
    alice.fill("#table-turn-seconds", "0")
    alice.dispatch_event("#table-turn-seconds", "change")
    for page in (alice, bob, watcher):
        page.wait_for_selector("#turn-timer", state="detached", timeout=TIMEOUT)
    # The chat goes on during the game, and the late player keeps the seat: on the next
    # turn they play themselves.
    say(other, "Still there?")
    wait_lines(late, 5)
    other.screenshot(path=shots / "table-life-timeout.png", full_page=True)
    deadline = time.monotonic() + TIMEOUT / 1000
    while not _own_turn_again(late):
        if time.monotonic() > deadline:
            late.screenshot(path=shots / "table-life-late-stuck.png", full_page=True)
            raise AssertionError("the late player's turn did not come back")
        if not skyjo_step(other):
            late.wait_for_timeout(100)
    late.wait_for_function("!document.querySelector('.board.waiting')", timeout=TIMEOUT)
    before = version(late)
    assert skyjo_step(late), late.screenshot(path=shots / "table-life-late-step.png")
    wait_change(late, before)
    assert not alice.errors and not bob.errors and not watcher.errors

"""The page's fields hold what the server accepts, no more: names (sent by the server),
chat lines, the turn time limit, room codes and the quick reactions."""

from __future__ import annotations

import re
from pathlib import Path

from cardtable.display_names import MAX_NAME
from cardtable.server.rooms.chat import REACTIONS
from cardtable.server.rooms.protocol import MAX_CHAT
from cardtable.server.rooms.table_options import TURN_SECONDS_MAX, TURN_SECONDS_MIN
from cardtable.server.tokens import CODE_LENGTH

from .pages import TIMEOUT, create_table, new_page

JS = Path(__file__).parents[2] / "src" / "cardtable" / "web" / "static" / "js"


def constant(module: str, name: str) -> str:
    found = re.search(rf"const {name} = (.+?);", (JS / module).read_text(encoding="utf-8"))
    assert found, (module, name)
    return found.group(1)


def test_the_page_s_copies_of_the_server_s_limits_are_the_server_s():
    assert int(constant("chat.js", "MAX_CHAT")) == MAX_CHAT
    assert int(constant("tableopts.js", "TURN_SECONDS_MIN")) == TURN_SECONDS_MIN
    assert int(constant("tableopts.js", "TURN_SECONDS_MAX")) == TURN_SECONDS_MAX
    assert int(constant("home.js", "ROOM_CODE_LENGTH")) == CODE_LENGTH
    assert re.findall(r'"(\w+)"', constant("chat.js", "REACTIONS")) == list(REACTIONS)


def test_every_field_of_the_page_has_the_server_s_limit(server, browser):
    page = new_page(browser, server)
    assert page.get_attribute("#your-name", "maxlength") == str(MAX_NAME)
    assert page.get_attribute("#join-code", "maxlength") == str(CODE_LENGTH)
    # Typing more than the server takes leaves what it takes.
    page.fill("#your-name", "")
    page.type("#your-name", "x" * (MAX_NAME + 5))
    assert len(page.input_value("#your-name")) == MAX_NAME
    code = create_table(page, "skyjo", "Alice", {"players": 2}, ["human"])
    assert page.get_attribute("#chat-input", "maxlength") == str(MAX_CHAT)
    assert page.get_attribute("#table-turn-seconds", "min") == "0"
    assert page.get_attribute("#table-turn-seconds", "max") == str(TURN_SECONDS_MAX)
    guest = new_page(browser, server)
    guest.goto(f"{server}/r/{code}")
    guest.wait_for_selector("#join-name", timeout=TIMEOUT)
    assert guest.get_attribute("#join-name", "maxlength") == str(MAX_NAME)
    assert not page.errors and not guest.errors
    for p in (page, guest):
        p.context.close()

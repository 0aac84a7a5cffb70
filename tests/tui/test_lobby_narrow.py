"""The lobby in a terminal too small for its page: the arrows still move the cursor, the
row under it stays in view, and a row wider than the terminal is cut, not wrapped: its
label first, so that the value shows."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual.app import App

from cardtable.core import JSON
from cardtable.games import get_game
from cardtable.tui.lobby import CURSOR, LobbyScreen
from cardtable.tui.source import GameSource, Notify
from cardtable.tui.words import Words


class LobbyOnly(GameSource):
    """A room waiting in its lobby, seen by its host; nothing is ever sent."""

    def __init__(self, game: str) -> None:
        self.game = get_game(game)
        self.seat = 0

    def view(self) -> JSON:
        return {}

    def seat_labels(self) -> list[str]:
        return ["", ""]

    async def run(self, notify: Notify) -> None:
        await asyncio.Event().wait()

    async def submit(self, move: Any) -> None:
        raise AssertionError("no move in the lobby")

    def rematch_role(self) -> str | None:
        return "host"

    def lobby(self) -> JSON | None:
        return {
            "code": "ABCD",
            "status": "lobby",
            "rules": self.game.rules_type().to_json(),
            "seats": [
                {"seat": 0, "kind": "human", "taken": True, "name": "Ann", "connected": True},
                {"seat": 1, "kind": "human", "taken": False},
            ],
        }

    def link(self) -> str | None:
        return "http://127.0.0.1:8000/r/ABCD"


class LobbyApp(App[None]):
    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def on_mount(self) -> None:
        self.push_screen(LobbyScreen(LobbyOnly("skipbo"), Words(self.lang, "skipbo", ["Ann"])))


def _screen_lines(app: App[None]) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


@pytest.mark.parametrize(("lang", "size"), [("de", (40, 14)), ("en", (32, 24)), ("fr", (60, 12))])
def test_the_arrows_move_the_cursor_and_its_row_stays_in_view(
    lang: str, size: tuple[int, int]
) -> None:
    async def go() -> None:
        app = LobbyApp(lang)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            rows = len(lobby.specs)
            widest = max(len(line.plain) for line in lobby.lines())
            assert widest > size[0]  # the page is wider than the terminal...
            assert len(lobby.lines()) > size[1]  # ...and taller
            seen = []
            for step in range(rows + 1):  # once round and back to the first row
                assert lobby.cursor == step % rows
                shown = [line.strip() for line in _screen_lines(app) if CURSOR in line]
                assert len(shown) == 1, (step, _screen_lines(app))  # in view, on one line
                row = next(line.plain for line in lobby.lines() if line.plain.startswith(CURSOR))
                room = lobby.query_one("#lobby").content_size.width
                if len(row) > room:  # cut to the terminal with an ellipsis
                    assert shown[0].endswith("…") and row.startswith(shown[0][:-1])
                else:
                    assert shown[0] == row.strip()
                # A label too long is cut first, so that the value stays in view.
                spec = lobby.specs[lobby.cursor]
                value = lobby.value_words(lobby.values().get(spec.name))
                label = lobby.label(spec)
                assert f"  {value}" in shown[0], (shown[0], value)
                assert label in shown[0] or "…" in shown[0].split("  ")[0]
                seen.append(shown[0])
                await pilot.press("down")
                await pilot.pause()
            for _ in range(rows):
                await pilot.press("up")
                await pilot.pause()
            assert lobby.cursor == 1 % rows
            assert [line.strip() for line in _screen_lines(app) if CURSOR in line] == [seen[1]]
            assert any("…" in line for line in seen)  # some label was too wide and was cut

    asyncio.run(go())


def test_the_labels_follow_the_terminal_when_it_is_resized() -> None:
    async def go() -> None:
        app = LobbyApp("en")
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)

            def option_rows() -> list[str]:
                lines = [line.strip() for line in _screen_lines(app)]
                start = lines.index(lobby.words("lobby.options")) + 1
                return lines[start : start + len(lobby.specs)]

            labels = [lobby.label(spec) for spec in lobby.specs]
            values = [lobby.value_words(lobby.values().get(spec.name)) for spec in lobby.specs]
            longest = max(labels, key=len)
            assert any(longest in row for row in option_rows())  # whole while it fits
            await pilot.resize_terminal(36, 40)
            await pilot.pause()
            await pilot.pause()
            rows = option_rows()
            assert not any(longest in row for row in rows)
            for index, (row, label, value) in enumerate(zip(rows, labels, values, strict=True)):
                assert len(row) <= 36
                shown = row.removeprefix("▶").strip()
                cut = label if label in shown else label[: shown.index("…")]
                assert shown.startswith(cut), (row, label)
                if index != lobby.cursor:  # its value ends it; the cursor's row has a hint
                    assert shown.endswith("  " + value), (row, value)
            assert any("…" in row for row in rows)

    asyncio.run(go())

"""Table talk in the terminal client: chat lines, reactions and a timed-out turn of an
online room are written in the log, as text (a chat line's markup is shown, not read)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import websockets
from textual.widgets import RichLog

from cardtable.tui.app import make_app
from cardtable.tui.remote import RemoteGame
from cardtable.tui.words import Words

from .test_remote import _host_starts, _settle, _skyjo_room, server

__all__ = ["server"]

CHAT = "[bold red]hi[/bold red] <b>all</b>"


def test_chat_and_reactions_reach_the_log_as_text(server: str, tmp_path: Path) -> None:
    async def go() -> None:
        created = _skyjo_room(server)
        code = created["code"]
        source = await RemoteGame.join(f"{server}/r/{code}", name="Tui", store=tmp_path / "s.json")
        starter = asyncio.create_task(_host_starts(server, code, created["host_token"]))
        await source.start(timeout=15)
        await starter
        app = make_app(source, "en")
        async with app.run_test(size=(80, 24)) as pilot:
            await _settle(pilot, app)
            url = server.replace("http", "ws", 1) + f"/ws/{code}"
            async with websockets.connect(url) as ws:
                await ws.send(json.dumps({"type": "hello"}))
                await ws.send(json.dumps({"type": "chat", "text": CHAT}))
                refused = await _until(ws, lambda m: m["type"] == "error")
                assert refused["code"] == "chat_not_allowed"
                allow = {"spectator_chat": True}
                host = created["host_token"]
                await ws.send(json.dumps({"type": "table", "host_token": host, "options": allow}))
                await _until(ws, lambda m: m["type"] == "event" and m["kind"] == "room")
                await ws.send(json.dumps({"type": "chat", "text": CHAT}))
                await ws.send(json.dumps({"type": "reaction", "reaction": "party"}))
                await _until(ws, lambda m: m["type"] == "reaction")
            deadline = time.monotonic() + 15
            wanted = [f"spectator 1: {CHAT}", "spectator 1 reacts: party"]
            while not all(line in app.log_lines for line in wanted):
                assert time.monotonic() < deadline, app.log_lines
                await pilot.pause(0.02)
            shown = "\n".join(strip.text for strip in app.query_one("#log", RichLog).lines)
            assert CHAT in shown  # the brackets as typed: no markup was read
        await source.close()

    asyncio.run(go())


async def _until(ws: Any, wanted: Any) -> dict[str, Any]:
    async with asyncio.timeout(15):
        async for raw in ws:
            message: dict[str, Any] = json.loads(raw)
            if wanted(message):
                return message
    raise AssertionError("the socket closed")


def test_table_talk_in_words_in_each_language() -> None:
    timeouts = {
        "en": "Time is up for Ann: a bot plays this turn.",
        "fr": "Temps écoulé pour Ann : un bot joue ce tour à sa place.",
        "de": "Die Zeit von Ann ist abgelaufen: ein Bot spielt diesen Zug.",
        "it": "Tempo scaduto per Ann: un bot gioca questo turno al suo posto.",
    }
    clap = {"type": "reaction", "seat": None, "spectator": 2, "reaction": "clap"}
    for lang, timeout in timeouts.items():
        words = Words(lang, "skyjo", ["Ann", "Ben"])
        notice = {"type": "notice", "code": "turn_timeout", "seat": 0, "bot": "greedy"}
        assert words.talk(notice) == timeout
        line = words.talk({"type": "chat", "seat": 1, "spectator": None, "text": "ok"})
        assert line is not None and line.startswith("Ben") and line.endswith("ok")
        spectator = words("talk.spectator", n=2)
        assert words.talk(clap) == words(
            "talk.reaction", name=spectator, reaction=words("talk.reaction.clap")
        )
        assert words.talk({"type": "notice", "code": "bot_stand_in", "seat": 0}) is None
    assert Words("en", "skyjo", ["Ann"]).talk(clap) == "spectator 2 reacts: applause"

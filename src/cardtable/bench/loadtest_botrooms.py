"""Rooms of bots only, started beside the load test's rooms of scripted players: the
server's bot workers play them with nobody connected (``--bot-rooms``)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from ..bots.levels import resolve_bot
from ..statuses import SeatKind
from .loadtest_options import MOVE_TIMEOUT, LoadOptions
from .loadtest_server import post_json


def bot_of_room(game: str, levels: str, index: int) -> str:
    """The bot of room ``index``: ``levels`` (comma-separated levels or bot names) taken
    in turn, as the bot name the server knows (``easy`` is ``naive``...)."""
    names = [name.strip() for name in levels.split(",") if name.strip()]
    return resolve_bot(game, names[index % len(names)])


async def start_bot_room(options: LoadOptions, index: int = 0) -> None:
    """Create bot room number ``index``, every seat one of ``options.bot``'s levels (a
    comma-separated list, taken in turn by the rooms), and start it (its bots then
    play on their own, in the server's bot workers, with nobody connected)."""
    from websockets.asyncio.client import connect

    base = options.url.rstrip("/")
    players = options.seats
    bot = bot_of_room(options.game, options.bot, index)
    body: dict[str, Any] = {
        "game": options.game,
        "options": {"players": players, **options.options},
        "seats": [{"kind": SeatKind.BOT.value, "bot": bot}] * players,
    }
    created = await asyncio.to_thread(post_json, f"{base}/api/rooms", body)
    async with connect(created["ws_url"], open_timeout=60, proxy=None) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        await ws.send(json.dumps({"type": "start", "host_token": created["host_token"]}))
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), MOVE_TIMEOUT))
            if message.get("type") == "event" and message.get("kind") == "start":
                return
            if message.get("type") == "error":
                raise ValueError(f"bot room refused: {message.get('code')}")

"""Playing a seat of a live table over the WebSocket, as the terminal client does: the
browser tests that need a finished game let it be played here, fast, and look at the
page for what it shows of it (the verdict, the profile, the leaderboard)."""

from __future__ import annotations

import json
import random
from typing import Any

from websockets.sync.client import connect

#: Moves at most before the game must be over (a 2-player Skyjo game plays a few hundred).
MAX_MESSAGES = 20_000


def seat_token(page: Any, code: str) -> str:
    """The token of the seat the page's browser holds at table ``code``."""
    token: str = page.evaluate(
        "(code) => JSON.parse(localStorage.getItem('cardtable.room.' + code)).token", code
    )
    return token


def play_seat_to_end(base: str, code: str, token: str, seed: int = 1) -> dict[str, Any]:
    """Play the seat of ``token`` (random legal moves) until the game is over; returns
    the ``rated`` message the table sends once the game is judged."""
    choose = random.Random(seed).choice
    url = base.replace("http://", "ws://") + f"/ws/{code}"
    with connect(url, open_timeout=20) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        version, view = 0, None
        for _ in range(MAX_MESSAGES):
            message = json.loads(ws.recv(timeout=60))
            kind = message["type"]
            if kind == "rated":
                return message
            if kind in ("welcome", "sync", "event"):
                version = message["version"]
            if kind in ("sync", "event") and message.get("view") is not None:
                view = message["view"]
                if view["result"] is None and view.get("legal_actions"):
                    action = choose(view["legal_actions"])
                    move = {"type": "move", "token": token, "version": version, "action": action}
                    ws.send(json.dumps(move))
            elif kind == "error" and message["code"] == "stale_version":
                ws.send(json.dumps({"type": "resync", "last_version": version}))
    raise AssertionError("the game did not end")

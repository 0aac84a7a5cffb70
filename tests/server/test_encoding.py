"""The server's messages are encoded by orjson when it is installed (the server extra
installs it): the same text the standard encoder writes, several times faster, for
every kind of message a table sends in both games."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardtable.games import get_game
from cardtable.server.rooms import connections, room
from cardtable.server.rooms.connections import JSON_ENCODER, dumps

from .helpers import client, connect, join, play_to_end, start


def _standard(data: object) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def test_messages_encode_to_the_standard_text():
    assert JSON_ENCODER == "orjson"  # the dev install has the server extra
    rng = random.Random(4)
    for name in ("skyjo", "skipbo"):
        game = get_game(name)
        state = game.new_state(game.rules_from_json({"players": 3}), 11)
        for _ in range(60):
            if state.is_over:
                break
            for seat in (None, 0, 1, 2):
                message = {"type": "sync", "version": 3, "view": state.view(seat)}
                assert dumps(message) == _standard(message)
            state.apply_action(rng.choice(state.legal_actions()))
    odd = {"name": 'Zoë \u2028 \x07 "q" 🂡', "big": 2**70, "neg": -1, "f": 0.5, "n": None}
    assert dumps(odd) == _standard(odd)  # past 64 bits: the standard encoder's text


GAME_OPTIONS = {
    "skyjo": {"players": 2, "end_score": 20},
    "skipbo": {"players": 2, "stock_size": 5},
}


@pytest.mark.parametrize("game", sorted(GAME_OPTIONS))
def test_every_message_a_table_sends_encodes_to_the_standard_text(tmp_path, monkeypatch, game):
    """A whole game at a table with a turn clock, a spectator, chat, a reaction, a
    refused move and a rematch: every message the server encodes on the way (views,
    events, errors, presence, clock, chat, ...) is the standard encoder's text."""
    encoded: list[Any] = []

    def recording(data: Any) -> str:
        encoded.append(data)
        return dumps(data)

    monkeypatch.setattr(room, "dumps", recording)
    monkeypatch.setattr(connections, "dumps", recording)
    with client(tmp_path) as http:
        body = {"game": game, "options": GAME_OPTIONS[game], "name": "Zoë"}
        body["table"] = {"turn_seconds": 60, "spectator_chat": True}
        response = http.post("/api/rooms", json=body)
        assert response.status_code == 201, response.text
        created = response.json()
        bob = join(http, created["code"], "Jürgen")["token"]
        with connect(http, created["code"], created["token"], bob, None) as clients:
            ann, bobs, watcher = clients
            for c in clients:
                c.hello()
            ann.send({"type": "chat", "text": 'hallo "Jürgen" \u2028 ✓ 🂡'})
            bobs.send({"type": "reaction", "reaction": "party"})
            watcher.send({"type": "move", "action": 0})  # a spectator may not move
            watcher.error()
            start(ann, created["host_token"])
            play_to_end([ann, bobs], [watcher], lambda legal: legal[-1])
            ann.send({"type": "ping"})
            ann.until(lambda m: m["type"] == "pong")
    kinds = {message.get("type") for message in encoded if isinstance(message, dict)}
    expected = {"welcome", "sync", "event", "error", "presence", "clock", "chat", "reaction"}
    assert expected | {"pong"} <= kinds, kinds
    assert len(encoded) > 50
    for message in encoded:
        assert dumps(message) == _standard(message), message.get("type")

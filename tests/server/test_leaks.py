"""Leak scan: over whole games with several humans and a spectator, no message to a
recipient holds a card that recipient may not see, nor a token or the seed."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardtable.games import get_game

from .helpers import Client, client, create_room, join, play_to_end, start

ALLOWED_KEYS = {
    "welcome": {"type", "version", "seat", "role", "room"},
    "sync": {"type", "version", "room", "game_no", "view", "clock"},
    "event": {"type", "version", "kind", "room", "game_no", "index", "outcome", "view"},
    "presence": {"type", "version", "seats", "spectators"},
    "pong": {"type", "version"},
    "error": {"type", "code", "reason", "version"},
    "chat_history": {"type", "messages"},
    "clock": {"type", "version", "seat", "seconds", "limit", "timed_out"},
    "rated": {"type", "version", "game_no", "rated", "ladder", "reason", "seats"},
}
ROOM_KEYS = {
    "code",
    "ladder",  # the rules' ladder, public: the page says what a hint costs
    # Before the start: rated or not, and why (no account is named, only a reason).
    "expected_verdict",
    "game",
    "title",
    "rules",
    "status",
    "game_no",
    "version",
    "seats",
    "spectators",
    "table",
}
SEAT_KEYS = {"kind", "bot", "name", "taken", "seat", "connected", "away"}


def _walk(value: Any, path: str = ""):
    if isinstance(value, dict):
        for key, item in value.items():
            yield f"{path}.{key}", key, item
            yield from _walk(item, f"{path}.{key}")
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item, f"{path}[]")


def _hidden_checks(game: str, state, seat: int | None, view: dict[str, Any]) -> None:
    """The cards ``seat`` may not see are absent, checked against the full state."""
    if game == "skyjo":
        for owner, grid in enumerate(view["grids"]):
            for pos in range(12):
                face_down = state.down[owner] >> pos & 1 and state.present[owner] >> pos & 1
                if face_down:
                    assert grid[pos] is None, (owner, pos)
    else:
        hands = [path for path, key, _ in _walk(view) if key == "hand"]
        if seat is None:
            assert hands == []
        else:
            assert hands == [".hand"] and view["hand"] == state.hand_cards(seat)
        for player in view["players"]:
            assert set(player) == {
                "seat", "team", "partner", "hand_size",
                "stock_size", "stock_top", "discards", "score",
            }  # fmt: skip


def _scan(game: str, log: dict[str, Any], start_version: int, seat, messages, secrets) -> int:
    engine = get_game(game)
    rules = engine.rules_from_json(log["rules"])
    actions = [move["action"] for move in log["moves"]]
    versions = [move["version"] for move in log["moves"]]
    outcomes = [move["outcome"] for move in log["moves"]]
    states = [engine.new_state(rules, log["seed"])]
    for action in actions:
        state = states[-1].clone()
        state.apply_action(action)
        states.append(state)
    checked = 0
    for message in messages:
        text = json.dumps(message)
        for secret in secrets:
            assert secret not in text
        assert set(message) <= ALLOWED_KEYS[message["type"]], message["type"]
        for path, key, _ in _walk(message):
            assert key not in ("seed", "token", "host_token", "token_hash", "host_hash"), path
        if message.get("room") is not None:
            assert set(message["room"]) <= ROOM_KEYS
            assert all(set(seat_info) <= SEAT_KEYS for seat_info in message["room"]["seats"])
        view = message.get("view")
        if view is None:
            continue
        version = message["version"]
        position = sum(1 for v in versions if v <= version) if version >= start_version else 0
        if message.get("kind") == "move":
            assert message["index"] == position - 1
            assert message["outcome"] == outcomes[position - 1]
        state = states[position]
        assert view == state.view(seat)
        _hidden_checks(game, state, seat, view)
        checked += 1
    return checked


@pytest.mark.parametrize(
    ("game", "options", "seats"),
    [
        ("skyjo", {"players": 4, "end_score": 40}, ["human", "human", "bot", "human"]),
        ("skipbo", {"players": 4, "stock_size": 6}, ["human", "bot", "human", "human"]),
    ],
)
def test_no_message_leaks_a_hidden_card(tmp_path, game, options, seats):
    rng = random.Random(11)
    specs = [{"kind": kind} for kind in seats]
    with client(tmp_path) as http:
        created = create_room(http, game, options, specs, name="Ann")
        code = created["code"]
        joined = [join(http, code, "Ben"), join(http, code, "Cy")]
        tokens = [created["token"]] + [j["token"] for j in joined]
        with (
            http.websocket_connect(f"/ws/{code}") as w0,
            http.websocket_connect(f"/ws/{code}") as w1,
            http.websocket_connect(f"/ws/{code}") as w2,
            http.websocket_connect(f"/ws/{code}") as ws,
        ):
            players = [Client(w, token) for w, token in zip((w0, w1, w2), tokens, strict=True)]
            spectator = Client(ws)
            for c in [*players, spectator]:
                c.hello()
            start(players[0], created["host_token"])
            play_to_end(players, [spectator], rng.choice)
        log = http.get(f"/api/rooms/{code}/games/1").json()
    start_event = next(m for m in spectator.messages if m.get("kind") == "start")
    secrets = [*tokens, created["host_token"], str(log["seed"])]
    total = 0
    for c in [*players, spectator]:
        total += _scan(game, log, start_event["version"], c.seat, c.messages, secrets)
    # Every recipient saw a view of every move.
    assert total >= 4 * len(log["moves"])

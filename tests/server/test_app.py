"""In-process WebSocket tests: whole games with bots and two humans, refusals, resync."""

from __future__ import annotations

import random

import pytest
from starlette.websockets import WebSocketDisconnect

from cardtable.games import get_game

from .helpers import (
    Client,
    client,
    connect,
    create_room,
    is_move_event,
    join,
    play_to_end,
    receive,
    settle,
    start,
)

SKYJO_SEATS = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]


def _two_humans(http, game, options, seats):
    created = create_room(http, game, options, seats, name="Alice")
    bob = join(http, created["code"], "Bob")
    return created, bob


@pytest.mark.parametrize(
    ("game", "options", "seats"),
    [
        ("skyjo", {"players": 3, "end_score": 60}, SKYJO_SEATS),
        (
            "skipbo",
            {"players": 4, "stock_size": 5, "first_player": 0},  # every seat moves before seat 3
            [
                {"kind": "human"},
                {"kind": "bot", "bot": "random"},
                {"kind": "human"},
                {"kind": "bot"},
            ],
        ),
    ],
)
def test_whole_game_with_bots_and_two_humans(tmp_path, game, options, seats):
    rng = random.Random(5)
    with client(tmp_path) as http:
        created, bob = _two_humans(http, game, options, seats)
        code = created["code"]
        with connect(http, code, created["token"], bob["token"], None) as (alice, bobc, spectator):
            assert alice.hello()["seat"] == 0
            assert bobc.hello()["seat"] == bob["seat"]
            assert spectator.hello()["role"] == "spectator"
            start(alice, created["host_token"])
            play_to_end([alice, bobc], [spectator], rng.choice)
            moves = [m for m in spectator.messages if is_move_event(m)]
            seats_moved = {m["outcome"]["seat"] for m in moves}
            assert seats_moved == set(range(len(seats)))  # humans and bots all played
            result = spectator.view["result"]
        room = http.get(f"/api/rooms/{code}").json()
        assert room["status"] == "finished"
        log = http.get(f"/api/rooms/{code}/games/1").json()
        # The stored result is the engine's, with the count of rounds (profiles).
        stored = dict(log["result"])
        rounds = stored.pop("rounds")
        assert log["finished"] and stored == result
        assert [m["outcome"] for m in log["moves"]] == [m["outcome"] for m in moves]
        # The log replays to the same end in the engine.
        engine = get_game(game)
        state = engine.replay(
            engine.rules_from_json(log["rules"]), log["seed"], [m["action"] for m in log["moves"]]
        )
        assert state.result().to_json() == result and rounds == len(state.rounds()) >= 1


def _started_room(http, game="skyjo", options=None, seats=None):
    created, bob = _two_humans(http, game, options or {"players": 3}, seats or SKYJO_SEATS)
    return created, bob


def test_illegal_move_refused_with_reason_and_nothing_changes(tmp_path):
    with client(tmp_path) as http:
        created, _ = _started_room(http)
        code = created["code"]
        with http.websocket_connect(f"/ws/{code}") as wa:
            alice = Client(wa, created["token"])
            alice.hello()
            start(alice, created["host_token"])
            alice.until(lambda m: m["type"] == "event" and m["kind"] == "start")
            room = http.app.state.table.rooms[code]
            history, version = list(room.state.history), room.version
            legal = alice.view["legal_actions"]
            illegal = next(a for a in range(get_game("skyjo").num_actions) if a not in legal)
            alice.move(illegal)
            error = alice.error()
            assert error["code"] == "illegal_move"
            assert "set-up" in error["reason"] or error["reason"]
            assert error["version"] == version
            alice.send(
                {
                    "type": "move",
                    "token": created["token"],
                    "version": version,
                    "move": {"type": "fly"},
                }
            )
            assert alice.error()["code"] == "bad_move"
            assert room.version == version and room.state.history == history
            alice.move(legal[0])
            event = alice.until(is_move_event)
            assert event["version"] == version + 1 and event["outcome"]["action"] == legal[0]


def test_acting_with_another_seats_token_or_none_is_refused(tmp_path):
    with client(tmp_path) as http:
        created, bob = _started_room(http)
        code = created["code"]
        with (
            http.websocket_connect(f"/ws/{code}") as wa,
            http.websocket_connect(f"/ws/{code}") as wb,
        ):
            alice, bobc = Client(wa, created["token"]), Client(wb, bob["token"])
            alice.hello()
            bobc.hello()
            start(alice, created["host_token"])
            alice.until(lambda m: m["type"] == "event" and m["kind"] == "start")
            bobc.until(lambda m: m["type"] == "event" and m["kind"] == "start")
            room = http.app.state.table.rooms[code]
            version = room.version
            legal = alice.view["legal_actions"]
            # Bob's connection sends a move for the seat to move (Alice) with Alice's token.
            bobc.send(
                {"type": "move", "token": created["token"], "version": version, "action": legal[0]}
            )
            assert bobc.error()["code"] == "bad_token"
            # Alice's connection with Bob's token, and with no token at all.
            alice.send(
                {"type": "move", "token": bob["token"], "version": version, "action": legal[0]}
            )
            assert alice.error()["code"] == "bad_token"
            alice.send({"type": "move", "version": version, "action": legal[0]})
            assert alice.error()["code"] == "bad_message"
            # The host token is not a seat token either.
            alice.send(
                {
                    "type": "move",
                    "token": created["host_token"],
                    "version": version,
                    "action": legal[0],
                }
            )
            assert alice.error()["code"] == "bad_token"
            # Bob moving out of turn with his own token.
            bobc.send(
                {"type": "move", "token": bob["token"], "version": version, "action": legal[0]}
            )
            assert bobc.error()["code"] == "not_your_turn"
            assert room.version == version and room.state.history == []
        # A hello with an unknown token is refused and closed (policy violation).
        with http.websocket_connect(f"/ws/{code}") as wx:
            Client(wx, "not-a-token").send({"type": "hello", "token": "not-a-token"})
            assert receive(wx)["code"] == "bad_token"
            with pytest.raises(WebSocketDisconnect) as closed:
                receive(wx)
            assert closed.value.code == 1008


def test_spectator_is_read_only(tmp_path):
    with client(tmp_path) as http:
        created, _ = _started_room(http)
        code = created["code"]
        with (
            http.websocket_connect(f"/ws/{code}") as wa,
            http.websocket_connect(f"/ws/{code}") as ws,
        ):
            alice, spectator = Client(wa, created["token"]), Client(ws)
            alice.hello()
            assert spectator.hello()["seat"] is None
            start(alice, created["host_token"])
            alice.until(lambda m: m["type"] == "event" and m["kind"] == "start")
            spectator.until(lambda m: m["type"] == "event" and m["kind"] == "start")
            room = http.app.state.table.rooms[code]
            assert spectator.view == room.state.view(None)
            assert spectator.view["legal_actions"] == []
            version = room.version
            legal = alice.view["legal_actions"]
            # Even with a valid seat token, a spectator connection cannot move.
            spectator.send(
                {"type": "move", "token": created["token"], "version": version, "action": legal[0]}
            )
            assert spectator.error()["code"] == "not_a_player"
            spectator.send({"type": "rematch", "host_token": "guess"})
            assert spectator.error()["code"] == "not_host"
            assert room.version == version and room.state.history == []


def test_stale_version_refused_and_resynced(tmp_path):
    with client(tmp_path) as http:
        created, _ = _started_room(http)
        code = created["code"]
        with http.websocket_connect(f"/ws/{code}") as wa:
            alice = Client(wa, created["token"])
            alice.hello()
            start(alice, created["host_token"])
            alice.until(lambda m: m["type"] == "event" and m["kind"] == "start")
            legal = alice.view["legal_actions"]
            alice.move(legal[0])
            alice.until(is_move_event)
            room = http.app.state.table.rooms[code]
            version, history = room.version, list(room.state.history)
            legal = alice.view["legal_actions"]
            alice.send(
                {
                    "type": "move",
                    "token": created["token"],
                    "version": version - 1,
                    "action": legal[0],
                }
            )
            error = alice.error()
            assert error["code"] == "stale_version" and error["version"] == version
            sync = alice.until(lambda m: m["type"] == "sync")
            assert sync["version"] == version
            assert sync["view"] == room.state.view(0)
            assert room.version == version and room.state.history == history


def test_reconnect_with_last_version_receives_exactly_the_missing_events(tmp_path):
    rng = random.Random(2)
    with client(tmp_path) as http:
        created, bob = _started_room(http)
        code = created["code"]
        with connect(http, code, created["token"], bob["token"], None) as (alice, bobc, watcher):
            for c in (alice, bobc, watcher):
                c.hello()
            start(alice, created["host_token"])
            for c in (alice, bobc, watcher):
                c.until(lambda m: m["type"] == "event" and m["kind"] == "start")
            settle([alice, bobc, watcher])
            left_at = bobc.version
            bobc.ws.close()
            # Alice plays on; the bot too. Bob and a spectator who left at the same moment
            # miss these events.
            for _ in range(12):
                version = settle([alice, watcher])
                if alice.my_turn():
                    alice.move(rng.choice(alice.view["legal_actions"]))
                    settle_to = version + 1
                    for c in (alice, watcher):
                        c.until(lambda m, v=settle_to: m["type"] == "event" and m["version"] >= v)
                elif watcher.view["current_player"] == 1:
                    break  # Bob's turn: nothing more happens without him
                else:
                    for c in (alice, watcher):
                        c.until(lambda m, v=version: m["type"] == "event" and m["version"] > v)
            settle([alice, watcher])
            current = http.app.state.table.rooms[code].version
            assert current > left_at
            with (
                http.websocket_connect(f"/ws/{code}") as wb2,
                http.websocket_connect(f"/ws/{code}") as ws2,
            ):
                back = Client(wb2, bob["token"])
                back.hello(last_version=left_at)
                missed = [back.next() for _ in range(current - left_at)]
                assert [m["version"] for m in missed] == list(range(left_at + 1, current + 1))
                assert all(m["type"] == "event" for m in missed)
                # A spectator coming back at the same version gets the watcher's events exactly.
                spectator = Client(ws2)
                spectator.hello(last_version=left_at)
                again = [spectator.next() for _ in range(current - left_at)]
                seen = [
                    m for m in watcher.messages if m["type"] == "event" and m["version"] > left_at
                ]
                assert again == seen
                # Bob's catch-up has his own views, the same outcomes.
                assert [m.get("outcome") for m in missed] == [m.get("outcome") for m in seen]
                assert missed[-1]["view"] == http.app.state.table.rooms[code].state.view(1)
                # Nothing else was owed: the next message is the presence update, not an event.
                back.send({"type": "ping"})
                assert back.until(lambda m: m["type"] in ("pong", "event"))["type"] == "pong"


def test_hello_without_last_version_gets_a_full_sync(tmp_path):
    with client(tmp_path) as http:
        created, _ = _started_room(http)
        with http.websocket_connect(f"/ws/{created['code']}") as ws:
            c = Client(ws, created["token"])
            c.hello()
            sync = c.next()
            assert sync["type"] == "sync" and sync["room"]["code"] == created["code"]
            assert sync["view"] is None  # still in the lobby

"""Table life: table options (turn time limit, spectator chat), the turn clock and its
bot, and the table chat with its reactions. Time is a fake clock the tests move on."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from cardtable.server.app import create_app
from cardtable.server.errors import RoomError
from cardtable.server.ops.config import ServerConfig
from cardtable.server.rooms.chat import HISTORY, REACTIONS, clean_text
from cardtable.server.rooms.protocol import ReactionMessage
from cardtable.server.rooms.table import Table
from cardtable.server.rooms.table_options import TableOptions

from .helpers import Client, config, create_room, is_move_event, join, start


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def app_client(tmp_path: Path, clock: FakeClock, **changes: Any) -> TestClient:
    """A TestClient whose table reads ``clock`` from before it opens (restore included)."""
    app = create_app(config(tmp_path, **changes))
    app.state.table.clock = clock
    return TestClient(app)


def two_players(http: TestClient, table: dict[str, Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"game": "skyjo", "options": {"players": 2}, "name": "Ann"}
    if table is not None:
        body["table"] = table
    response = http.post("/api/rooms", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    created["bob"] = join(http, created["code"], "Bob")["token"]
    return created


def is_clock(message: dict[str, Any]) -> bool:
    return message["type"] == "clock"


def catch_up(version: int, *clients: Client) -> None:
    """Read until every one of ``clients`` has seen ``version``."""
    for c in clients:
        if c.version < version:
            c.until(lambda m: m["type"] in ("event", "sync") and m["version"] >= version)


def pong(player: Client) -> None:
    """Everything the server pushed to ``player`` before this point has been read."""
    player.send({"type": "ping"})
    player.until(lambda m: m["type"] == "pong")


# --- table options ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("table", "field"),
    [
        ({"turn_seconds": 5}, "turn_seconds"),
        ({"turn_seconds": 601}, "turn_seconds"),
        ({"turn_seconds": True}, "turn_seconds"),
        ({"turn_seconds": 30.5}, "turn_seconds"),
        ({"spectator_chat": "yes"}, "spectator_chat"),
        ({"public": 1}, "public"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_a_bad_table_option_is_refused_naming_the_field(tmp_path, table, field):
    with app_client(tmp_path, FakeClock()) as http:
        body = {"game": "skyjo", "options": {"players": 2}, "table": table}
        response = http.post("/api/rooms", json=body)
        assert response.status_code == 400
        error = response.json()
        assert error["error"] == "bad_table_options" and error["field"] == field
        assert field in error["reason"]
        if field == "turn_seconds":
            assert error["allowed_key"] == "allowed.turn_seconds"
            assert error["allowed_params"] == {"low": 10, "high": 600}
            assert "10 to 600" in error["reason"]
        assert http.app.state.table.rooms == {}


def test_table_options_are_set_by_the_host_only_and_a_refusal_changes_nothing(tmp_path):
    with app_client(tmp_path, FakeClock()) as http:
        created = two_players(http, {"turn_seconds": 45})
        code = created["code"]
        assert created["room"]["table"] == {
            "turn_seconds": 45,
            "spectator_chat": False,
            "public": False,
            "coach": False,
        }
        with (
            http.websocket_connect(f"/ws/{code}") as wa,
            http.websocket_connect(f"/ws/{code}") as wb,
        ):
            ann, bob = Client(wa, created["token"]), Client(wb, created["bob"])
            ann.hello()
            bob.hello()
            bob.send(
                {"type": "table", "host_token": created["bob"], "options": {"spectator_chat": 1}}
            )
            assert bob.error()["code"] == "not_host"
            version = ann.version
            bad = {"type": "table", "host_token": created["host_token"]}
            ann.send({**bad, "options": {"turn_seconds": 9}})
            error = ann.error()
            assert error["code"] == "bad_table_options" and error["field"] == "turn_seconds"
            ann.send({**bad, "options": {}})
            assert ann.error()["code"] == "bad_message"
            room = http.app.state.table.rooms[code]
            assert room.version == version and room.table_options.turn_seconds == 45
            ann.send({**bad, "options": {"turn_seconds": 20, "spectator_chat": True}})
            event = bob.until(lambda m: m["type"] == "event" and m["kind"] == "room")
            assert event["version"] == version + 1
            assert event["room"]["table"] == {
                "turn_seconds": 20,
                "spectator_chat": True,
                "public": False,
                "coach": False,
            }
    # Saved with the room: a restarted server has them.
    with app_client(tmp_path, FakeClock()) as http:
        assert http.get(f"/api/rooms/{code}").json()["table"]["turn_seconds"] == 20


def test_table_options_are_not_rules_and_an_old_record_has_the_defaults():
    assert TableOptions.from_record(None) == TableOptions(0, False)
    options = TableOptions().changed({"turn_seconds": 600})
    assert options.to_json() == {
        "turn_seconds": 600,
        "spectator_chat": False,
        "public": False,
        "coach": False,
    }
    with pytest.raises(RoomError) as refused:
        options.changed({"turn_seconds": 10, "spectator_chat": 1})
    assert refused.value.fields["field"] == "spectator_chat"
    assert options.turn_seconds == 600  # a refusal changed nothing


# --- the turn clock -----------------------------------------------------------------
def test_a_turn_that_runs_out_is_played_by_a_bot_and_the_player_keeps_the_seat(tmp_path):
    clock = FakeClock()
    with app_client(tmp_path, clock) as http:
        created = two_players(http, {"turn_seconds": 30})
        code = created["code"]
        room = http.app.state.table.rooms[code]
        with (
            http.websocket_connect(f"/ws/{code}") as wa,
            http.websocket_connect(f"/ws/{code}") as wb,
            http.websocket_connect(f"/ws/{code}") as ws,
        ):
            ann, bob, watcher = Client(wa, created["token"]), Client(wb, created["bob"]), Client(ws)
            for c in (ann, bob, watcher):
                c.hello()
            start(ann, created["host_token"])
            first = watcher.until(is_clock)
            assert room.state is not None
            seat = room.state.current_player
            assert first["seat"] == seat and first["seconds"] == 30 and first["limit"] == 30
            late, other = (ann, bob) if seat == 0 else (bob, ann)
            # 29 seconds on: still the player's move.
            clock.now += 29
            watcher.ws.portal.call(room.clock.wake)
            pong(watcher)
            assert room.clock.remaining() == pytest.approx(1.0)
            assert room.clock.timed_out is None and room.version == first["version"]
            # Past the limit: everyone is told, and a bot plays the player's turn.
            clock.now += 2
            watcher.ws.portal.call(room.clock.wake)
            notice = watcher.until(lambda m: m["type"] == "notice")
            assert notice["code"] == "turn_timeout" and notice["seat"] == seat
            assert notice["bot"] == "greedy"
            assert "cardtable_turn_timeouts_total 1" in http.get("/metrics").text
            played = watcher.until(is_move_event)
            assert played["outcome"]["seat"] == seat
            # Once the turn passes, the next player's clock starts from the full limit.
            nxt = watcher.until(lambda m: is_clock(m) and m["seat"] not in (None, seat))
            assert nxt["seconds"] == 30 and room.clock.timed_out is None
            # The bot's moves are ordinary moves of the log.
            logged = http.get(f"/api/rooms/{code}/games/1").json()["moves"]
            assert logged[0]["outcome"] == played["outcome"]
            # The late player's seat is theirs: on their next turn they move themselves.
            catch_up(room.version, late, other)
            while room.state.current_player != seat:
                other.move(other.view["legal_actions"][0])
                other.until(is_move_event)
                catch_up(room.version, late, other)
            assert room.bot_for(seat) is None and late.my_turn()
            version = late.version
            late.move(late.view["legal_actions"][0])
            event = late.until(is_move_event)
            assert event["version"] == version + 1 and event["outcome"]["seat"] == seat


def test_a_player_who_moves_while_the_bot_finishes_their_turn_takes_it_back(tmp_path):
    clock = FakeClock()
    # A long bot pause: the player's move comes before the bot's.
    with app_client(tmp_path, clock, bot_pause=30.0) as http:
        created = two_players(http, {"turn_seconds": 10})
        code = created["code"]
        room = http.app.state.table.rooms[code]
        with (
            http.websocket_connect(f"/ws/{code}") as wa,
            http.websocket_connect(f"/ws/{code}") as wb,
        ):
            ann, bob = Client(wa, created["token"]), Client(wb, created["bob"])
            ann.hello()
            bob.hello()
            start(ann, created["host_token"])
            ann.until(lambda m: m["type"] == "event" and m["kind"] == "start")
            bob.until(lambda m: m["type"] == "event" and m["kind"] == "start")
            assert room.state is not None
            seat = room.state.current_player
            late = ann if seat == 0 else bob
            clock.now += 11
            late.ws.portal.call(room.clock.wake)
            late.until(lambda m: m["type"] == "notice" and m["code"] == "turn_timeout")
            assert room.bot_for(seat) == "greedy"
            # A refused move takes nothing back: the bot still finishes the turn.
            legal = late.view["legal_actions"]
            late.move(next(a for a in range(1000) if a not in legal))
            assert late.error()["code"] in ("illegal_move", "bad_move")
            assert room.clock.timed_out == seat and room.clock.deadline is None
            late.move(legal[0])
            late.until(is_move_event)
            assert room.clock.timed_out is None and room.bot_for(seat) is None
            # Same player still to move (a Skyjo set-up has two flips): their clock again.
            assert room.state.current_player == seat
            assert room.clock.seat == seat and room.clock.remaining() == 10


def test_a_restored_room_starts_the_clock_again(tmp_path):
    clock = FakeClock()
    with app_client(tmp_path, clock) as http:
        created = two_players(http, {"turn_seconds": 30})
        code = created["code"]
        with http.websocket_connect(f"/ws/{code}") as wa:
            ann = Client(wa, created["token"])
            ann.hello()
            start(ann, created["host_token"])
            ann.until(is_clock)
            room = http.app.state.table.rooms[code]
            seat = room.clock.seat
            clock.now += 25
            assert room.clock.remaining() == pytest.approx(5.0)
    clock.now += 100  # the server was down a while
    with app_client(tmp_path, clock) as http:
        room = http.app.state.table.rooms[code]
        assert room.table_options.turn_seconds == 30
        assert room.clock.seat == seat and room.clock.remaining() == 30
        with http.websocket_connect(f"/ws/{code}") as wb:
            bob = Client(wb, created["bob"])
            bob.hello()
            told = bob.until(is_clock)
            assert told["seat"] == seat and told["seconds"] == 30
            bob.send({"type": "resync"})
            sync = bob.until(lambda m: m["type"] == "sync")
            assert sync["clock"]["seat"] == seat


def test_no_clock_without_a_limit_nor_for_bot_seats(tmp_path):
    clock = FakeClock()
    with app_client(tmp_path, clock) as http:
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
        created = create_room(http, "skyjo", {"players": 2}, seats, name="Ann")
        code = created["code"]
        room = http.app.state.table.rooms[code]
        with http.websocket_connect(f"/ws/{code}") as wa:
            ann = Client(wa, created["token"])
            ann.hello()
            start(ann, created["host_token"])
            ann.until(lambda m: m["type"] == "event" and m["kind"] == "start")
            pong(ann)
            assert room.clock.deadline is None
            assert not any(is_clock(m) and m["seat"] is not None for m in ann.messages)


# --- chat and reactions -------------------------------------------------------------
def test_players_chat_spectators_read_and_write_only_when_the_host_allows(tmp_path):
    clock = FakeClock()
    with app_client(tmp_path, clock) as http:
        created = two_players(http)
        code = created["code"]
        with (
            http.websocket_connect(f"/ws/{code}") as wa,
            http.websocket_connect(f"/ws/{code}") as wb,
            http.websocket_connect(f"/ws/{code}") as ws,
        ):
            ann, bob, watcher = Client(wa, created["token"]), Client(wb, created["bob"]), Client(ws)
            for c in (ann, bob, watcher):
                c.hello()
            ann.send({"type": "chat", "text": "  hello <b>Bob</b>\n&amp; all "})
            for c in (ann, bob, watcher):
                line = c.until(lambda m: m["type"] == "chat")
                assert line["text"] == "hello <b>Bob</b> &amp; all"  # as sent: shown as text
                assert line["seat"] == 0 and line["name"] == "Ann" and line["spectator"] is None
            watcher.send({"type": "chat", "text": "may I?"})
            assert watcher.error()["code"] == "chat_not_allowed"
            watcher.send({"type": "reaction", "reaction": "clap"})
            assert watcher.error()["code"] == "chat_not_allowed"
            bob.send({"type": "reaction", "reaction": "party"})
            reaction = watcher.until(lambda m: m["type"] == "reaction")
            assert reaction["seat"] == 1 and reaction["reaction"] == "party"
            pong(ann)
            assert [m["text"] for m in ann.messages if m["type"] == "chat"] == [
                "hello <b>Bob</b> &amp; all"
            ]
            ann.send(
                {
                    "type": "table",
                    "host_token": created["host_token"],
                    "options": {"spectator_chat": True},
                }
            )
            watcher.until(lambda m: m["type"] == "event" and m["room"]["table"]["spectator_chat"])
            watcher.send({"type": "chat", "text": "thanks"})
            line = bob.until(lambda m: m["type"] == "chat")
            assert line["seat"] is None and line["spectator"] == 1 and line["text"] == "thanks"
        # A reconnecting player (and any newcomer) gets the recent chat.
        with http.websocket_connect(f"/ws/{code}") as wb:
            bob = Client(wb, created["bob"])
            bob.hello()
            history = bob.until(lambda m: m["type"] == "chat_history")
            assert [m["text"] for m in history["messages"]] == [
                "hello <b>Bob</b> &amp; all",
                "thanks",
            ]


def test_bad_chat_messages_get_an_error_and_the_connection_goes_on(tmp_path):
    with app_client(tmp_path, FakeClock()) as http:
        created = two_players(http)
        code = created["code"]
        with http.websocket_connect(f"/ws/{code}") as wa:
            ann = Client(wa, created["token"])
            ann.hello()
            for bad, where in [
                ({"type": "chat", "text": "x" * 201}, "text"),
                ({"type": "chat"}, "text"),
                ({"type": "chat", "text": 5}, "text"),
                ({"type": "chat", "text": ""}, "text"),
                ({"type": "chat", "text": "hi", "seat": 1}, "seat"),
                ({"type": "reaction", "reaction": "poop"}, "reaction"),
                ({"type": "reaction", "reaction": ["clap"]}, "reaction"),
            ]:
                ann.send(bad)
                error = ann.error()
                assert error["code"] == "bad_message" and where in error["reason"], bad
            ann.send({"type": "chat", "text": " \n\t\u202e\x07 "})
            assert ann.error()["code"] == "chat_empty"
            ann.send({"type": "chat", "text": "x" * 200})
            assert len(ann.until(lambda m: m["type"] == "chat")["text"]) == 200
            pong(ann)
            assert http.app.state.table.rooms[code].chat.next_id == 2


def test_chat_and_reactions_are_rate_limited_per_seat(tmp_path):
    clock = FakeClock()
    with app_client(tmp_path, clock) as http:
        created = two_players(http)
        code = created["code"]
        with http.websocket_connect(f"/ws/{code}") as wa:
            ann = Client(wa, created["token"])
            ann.hello()
            for n in range(5):
                ann.send({"type": "chat", "text": f"line {n}"})
                ann.until(lambda m: m["type"] == "chat")
            ann.send({"type": "chat", "text": "one too many"})
            assert ann.error()["code"] == "chat_rate_limited"
            for _ in range(5):
                ann.send({"type": "reaction", "reaction": "wow"})
                ann.until(lambda m: m["type"] == "reaction")
            ann.send({"type": "reaction", "reaction": "wow"})
            assert ann.error()["code"] == "chat_rate_limited"
        # A new connection of the same seat has the same buckets.
        with http.websocket_connect(f"/ws/{code}") as wa:
            ann = Client(wa, created["token"])
            ann.hello()
            ann.send({"type": "chat", "text": "reconnected"})
            assert ann.error()["code"] == "chat_rate_limited"
            clock.now += 2.0  # one line every 2 s
            ann.send({"type": "chat", "text": "later"})
            assert ann.until(lambda m: m["type"] in ("chat", "error"))["type"] == "chat"
            assert http.app.state.table.metrics.chat_refused == 3
            assert "cardtable_chat_refused_total 3" in http.get("/metrics").text


def test_the_chat_history_is_bounded(tmp_path):
    clock = FakeClock()
    with app_client(tmp_path, clock) as http:
        created = two_players(http)
        code = created["code"]
        with http.websocket_connect(f"/ws/{code}") as wa:
            ann = Client(wa, created["token"])
            ann.hello()
            for n in range(HISTORY + 10):
                clock.now += 2.0
                ann.send({"type": "chat", "text": f"line {n}"})
                ann.until(lambda m: m["type"] == "chat")
        with http.websocket_connect(f"/ws/{code}") as ws:
            watcher = Client(ws)
            watcher.hello()
            history = watcher.until(lambda m: m["type"] == "chat_history")["messages"]
            assert len(history) == HISTORY
            assert history[0]["text"] == "line 10" and history[-1]["id"] == HISTORY + 10


def test_chat_text_is_one_clean_line():
    assert clean_text("a\u202eb\x07c\r\nd\u2066e") == "abc de"
    assert clean_text("e\u0301t\u00e9") == "\u00e9t\u00e9"  # NFC
    assert clean_text("👍🏽 ok") == "👍🏽 ok"
    with pytest.raises(RoomError):
        clean_text("\u200f\x00")
    assert set(REACTIONS) == set(ReactionMessage.model_fields["reaction"].annotation.__args__)


# --- in a cluster -------------------------------------------------------------------
def test_a_node_that_lost_the_room_cannot_commit_a_timed_out_turn(postgres_url):
    from .test_cluster import _eventually

    def node(name: str) -> Table:
        # Long leases: no lease round tells A it lost the room; only the fence does.
        table = Table(
            ServerConfig(
                db_url=postgres_url,
                node_id=name,
                lease_seconds=60.0,
                bot_pause=0.0,
                bot_processes=0,
                grace_seconds=600.0,
            )
        )
        table.clock = clock
        return table

    clock = FakeClock()

    async def scenario() -> None:
        a = node("node-a")
        await a.open()
        b = node("node-b")
        try:
            created = await a.create_room(
                "skyjo", {"players": 2}, None, "Ann", "198.51.100.1", {"turn_seconds": 10}
            )
            code = created["code"]
            await a.rooms[code].lobby.join("Ben", None)
            await a.rooms[code].lobby.start(created["host_token"])
            old = a.rooms[code]
            assert old.clock.seat is not None
            # Node B takes the room over (A paused past its lease, say): a new epoch.
            await b.open()
            adopted = await b.adopt(code, force=True)
            assert adopted is not None and adopted.epoch == old.epoch + 1
            assert adopted.clock.seat == old.clock.seat and adopted.clock.remaining() == 10
            # A's clock runs out: its bot's move is fenced, and A drops the room.
            clock.now += 11
            old.clock.wake()
            assert await _eventually(lambda: _true(code not in a.rooms))
            assert old.closed and len(old.state.history) == 0
            # B's clock ran out too: B's bot plays the turn, on B's epoch.
            adopted.clock.wake()
            assert await _eventually(lambda: _true(len(adopted.state.history) > 0))
            async with b.storage._engine().connect() as connection:
                logged = (await connection.execute(sa.text("SELECT count(*) FROM moves"))).scalar()
            assert logged == len(adopted.state.history)
        finally:
            await a.close()
            await b.close()

    asyncio.run(scenario())


async def _true(value: bool) -> bool:
    return value

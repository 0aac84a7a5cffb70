"""The server on PostgreSQL (``--db postgresql+asyncpg://...``): the Alembic schema, and a
whole game through the app then a restart that restores an unfinished room by replay.

The storage tests shared with SQLite run on both databases through the ``database``
fixture (test_storage.py) and the ``path`` fixture (test_group_commit.py).
"""

from __future__ import annotations

import asyncio

from starlette.testclient import TestClient

from cardtable.online import create_app
from cardtable.server.storage.store import Storage
from cardtable.server.storage.tables import CLIENT_LENGTH

from .helpers import Client, client, config, create_room, is_move_event, join, start
from .test_group_commit import fetch, rows


def test_the_migration_creates_the_schema_and_is_idempotent(postgres_url):
    async def scenario():
        for _ in range(2):  # a second start finds the schema at the head and changes nothing
            storage = Storage(postgres_url)
            await storage.open()
            assert storage.engine is not None and storage.engine.dialect.name == "postgresql"
            await storage.close()
        return await fetch(
            postgres_url,
            "SELECT table_name, column_name, data_type FROM information_schema.columns"
            " WHERE table_schema = 'public'",
        )

    columns = {(table, column): kind for table, column, kind in asyncio.run(scenario())}
    assert {table for table, _ in columns} == {
        "rooms",
        "games",
        "moves",
        "users",
        "sessions",
        "seat_claims",
        "known_browsers",
        "throttles",
        "ratings",
        "rated_games",
        "alembic_version",
    }
    assert columns["rooms", "seed"] == "bigint" and columns["moves", "version"] == "bigint"
    assert columns["rooms", "rules"] == "json" and columns["games", "result"] == "json"
    assert columns["rooms", "created_at"] == "double precision"
    assert rows(postgres_url, "SELECT version_num FROM alembic_version") == [("0008",)]
    indexes = rows(postgres_url, "SELECT indexname FROM pg_indexes WHERE tablename = 'rooms'")
    assert ("ix_rooms_status",) in indexes and ("ix_rooms_lobby",) in indexes
    assert columns["rooms", "public"] == "boolean"
    indexes = rows(postgres_url, "SELECT indexname FROM pg_indexes WHERE tablename = 'ratings'")
    assert ("ix_ratings_board",) in indexes


def test_a_whole_game_then_a_restart_restores_the_unfinished_room(tmp_path, postgres_url):
    with client(tmp_path, db_url=postgres_url) as http:
        # A whole short game against a bot, to its end.
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
        done = create_room(http, "skyjo", {"players": 2, "end_score": 5}, seats, name="Zoë")
        with http.websocket_connect(f"/ws/{done['code']}") as ws:
            zoe = Client(ws, done["token"])
            zoe.hello()
            start(zoe, done["host_token"])
            while zoe.view is None or zoe.view["result"] is None:
                if zoe.my_turn():
                    zoe.move(zoe.view["legal_actions"][-1])
                zoe.until(lambda m: m["type"] in ("event", "sync"))
        finished = http.app.state.table.rooms[done["code"]]
        assert finished.status == "finished"

        # A second room left in the middle of its game.
        seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
        options = {"players": 3, "stock_size": 5, "first_player": 0}
        live = create_room(http, "skipbo", options, seats, name="Ann")
        code = live["code"]
        join(http, code, "Ben")
        with http.websocket_connect(f"/ws/{code}") as ws:
            ann = Client(ws, live["token"])
            ann.hello()
            start(ann, live["host_token"])
            ann.until(lambda m: m["type"] == "event" and m["kind"] == "start")
            for _ in range(3):
                if not ann.my_turn():
                    break
                ann.move(ann.view["legal_actions"][0])
                ann.until(is_move_event)
            assert ann.view["moves_played"] >= 1
        before = {
            key: (room.status, room.version, room.state.to_json())
            for key, room in http.app.state.table.rooms.items()
        }
        log = http.get(f"/api/rooms/{done['code']}/games/1").json()
        assert log["finished"] and isinstance(log["seed"], int)

    # A new app on the same database: the rooms come back by replay, in the same state.
    with client(tmp_path / "other", db_url=postgres_url) as http:
        after = {
            key: (room.status, room.version, room.state.to_json())
            for key, room in http.app.state.table.rooms.items()
        }
        assert after == before
        assert after[code][0] == "playing"
        assert http.get(f"/api/rooms/{done['code']}/games/1").json() == log
        with http.websocket_connect(f"/ws/{code}") as ws:
            back = Client(ws, live["token"])
            back.hello()
            assert back.until(lambda m: m["type"] == "sync")["version"] == before[code][1]
    assert not (tmp_path / "other" / "data" / "cardtable.db").exists()  # no SQLite file used
    names = rows(postgres_url, "SELECT seats FROM rooms WHERE code = :c", c=done["code"])
    assert "Zoë" in str(names)


def test_a_client_address_longer_than_its_column_still_creates_a_room(tmp_path, database):
    # Behind a proxy the address comes from X-Forwarded-For, any text: PostgreSQL refused
    # the row (SQLite does not enforce VARCHAR lengths), so room creation failed with 500.
    app = create_app(config(tmp_path, db_url=database))
    with TestClient(app, client=("h" * 100, 5000)) as http:
        created = create_room(http, "skyjo", {"players": 2})
        assert http.app.state.table.rooms[created["code"]].client == "h" * CLIENT_LENGTH

"""Storage: the SQLite file in WAL mode with the Alembic schema, restore by replay, replays
(the last two on SQLite and on PostgreSQL, through the ``database`` fixture)."""

from __future__ import annotations

import sqlite3

import sqlalchemy

from cardtable.server.ops.config import ServerConfig, sqlite_url

from .helpers import Client, client, create_room, is_move_event, join, start


def test_sqlite_file_is_created_in_wal_mode_with_the_migrated_schema(tmp_path):
    with client(tmp_path) as http:
        create_room(http, "skyjo", {"players": 2})
    path = tmp_path / "data" / "cardtable.db"
    assert path.exists()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"rooms", "games", "moves", "alembic_version"} <= tables
        assert db.execute("SELECT version_num FROM alembic_version").fetchone()[0] == "0008"
        (hashes,) = db.execute("SELECT host_hash FROM rooms").fetchone()
        assert len(hashes) == 64  # only a hash of the host token is stored


def test_default_database_is_sqlite_in_the_data_folder(tmp_path):
    config = ServerConfig(data_dir=tmp_path)
    assert config.database_url() == sqlite_url(tmp_path) and config.uses_sqlite()
    assert (
        ServerConfig(db_url="postgresql+asyncpg://u@h/db").database_url().startswith("postgresql")
    )


def test_a_restarted_server_restores_the_room_by_replay(tmp_path, database):
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    with client(tmp_path, db_url=database) as http:
        created = create_room(
            http, "skipbo", {"players": 3, "stock_size": 5, "first_player": 0}, seats, name="Ann"
        )
        code = created["code"]
        ben = join(http, code, "Ben")
        with http.websocket_connect(f"/ws/{code}") as wa:
            ann = Client(wa, created["token"])
            ann.hello()
            start(ann, created["host_token"])
            ann.until(lambda m: m["type"] == "event" and m["kind"] == "start")
            for _ in range(3):  # Ann's first moves (Ben never comes, so stop at his turn)
                if not ann.my_turn():
                    break
                ann.move(ann.view["legal_actions"][0])
                ann.until(is_move_event)
            assert ann.view["moves_played"] >= 1
        before = http.app.state.table.rooms[code]
        state, version, seen = before.state.to_json(), before.version, ann.version
    with client(tmp_path, db_url=database) as http:
        room = http.app.state.table.rooms[code]
        assert room.state.to_json() == state and room.version == version
        # Ben, who never connected, gets a full sync; Ann gets exactly what she missed.
        with (
            http.websocket_connect(f"/ws/{code}") as wb,
            http.websocket_connect(f"/ws/{code}") as wa,
        ):
            Client(wb, ben["token"]).hello()
            assert Client(wb).next()["type"] == "sync"
            back = Client(wa, created["token"])
            back.hello(last_version=seen)
            missed = [back.next() for _ in range(version - seen)]
            assert [m["version"] for m in missed] == list(range(seen + 1, version + 1))
            if missed:
                assert missed[-1]["view"] == room.state.view(0)


def test_replay_endpoints_step_through_a_finished_game(tmp_path, database):
    with client(tmp_path, db_url=database) as http:
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
        created = create_room(http, "skyjo", {"players": 2, "end_score": 5}, seats, name="Ann")
        code = created["code"]
        with http.websocket_connect(f"/ws/{code}") as wa:
            ann = Client(wa, created["token"])
            ann.hello()
            live = http.get(f"/api/rooms/{code}/games")
            assert live.status_code == 404  # nothing played yet
            start(ann, created["host_token"])
            ann.until(lambda m: m["type"] == "event" and m["kind"] == "start")
            running = http.get(f"/api/rooms/{code}/games/1").json()
            assert running["seed"] is None and not running["finished"]  # the seed stays secret
            while ann.view is None or ann.view["result"] is None:
                if ann.my_turn():
                    ann.move(ann.view["legal_actions"][-1])
                ann.until(lambda m: m["type"] in ("event", "sync"))
        log = http.get(f"/api/rooms/{code}/games/1").json()
        assert log["finished"] and isinstance(log["seed"], int)
        steps = len(log["moves"])
        first = http.get(f"/api/rooms/{code}/games/1/steps/0").json()
        assert first["outcome"] is None and first["steps"] == steps
        last = http.get(f"/api/rooms/{code}/games/1/steps/{steps}").json()
        assert last["view"] == ann.view | {"seat": None, "legal_actions": []}
        assert last["outcome"] == log["moves"][-1]["outcome"]
        assert http.get(f"/api/rooms/{code}/games/1/steps/{steps + 1}").status_code == 404
        assert http.get(f"/api/rooms/{code}/games/2").status_code == 404


def test_the_migrations_end_at_the_declared_tables(tmp_path):
    """What the migrations build is what ``db/tables.py`` declares (Alembic's compare
    finds no difference), so a new table cannot ship without its migration."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from cardtable.server.storage.tables import metadata

    with client(tmp_path):
        pass
    engine = sqlalchemy.create_engine(f"sqlite:///{tmp_path / 'data' / 'cardtable.db'}")
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), metadata)
    engine.dispose()
    assert differences == []

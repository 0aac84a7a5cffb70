"""A room whose game was recorded under an earlier rules edition is restored as played.

The server rebuilds rooms by replaying their move logs, so a rules change must not turn
a game in progress into another game: a Skip-Bo log written before rules edition 2 (its
rules name no edition) replays under edition 1, move for move.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from cardtable.skipbo import GAME, SkipBoRules

from .helpers import Client, client, create_room, join, start

RECORDED = json.loads(
    (Path(__file__).parents[1] / "skipbo" / "data" / "edition1_games.json").read_text()
)
#: 3 random players, 81 rounds, 79 of them blocked under edition 1.
MATCH = next(game for game in RECORDED["games"] if game["rules"].get("rounds"))
MOVES = 1200  # well past the first rounds edition 1 called blocked


def test_a_room_recorded_under_edition_1_is_restored_under_it(tmp_path: Path) -> None:
    old_rules = MATCH["rules"]
    assert "edition" not in old_rules
    options = {k: v for k, v in old_rules.items() if k in ("players", "stock_size", "rounds")}
    options["target"] = old_rules["target"]
    with client(tmp_path) as http:
        created = create_room(http, "skipbo", options, name="Ann")
        code = created["code"]
        join(http, code, "Ben")
        join(http, code, "Cy")
        with http.websocket_connect(f"/ws/{code}") as ws:
            ann = Client(ws, created["token"])
            ann.hello()
            start(ann, created["host_token"])
            ann.until(lambda m: m["type"] == "event" and m["kind"] == "start")
    # Make the stored room the one the earlier release wrote: its rules, seed and moves.
    expected = GAME.replay(SkipBoRules.from_record(old_rules), MATCH["seed"], [])
    with sqlite3.connect(tmp_path / "data" / "cardtable.db") as db:
        (start_version,) = db.execute(
            "SELECT start_version FROM rooms WHERE code = ?", (code,)
        ).fetchone()
        rows = []
        for index, action in enumerate(MATCH["history"][:MOVES]):
            rows.append((code, 1, index, expected.current, action, start_version + index + 1))
            expected.apply_action(action)
        db.execute(
            "UPDATE rooms SET rules = ?, seed = ?, version = ? WHERE code = ?",
            (json.dumps(old_rules), MATCH["seed"], start_version + MOVES, code),
        )
        db.execute(
            "UPDATE games SET rules = ?, seed = ? WHERE room_code = ?",
            (json.dumps(old_rules), MATCH["seed"], code),
        )
        db.execute("DELETE FROM moves WHERE room_code = ?", (code,))
        db.executemany(
            "INSERT INTO moves (room_code, game_no, idx, seat, action, version, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(*row, time.time()) for row in rows],
        )
    assert expected.round_index > 2 and sum(r.blocked for r in expected.rounds()) >= 2
    with client(tmp_path) as http:
        room = http.app.state.table.rooms[code]
        assert room.rules.edition == 1
        assert room.state == expected
        assert room.state.rounds() == expected.rounds()

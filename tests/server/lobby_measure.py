"""How long ``GET /api/lobby`` takes with many open public rooms (a measurement, not a
test): a throwaway PostgreSQL migrated to the head, ``--open`` public Skyjo rooms of 4
seats waiting for players (1 to 3 seated, each seated player an account rated on the
``skyjo`` ladder, claimed), ``--playing`` public games under way and ``--private``
other rooms (private, or finished); then the lobby's queries and the whole answer
through the app (a node that serves none of these rooms) are timed ``--repeat`` times,
with the plan of the main query.

    .venv/bin/python -m tests.server.lobby_measure --open 2000 --repeat 50
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from starlette.testclient import TestClient

from cardtable.server.app import create_app
from cardtable.server.lobby import public
from cardtable.server.storage.store import Storage
from cardtable.server.storage.tables import rooms, seat_claims
from cardtable.statuses import RoomStatus

from .helpers import config
from .postgres import throwaway_database

RULES = {"players": 4}


def _seats(seated: int, first_user: int) -> list[dict[str, Any]]:
    seats: list[dict[str, Any]] = []
    for index in range(4):
        taken = index < seated
        name = f"P{first_user + index}" if taken else None
        seats.append(
            {"kind": "human", "bot": None, "name": name, "token_hash": "x" * 64 if taken else None}
        )
    return seats


def _room(n: int, status: str, public: bool, seated: int, now: float) -> dict[str, Any]:
    return {
        "code": f"B{n:07d}",
        "game": "skyjo",
        "rules": RULES,
        "seats": _seats(seated, n * 4 + 1),
        "host_hash": "h" * 64,
        "status": status,
        "game_no": 1,
        "seed": None,
        "version": 1,
        "start_version": None,
        "client": "10.0.0.1",
        "created_at": now - n,
        "updated_at": now - n,
        "owner": "another-node",  # a live lease elsewhere: this node adopts none of them
        "epoch": 1,
        "lease_until": now + 10**6,
        "wanted_by": None,
        "table_options": {"turn_seconds": 0, "spectator_chat": False, "public": public},
        "public": public,
    }


async def load(url: str, open_rooms: int, playing: int, private: int) -> None:
    storage = Storage(url, migrate=True)
    await storage.open()
    now = time.time()
    rows, claims, users = [], [], []
    for n in range(open_rooms + playing + private):
        if n < open_rooms:
            status, public, seated = RoomStatus.LOBBY, True, 1 + n % 3
        elif n < open_rooms + playing:
            status, public, seated = RoomStatus.PLAYING, True, 4
        else:
            status, public, seated = (
                (RoomStatus.LOBBY, False, 1)
                if n % 2
                else (
                    RoomStatus.FINISHED,
                    True,
                    4,
                )
            )
        rows.append(_room(n, status, public, seated, now))
        if public and status != RoomStatus.FINISHED:
            for seat in range(seated):
                user = n * 4 + 1 + seat
                claims.append({"room_code": f"B{n:07d}", "seat": seat, "user_id": user})
                users.append(user)
    try:
        async with storage._engine().begin() as connection:
            await connection.execute(rooms.insert(), rows)
            await connection.execute(
                sa.text(
                    "INSERT INTO users (id, name, name_key, password_hash, created_at)"
                    " SELECT i, 'P' || i, 'p' || i, 'x', 0 FROM unnest(CAST(:ids AS int[])) AS i"
                ),
                {"ids": users},
            )
            await connection.execute(
                sa.text(
                    "INSERT INTO ratings (ladder, player, user_id, mu, sigma, score, games,"
                    " wins, updated_at) SELECT 'skyjo', 'user:' || i, i, 25 + (i % 17) - 8,"
                    " 2.0, 21 + (i % 17) - 8, 10, 3, 0 FROM unnest(CAST(:ids AS int[])) AS i"
                ),
                {"ids": users},
            )
            await connection.execute(
                seat_claims.insert(), [{**claim, "claimed_at": now} for claim in claims]
            )
            await connection.execute(sa.text("ANALYZE"))
    finally:
        await storage.close()
    print(
        f"loaded {open_rooms:,} open public rooms, {playing:,} public games under way,"
        f" {private:,} other rooms; {len(claims):,} seated accounts, rated"
    )


def timed(repeat: int, call: Callable[[], Any]) -> tuple[float, float]:
    call()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def measure(url: str, repeat: int) -> None:
    public.BURST = 10**9  # the per-address limit would refuse a benchmark's look-ups
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(config(Path(folder), db_url=url))
        with TestClient(app) as http:
            table = app.state.table
            storage = table.storage
            portal = http.portal
            assert portal is not None
            body = http.get("/api/lobby").json()
            size = len(http.get("/api/lobby").content)
            print(
                f"answer: {len(body['open'])} open, {len(body['playing'])} playing, {size:,} bytes"
            )
            assert table.rooms == {}, "the node adopted rooms"

            def uncached(path: str) -> Any:
                public.CACHE_SECONDS = 0.0
                try:
                    return http.get(path)
                finally:
                    public.CACHE_SECONDS = 1.0

            cases: list[tuple[str, Callable[[], Any]]] = [
                (
                    f"the open public rooms ({public.MAX_READ} read at most)",
                    lambda: portal.call(
                        storage.public_rooms, RoomStatus.LOBBY, None, public.MAX_READ
                    ),
                ),
                (
                    "the public games under way (50)",
                    lambda: portal.call(storage.public_rooms, RoomStatus.PLAYING, None, 50),
                ),
                ("GET /api/lobby, read anew", lambda: uncached("/api/lobby")),
                ("GET /api/lobby?limit=10, read anew", lambda: uncached("/api/lobby?limit=10")),
                ("GET /api/lobby, the answer of the last second", lambda: http.get("/api/lobby")),
            ]
            print(f"\n| step | median ms | max ms ({repeat} runs) |\n|---|---|---|")
            for name, call in cases:
                median, worst = timed(repeat, call)
                print(f"| {name} | {median:.1f} | {worst:.1f} |")

            async def plan() -> str:
                async with storage._engine().connect() as connection:
                    rows = await connection.execute(
                        sa.text(
                            "EXPLAIN (ANALYZE, COSTS OFF) SELECT code, game, rules, seats, status,"
                            " table_options, created_at FROM rooms WHERE public IS true"
                            " AND status = 'lobby' ORDER BY created_at LIMIT :n"
                        ),
                        {"n": public.MAX_READ},
                    )
                    return "\n".join("    " + row[0] for row in rows)

            print("\nplan of the open rooms' query:\n" + portal.call(plan))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--open", type=int, default=2000)
    parser.add_argument("--playing", type=int, default=500)
    parser.add_argument("--private", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    with throwaway_database() as url:
        asyncio.run(load(url, args.open, args.playing, args.private))
        measure(url, args.repeat)


if __name__ == "__main__":
    main()

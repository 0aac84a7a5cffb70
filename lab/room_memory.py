"""Memory of one table-server node per room: a room waiting with no connection, and a
4-seat game under way with its four WebSockets.

    python -m lab room_memory --rooms 1000 --game skyjo

A ``cardtable serve`` is started (on a temporary SQLite file, pinned to ``--core`` when
given); its resident set size (``VmRSS``) is read after start-up, after ``--rooms`` rooms
have been created and every seat taken over HTTP (no connection), and after as many more
rooms have been set up as ``cardtable loadtest`` does (four WebSockets each, the game
started). Each step's growth over its rooms is the memory per room; the second step's
over its connections too. RSS counts the pages the process touched: memory that Python
frees inside its arenas stays counted, so the figures are what an operator provisions.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from collections.abc import Sequence
from typing import Any

from cardtable.bench.loadtest_options import LoadOptions
from cardtable.bench.loadtest_process import rss_bytes
from cardtable.bench.loadtest_room import RoomDriver
from cardtable.bench.loadtest_server import post_json, spawned_server
from cardtable.bench.loadtest_stats import Stats

#: Rooms set up at once (as ``cardtable loadtest`` does: the server's own limits).
CONCURRENT = 32


async def _waiting_rooms(url: str, game: str, seats: int, rooms: int) -> None:
    gate = asyncio.Semaphore(CONCURRENT)

    async def one(index: int) -> None:
        async with gate:
            body: dict[str, Any] = {"game": game, "options": {"players": seats}, "name": "p0"}
            created = await asyncio.to_thread(post_json, f"{url}/api/rooms", body)
            for seat in range(1, seats):
                await asyncio.to_thread(
                    post_json, f"{url}/api/rooms/{created['code']}/join", {"name": f"p{seat}"}
                )

    await asyncio.gather(*map(one, range(rooms)))


async def _playing_rooms(options: LoadOptions) -> list[RoomDriver]:
    gate = asyncio.Semaphore(CONCURRENT)
    stats = Stats()
    drivers = [RoomDriver(index, options, stats) for index in range(options.rooms)]

    async def one(driver: RoomDriver) -> None:
        async with gate:
            await driver.setup()

    await asyncio.gather(*map(one, drivers))
    return drivers


def _kib(grown: int, count: int) -> float:
    return grown / 1024 / max(count, 1)


async def _measure(url: str, pid: int, args: argparse.Namespace) -> dict[str, float]:
    def rss() -> int:
        value = rss_bytes(pid)
        if value is None:
            raise RuntimeError(f"cannot read the memory of process {pid}")
        return value

    idle = rss()
    await _waiting_rooms(url, args.game, args.seats, args.rooms)
    waiting = rss()
    options = LoadOptions(
        url=url, rooms=args.rooms, seats=args.seats, game=args.game, compression=args.deflate
    )
    drivers = await _playing_rooms(options)
    playing = rss()
    await asyncio.gather(*(driver.close() for driver in drivers))
    return {
        "idle_mib": idle / 2**20,
        "waiting_mib": waiting / 2**20,
        "playing_mib": playing / 2**20,
        "kib_per_waiting_room": _kib(waiting - idle, args.rooms),
        "kib_per_playing_room": _kib(playing - waiting, args.rooms),
        "kib_per_connection": _kib(playing - waiting, args.rooms * args.seats),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=1000, help="rooms of each kind")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--game", choices=("skyjo", "skipbo"), default="skyjo")
    parser.add_argument("--core", type=int, help="pin the server to this core")
    parser.add_argument(
        "--deflate", action="store_true", help="serve and connect with permessage-deflate"
    )
    args = parser.parse_args(argv)
    if args.rooms < 1 or not 2 <= args.seats <= 8:
        parser.error("--rooms must be at least 1 and --seats 2 to 8")
    extra = ["--ws-deflate"] if args.deflate else []
    with spawned_server(2 * args.rooms, extra) as (url, pid):
        if args.core is not None:
            os.sched_setaffinity(pid, {args.core})
        figures = asyncio.run(_measure(url, pid, args))
    print(
        f"{args.game}, {args.rooms} rooms of {args.seats} seats each way"
        f"{' (deflate)' if args.deflate else ''}:"
    )
    print(
        f"  server RSS: {figures['idle_mib']:.1f} MiB started, "
        f"{figures['waiting_mib']:.1f} MiB with the waiting rooms, "
        f"{figures['playing_mib']:.1f} MiB with the games under way"
    )
    print(f"  a waiting room, no connection: {figures['kib_per_waiting_room']:.1f} KiB")
    print(
        f"  a game under way with its {args.seats} connections: "
        f"{figures['kib_per_playing_room']:.1f} KiB "
        f"({figures['kib_per_connection']:.1f} KiB a connection, the game included)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

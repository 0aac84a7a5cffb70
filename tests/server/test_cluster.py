"""Several nodes on one PostgreSQL: each room has one owner at a time, recorded as a
lease with an epoch, and every write is fenced by the epoch, so a node that lost a
room (paused, partitioned) can never write for it again and its history never forks."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from typing import Any

import pytest

from cardtable.server.errors import RoomError
from cardtable.server.ops.config import ServerConfig
from cardtable.server.rooms.table import Table
from cardtable.server.storage.records import FencedError
from cardtable.server.storage.store import Storage

from .test_group_commit import _room, rows


def test_a_takeover_fences_every_write_of_the_old_owner(postgres_url):
    async def scenario() -> None:
        a, b = Storage(postgres_url), Storage(postgres_url)
        await a.open()
        await b.open()
        try:
            record = dataclasses.replace(_room("FENCE"), owner="a", epoch=1, lease_until=None)
            await a.insert_room(record)
            await a.start_game(record, [])
            held = await a.claim_room("FENCE", "a", 60.0, force=True)
            assert held is not None and held.epoch == 2
            await a.record_move("FENCE", 1, 0, 0, 5, 3, None, epoch=2)
            assert await b.claim_room("FENCE", "b", 60.0) is None  # a's lease is live
            assert await a.renew_leases("a", {"FENCE": 2}, 0.05) == (set(), set())
            await asyncio.sleep(0.1)  # a stops renewing (paused): its lease runs out
            taken = await b.claim_room("FENCE", "b", 60.0)
            assert taken is not None and taken.epoch == 3 and taken.owner == "b"
            assert taken.moves == [(0, 5, 3)]  # everything a committed, read after the claim
            with pytest.raises(FencedError):
                await a.record_move("FENCE", 1, 1, 1, 7, 4, None, epoch=2)
            with pytest.raises(FencedError):
                await a.update_room("FENCE", 2, status="closed")
            with pytest.raises(FencedError):
                await a.delete_room("FENCE", 2)
            assert await a.renew_leases("a", {"FENCE": 2}, 60.0) == ({"FENCE"}, set())
            await b.record_move("FENCE", 1, 1, 1, 9, 4, None, epoch=3)
            await a.want_room("FENCE", "a")  # the proxy now routes the room to a
            assert await b.renew_leases("b", {"FENCE": 3}, 60.0) == (set(), {"FENCE"})
        finally:
            await a.close()
            await b.close()

    asyncio.run(scenario())
    assert rows(postgres_url, "SELECT idx, action, version FROM moves ORDER BY idx") == [
        (0, 5, 3),
        (1, 9, 4),
    ]
    assert rows(postgres_url, "SELECT status, version, owner, epoch FROM rooms") == [
        ("playing", 4, "b", 3)
    ]


def _node(url: str, name: str, **changes: Any) -> Table:
    settings: dict[str, Any] = {
        # Not shorter: a lease also bounds a transaction's idle time and lock waits on
        # PostgreSQL, and under a loaded CI a starved test process can stall that long.
        "lease_seconds": 2.0,
        "bot_pause": 0.0,
        "bot_processes": 0,
        "grace_seconds": 600.0,
        "sweep_seconds": 3600.0,
    }
    config = ServerConfig(db_url=url, node_id=name, **(settings | changes))
    return Table(config)


async def _eventually(check: Any, seconds: float = 20.0) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        value = await check()
        if value or time.monotonic() > deadline:
            return value
        await asyncio.sleep(0.05)


def test_two_nodes_hand_a_room_over_on_request_and_fence_a_paused_owner(postgres_url):
    async def scenario() -> str:
        a = _node(postgres_url, "node-a")
        await a.open()
        created = await a.create_room("skyjo", {"players": 2}, None, "Ann", "198.51.100.1")
        code = created["code"]
        joined_seat, ben_token = await a.rooms[code].lobby.join("Ben", None)
        tokens = {created["seat"]: created["token"], joined_seat: ben_token}
        await a.rooms[code].lobby.start(created["host_token"])

        async def play_one(table: Table) -> None:
            room = table.rooms[code]
            assert room.state is not None
            seat = room.state.current_player
            assert seat is not None
            action = room.state.legal_actions()[0]
            await room.play(seat, tokens[seat], room.version, action, None)

        for _ in range(3):
            await play_one(a)
        b = _node(postgres_url, "node-b")
        await b.open()
        try:
            # A's lease is live and renewed: B neither restores the room nor takes it.
            assert code not in b.rooms
            await asyncio.sleep(2.5)  # more than a lease: A renews, B adopts nothing
            await b.keep_leases()
            assert code not in b.rooms and code in a.rooms
            # B's sweeper, far in the future, closes nothing it does not own.
            assert await b.sweep(time.monotonic() + 10**6) == []
            await play_one(a)
            version = a.rooms[code].version

            # A player reaches B (the proxy routes the room there): B asks A for it and
            # answers "retry"; A hands it over at its next lease round; the retry lands.
            with pytest.raises(RoomError) as elsewhere:
                await b.find_room(code)
            assert elsewhere.value.code == "room_elsewhere"

            async def b_serves() -> bool:
                try:
                    await b.find_room(code)
                except RoomError as error:
                    assert error.code == "room_elsewhere"
                    return False
                return True

            assert await _eventually(b_serves), "node A did not hand the room over"
            assert code not in a.rooms and b.rooms[code].version == version
            assert a.metrics.handed_over == 1
            await play_one(b)
            version += 1
            assert await a.sweep(time.monotonic() + 10**6) == []  # A owns nothing now

            # B is paused: its lease loop stops (as under SIGSTOP) and the lease runs out.
            assert b._leases is not None
            b._leases.cancel()

            async def a_adopted() -> bool:
                await a.keep_leases()  # what A's own lease loop does every lease/3
                return code in a.rooms

            assert await _eventually(a_adopted), "node A did not adopt the room"
            room_a = a.rooms[code]
            assert room_a.epoch > b.rooms[code].epoch
            assert room_a.version == version  # restored from the log, nothing lost
            assert room_a.state is not None and b.rooms[code].state is not None
            assert room_a.state.to_json() == b.rooms[code].state.to_json()

            # B wakes up and tries to move: refused, and B drops the room.
            stale = b.rooms[code]
            with pytest.raises(RoomError) as moved:
                await play_one(b)
            assert moved.value.code == "room_moved"
            assert code not in b.rooms and stale.version == version
            # The game goes on at A, from the same version, with one unbroken history.
            await play_one(a)
            assert a.rooms[code].version == version + 1
        finally:
            await b.close()
            await a.close()
        return code

    code = asyncio.run(scenario())
    log = rows(
        postgres_url, "SELECT idx, version FROM moves WHERE room_code = :c ORDER BY idx", c=code
    )
    assert [idx for idx, _ in log] == [0, 1, 2, 3, 4, 5]  # A 4, B 1, A 1 again; no fork
    versions = [v for _, v in log]
    assert versions == list(range(versions[0], versions[0] + 6))


def test_a_drained_node_hands_its_rooms_to_another_at_once(postgres_url):
    async def scenario() -> None:
        a, b = _node(postgres_url, "node-a"), _node(postgres_url, "node-b")
        await a.open()
        await b.open()
        try:
            created = await a.create_room("skyjo", {"players": 2}, None, "Ann", "198.51.100.1")
            code = created["code"]
            version = a.rooms[code].version
            assert await a.drain() == 1
            assert a.rooms == {}
            with pytest.raises(RoomError) as refused:
                await a.create_room("skyjo", {"players": 2}, None, None, "198.51.100.1")
            assert refused.value.code == "draining"
            await a.keep_leases()  # a draining node adopts nothing, not even its old rooms
            assert a.rooms == {}
            await b.keep_leases()  # released, not expired: B adopts at its next round
            assert b.rooms[code].version == version
            await b.rooms[code].lobby.join("Ben", None)
        finally:
            await b.close()
            await a.close()

    asyncio.run(scenario())


def test_the_rooms_per_client_limit_holds_whichever_node_a_client_reaches(postgres_url):
    async def scenario() -> None:
        a = _node(postgres_url, "node-a", rooms_per_client=2)
        b = _node(postgres_url, "node-b", rooms_per_client=2)
        await a.open()
        await b.open()
        try:
            await a.create_room("skyjo", {"players": 2}, None, None, "198.51.100.7")
            await b.create_room("skyjo", {"players": 2}, None, None, "198.51.100.7")
            for table in (a, b):
                with pytest.raises(RoomError) as refused:
                    await table.create_room("skyjo", {"players": 2}, None, None, "198.51.100.7")
                assert refused.value.code == "too_many_rooms"
            assert await b.rooms_of("198.51.100.7") == 2
            await a.create_room("skyjo", {"players": 2}, None, None, "198.51.100.8")
        finally:
            await b.close()
            await a.close()

    asyncio.run(scenario())


def test_a_node_asked_for_a_room_waits_for_its_owner_to_hand_it_over(postgres_url):
    """A player reaches B while A holds the room (the proxy re-hashed): B asks A, whose
    notification wakes it long before its next lease round (a lease of 10 minutes
    here), and B serves the request without an error, from the same version."""

    async def scenario() -> None:
        a = _node(postgres_url, "node-a", lease_seconds=600.0)
        b = _node(postgres_url, "node-b", lease_seconds=600.0)
        await a.open()
        await b.open()
        try:
            created = await a.create_room("skyjo", {"players": 2}, None, "Ann", "198.51.100.1")
            code = created["code"]
            await a.rooms[code].lobby.join("Ben", None)
            await a.rooms[code].lobby.start(created["host_token"])
            version = a.rooms[code].version
            assert a.storage.listening() and b.storage.listening()
            room = await b.find_room(code, wait=120.0)
            assert room is b.rooms[code] and room.version == version
            assert code not in a.rooms and a.metrics.handed_over == 1
            ((owner, wanted),) = await asyncio.to_thread(
                rows, postgres_url, "SELECT owner, wanted_by FROM rooms WHERE code = :c", c=code
            )
            assert (owner, wanted) == ("node-b", None)
            # Several requests at once share one wait (and all get the room).
            back = await asyncio.gather(*(a.find_room(code, wait=120.0) for _ in range(3)))
            assert all(found is a.rooms[code] for found in back)
            assert b.metrics.handed_over == 1
            assert a.metrics.adoptions == 1 and b.metrics.adoptions == 1  # creating is none
        finally:
            await b.close()
            await a.close()

    asyncio.run(scenario())


def test_a_node_asked_for_the_room_of_a_dead_node_adopts_it_when_its_lease_runs_out(
    postgres_url,
):
    async def scenario() -> None:
        a, b = _node(postgres_url, "node-a"), _node(postgres_url, "node-b")
        await a.open()
        await b.open()
        try:
            created = await a.create_room("skyjo", {"players": 2}, None, "Ann", "198.51.100.1")
            code = created["code"]
            version = a.rooms[code].version
            # A dies: its lease loop stops (no renewal, no answer to B's request).
            assert a._leases is not None
            a._leases.cancel()
            room = await b.find_room(code, wait=60.0)
            assert room is b.rooms[code] and room.version == version
            # A room that is not live is no_room at once, with or without a wait.
            with pytest.raises(RoomError) as missing:
                await b.find_room("ZZZZZZ", wait=60.0)
            assert missing.value.code == "no_room"
        finally:
            await b.close()
            await a.close()

    asyncio.run(scenario())


def test_a_draining_node_does_not_wait_for_a_room(postgres_url):
    async def scenario() -> None:
        a, b = _node(postgres_url, "node-a"), _node(postgres_url, "node-b")
        await a.open()
        await b.open()
        try:
            created = await a.create_room("skyjo", {"players": 2}, None, "Ann", "198.51.100.1")
            code = created["code"]
            await b.drain()
            with pytest.raises(RoomError) as elsewhere:
                await b.find_room(code, wait=60.0)
            assert elsewhere.value.code == "room_elsewhere"
            ((wanted,),) = await asyncio.to_thread(
                rows, postgres_url, "SELECT wanted_by FROM rooms WHERE code = :c", c=code
            )
            assert wanted is None and code in a.rooms  # nothing asked of A
        finally:
            await b.close()
            await a.close()

    asyncio.run(scenario())

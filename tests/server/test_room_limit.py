"""Rooms per client hold under simultaneous requests (found by `cardtable loadtest`:
requests that arrived together all passed the check before any room was stored)."""

from __future__ import annotations

import asyncio

from cardtable.server.errors import RoomError
from cardtable.server.rooms.table import Table

from .helpers import config


def test_simultaneous_creations_cannot_pass_the_rooms_per_client_limit(tmp_path):
    async def scenario():
        table = Table(config(tmp_path, rooms_per_client=2))
        await table.open()
        try:
            outcomes = await asyncio.gather(
                *(table.create_room("skyjo", {"players": 2}, None, None, "198.51.100.9")
                  for _ in range(6)),
                table.create_room("skyjo", {"players": 2}, None, None, "198.51.100.10"),
                return_exceptions=True,
            )  # fmt: skip
            assert await table.rooms_of("198.51.100.9") == 2
            return outcomes
        finally:
            await table.close()

    outcomes = asyncio.run(scenario())
    created = [o for o in outcomes[:6] if isinstance(o, dict)]
    refused = [o for o in outcomes[:6] if isinstance(o, RoomError)]
    assert len(created) == 2 and len(refused) == 4
    assert {error.code for error in refused} == {"too_many_rooms"}
    assert isinstance(outcomes[6], dict)  # another address is not affected


def test_a_failed_creation_frees_its_place(tmp_path):
    async def scenario():
        table = Table(config(tmp_path, rooms_per_client=1))
        await table.open()
        try:
            bad = await asyncio.gather(
                table.create_room("skyjo", {"players": 99}, None, None, "c"),
                return_exceptions=True,
            )
            good = await table.create_room("skyjo", {"players": 2}, None, None, "c")
            return bad[0], good
        finally:
            await table.close()

    bad, good = asyncio.run(scenario())
    assert isinstance(bad, RoomError) and bad.code == "bad_options"
    assert "code" in good

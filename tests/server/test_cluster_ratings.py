"""Ratings on a cluster (docs/players.md#ratings, "Exactly once"): a rated game whose
owner node is killed with SIGKILL after its last move, in the middle of rating it,
is rated exactly once by the node that takes the room over; and two nodes sweeping
the same unjudged game rate it once.

The owner is caught mid-rating for certain, not by luck of timing: the test holds an
EXCLUSIVE lock on ``ratings`` while the game ends, so the owner's rating transaction
(which has inserted its ``rated_games`` key) waits on it; the owner is killed there,
its transaction dies with its connection, and only then is the lock released."""

from __future__ import annotations

import asyncio
import json
import random
import urllib.request
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from cardtable.server.ladder import MU, SIGMA
from cardtable.server.ratings.jobs import GameRater
from cardtable.server.storage.store import Storage
from cardtable.server.storage.tables import rated_games, ratings

from ..live_server import free_port
from .nginx_cluster import Node
from .test_ratings import HUMAN, _finished_game, _table, bot

GAME_SECONDS = 120.0


def _asyncpg_dsn(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


def _post(node: Node, path: str, body: dict[str, Any], headers: dict[str, str]) -> Any:
    request = urllib.request.Request(
        f"http://127.0.0.1:{node.port}{path}",
        json.dumps(body).encode(),
        {"Content-Type": "application/json", **headers},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response), response.headers


def _account(node: Node, name: str) -> dict[str, str]:
    """Register ``name`` on ``node``; the headers that act on its session."""
    answer, headers = _post(
        node, "/api/account/register", {"name": name, "password": "correct horse"}, {}
    )
    cookie = SimpleCookie(headers["Set-Cookie"])
    ((key, morsel),) = cookie.items()
    return {
        "Cookie": f"{key}={morsel.value}",
        "X-CSRF-Token": answer["csrf_token"],
        "Origin": f"http://127.0.0.1:{node.port}",
    }


async def _play(ws: ClientConnection, token: str, rng: random.Random) -> dict[str, Any]:
    """Random legal moves until the game is over (a random game of Skyjo ends, with a
    winner, in a hundred-odd moves); returns the last view, the one with the result."""
    await ws.send(json.dumps({"type": "hello", "token": token}))
    view: dict[str, Any] | None = None
    version: int | None = None
    sent: set[int] = set()
    while True:
        message = json.loads(await ws.recv())
        if message["type"] in ("event", "sync"):
            version = message["version"]
            if message.get("view") is not None:
                view = message["view"]
        elif message["type"] == "error":
            assert message["code"] in ("stale_version", "not_your_turn"), message
        if view is None or version is None:
            continue
        if view.get("result") is not None:
            return view
        if view.get("legal_actions") and version not in sent:
            sent.add(version)
            action = rng.choice(view["legal_actions"])
            move = {"type": "move", "token": token, "version": version, "action": action}
            await ws.send(json.dumps(move))


async def _waiting_on_a_lock(db: Any) -> int:
    found: int = await db.fetchval(
        "SELECT count(*) FROM pg_stat_activity"
        " WHERE wait_event_type = 'Lock' AND datname = current_database()"
    )
    return found


async def _until(check: Any, seconds: float, what: str) -> Any:
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        value = await check()
        if value:
            return value
        assert asyncio.get_running_loop().time() < deadline, what
        await asyncio.sleep(0.1)


def test_a_rated_game_whose_owner_is_killed_after_the_last_move_is_rated_once(
    tmp_path: Path, postgres_url: str
) -> None:
    owner, other = Node(postgres_url, "n1", free_port()), Node(postgres_url, "n2", free_port())
    for node in (owner, other):
        node.log_dir = tmp_path
    try:
        owner.start()
        other.start()
        ann, ben = _account(owner, "Ann"), _account(owner, "Ben")
        created, _ = _post(
            owner, "/api/rooms", {"game": "skyjo", "options": {"players": 2}, "name": "Ann"}, {}
        )
        code = created["code"]
        joined, _ = _post(owner, f"/api/rooms/{code}/join", {"name": "Ben"}, {})
        for headers, token in ((ann, created["token"]), (ben, joined["token"])):
            claimed, _ = _post(
                owner, "/api/account/claim", {"seats": [{"code": code, "token": token}]}, headers
            )
            assert claimed["refused"] == [] and len(claimed["claimed"]) == 1
        asyncio.run(_scenario(owner, other, postgres_url, code, created, joined["token"]))
    finally:
        owner.stop()
        other.stop()


async def _scenario(
    owner: Node, other: Node, url: str, code: str, created: dict[str, Any], ben_token: str
) -> None:
    import asyncpg  # type: ignore[import-untyped]  # present: the postgres_url fixture checked

    db = await asyncpg.connect(_asyncpg_dsn(url))
    try:
        lock = db.transaction()
        await lock.start()
        await db.execute("LOCK TABLE ratings IN EXCLUSIVE MODE")
        ws_url = f"ws://127.0.0.1:{owner.port}/ws/{code}"
        async with connect(ws_url) as ann_ws, connect(ws_url) as ben_ws:
            ann = asyncio.create_task(_play(ann_ws, created["token"], random.Random(1)))
            ben = asyncio.create_task(_play(ben_ws, ben_token, random.Random(2)))
            await asyncio.sleep(0.2)  # both said hello: the start reaches them
            await ann_ws.send(json.dumps({"type": "start", "host_token": created["host_token"]}))
            views = await asyncio.wait_for(asyncio.gather(ann, ben), GAME_SECONDS)
        result = views[0]["result"]
        assert result["winners"] and not result["blocked"]  # a game the ladder rates
        # The owner rates the game at once: its transaction holds the game's key and
        # waits for the rating rows. It dies there.
        await _until(lambda: _waiting_on_a_lock(db), 30, "the owner never began the rating")
        await asyncio.to_thread(owner.kill)
        assert await db.fetchval("SELECT count(*) FROM rated_games") == 0
        await lock.rollback()

        # The other node adopts the room when the dead node's lease runs out, and rates.
        async def rated() -> Any:
            return await db.fetchrow("SELECT ladder, changes FROM rated_games")

        row = await _until(rated, 30, f"the adopting node did not rate:\n{other.log_tail()}")
        assert row["ladder"] == "skyjo"
        ((owned_by,),) = await db.fetch("SELECT owner FROM rooms WHERE code = $1", code)
        assert owned_by == other.node_id()
    finally:
        await db.close()

    # A third node's sweep, and the key taken again: nothing changes.
    storage = Storage(url, writer_thread=False)
    await storage.open()
    try:
        before = await _table(storage, ratings), await _table(storage, rated_games)
        assert await GameRater(storage, "n3").catch_up() == 0
        assert await storage.rate_game(code, 1, 0.0) is None
        assert (await _table(storage, ratings), await _table(storage, rated_games)) == before
        ((_code, _game_no, ladder, _reason, changes, _at),) = before[1]
        assert ladder == "skyjo"
        assert [change["player"] for change in changes] == ["user:1", "user:2"]
        for change in changes:  # each rating moved once, from the new player's
            assert change["before"] == pytest.approx([MU, SIGMA])
        people = await storage.ladder_rows("skyjo", ["user:1", "user:2"])
        assert sorted((row.name, row.games) for row in people) == [("Ann", 1), ("Ben", 1)]
        assert sum(row.wins for row in people) == len(result["winners"])
    finally:
        await storage.close()


def test_two_nodes_sweeping_the_same_games_rate_each_once(postgres_url: str) -> None:
    """Both nodes' sweeps find the same unjudged games at the same moment."""

    async def scenario() -> None:
        a = Storage(postgres_url, writer_thread=False)
        b = Storage(postgres_url, writer_thread=False)
        await a.open()
        await b.open()
        try:
            codes = [f"SWEEP{index}" for index in range(6)]
            for code in codes:
                await _finished_game(a, code, seats=[HUMAN, bot("hard")], claims={0: 7})
            # What each sweep found (both looked before either rated) ...
            found = await asyncio.gather(a.unjudged_games(0.0), b.unjudged_games(0.0))
            assert [sorted(games) for games in found] == [[(c, 1) for c in codes]] * 2
            # ... is rated by both at once, game after game, as their catch-ups do.
            raters = [GameRater(a, "a"), GameRater(b, "b")]
            await asyncio.gather(*(rater.rate(code, 1) for code, _ in found[0] for rater in raters))
            judged = await _table(a, rated_games)
            assert [(row[0], row[2]) for row in judged] == [(code, "skyjo") for code in codes]
            ((person,), (hard,)) = (
                await a.ladder_rows("skyjo", ["user:7"]),
                await a.ladder_rows("skyjo", ["bot:hard"]),
            )
            assert (person.games, hard.games) == (len(codes), len(codes))
        finally:
            await b.close()
            await a.close()

    asyncio.run(scenario())

"""Every endpoint a stranger can reach is limited (docs/players.md, "Limits"): each
route of the table (the API, the WebSocket and the web table's) is either hammered
here from one address until it refuses with 429, or named with the reason it needs no
limit. A new route that is neither fails the first test."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.testclient import WebSocketDenialResponse

from cardtable.server import lessons
from cardtable.server.lobby import public, quick_match
from cardtable.server.players import leaderboard, profile_route

from .helpers import client

ROOM = {"game": "skyjo", "options": {"players": 2}}


@dataclasses.dataclass(frozen=True)
class Hammer:
    """Requests that one address repeats until refused: ``tries`` at most."""

    method: str
    path: str
    refusal: str
    tries: int
    body: Any = None
    #: Whether the refusal says when to try again (a room quota waits for a room to end).
    retry_after: bool = True


#: How the tests' small limits (:data:`SMALL`) or a module's own are exceeded; a bucket
#: refilled by the clock gets three times its burst (so a slow run still empties it).
LIMITED: dict[str, list[Hammer]] = {
    "/api/rooms": [Hammer("POST", "/api/rooms", "too_many_rooms", 4, ROOM, retry_after=False)],
    "/api/rooms/{code}": [Hammer("GET", "/api/rooms/ZZZZZZ", "too_many_lookups", 4)],
    "/api/rooms/{code}/join": [
        Hammer("POST", "/api/rooms/ZZZZZZ/join", "too_many_lookups", 4, {"name": "Eve"})
    ],
    "/api/rooms/{code}/games": [Hammer("GET", "/api/rooms/ZZZZZZ/games", "too_many_lookups", 4)],
    "/api/rooms/{code}/games/{n}": [
        Hammer("GET", "/api/rooms/ZZZZZZ/games/1", "too_many_lookups", 4)
    ],
    "/api/rooms/{code}/games/{n}/steps/{k}": [
        Hammer("GET", "/api/rooms/ZZZZZZ/games/1/steps/0", "too_many_lookups", 4)
    ],
    "/ws/{code}": [Hammer("WS", "/ws/ZZZZZZ", "too_many_lookups", 4)],
    "/api/account": [Hammer("GET", "/api/account", "too_many_requests", 9)],
    "/api/account/register": [
        Hammer(
            "POST", "/api/account/register", "too_many_attempts", 4, {"name": "", "password": ""}
        )
    ],
    "/api/account/signin": [
        Hammer("POST", "/api/account/signin", "too_many_attempts", 4, {"name": "", "password": ""})
    ],
    **{
        f"/api/account/{name}": [
            Hammer(
                "POST",
                f"/api/account/{name}",
                "too_many_requests",
                9,
                {},
            )
        ]
        for name in ("signout", "signout-everywhere", "claim", "delete")
    },
    "/api/leaderboard/{ladder}": [
        Hammer("GET", "/api/leaderboard/skyjo", "too_many_requests", 3 * leaderboard.BURST)
    ],
    "/api/lobby": [Hammer("GET", "/api/lobby", "too_many_requests", 3 * public.BURST)],
    "/api/quickmatch": [
        Hammer("POST", "/api/quickmatch", "too_many_requests", 3 * quick_match.BURST, {})
    ],
    "/api/players/{name}": [
        Hammer("GET", "/api/players/Nobody", "too_many_requests", 3 * profile_route.BURST)
    ],
    "/api/lessons/{game}": [
        Hammer("GET", "/api/lessons/skyjo", "too_many_requests", 3 * lessons.BURST)
    ],
    "/api/lessons/{game}/steps/{number}": [
        Hammer(
            "POST",
            "/api/lessons/skyjo/steps/0",
            "too_many_requests",
            3 * lessons.BURST,
            {"moves": []},
        )
    ],
}
#: The routes without a limit, and why none is needed.
UNLIMITED = {
    "/health": "monitors poll it; it pings the database at most once a second",
    "/metrics": "counters in memory; the shipped nginx serves it to the monitoring network only",
    **dict.fromkeys(
        (
            "/",
            "/r/{code}",
            "/r/{code}/watch",
            "/manifest.webmanifest",
            "/sw.js",
            "/offline",
            "/i18n/{lang}.json",
            "/api/web/games",
            "/static",
            "assets",
        ),
        "the web table's files, answered from memory (no database, no room); a proxy"
        " or a CDN may cache them",
    ),
}
#: The small limits the hammering runs with (the defaults are larger).
SMALL = {
    "rooms_per_client": 3,
    "lookup_burst": 3,
    "register_per_address": 3,
    "signin_per_address": 3,
    "session_reads_burst": 3,
}


def _name(route: BaseRoute) -> str:
    if isinstance(route, Mount) and route.name == "assets":
        return "assets"  # its prefix carries the version
    assert isinstance(route, (Route, WebSocketRoute, Mount)), route
    return route.path


def test_every_route_is_limited_or_says_why_not(tmp_path):
    with client(tmp_path) as http:
        names = [_name(route) for route in http.app.routes]
    assert len(names) == len(set(names))
    assert not set(LIMITED) & set(UNLIMITED)
    assert sorted(names) == sorted([*LIMITED, *UNLIMITED])


def _refused(http: Any, hammer: Hammer) -> Any:
    """The 429 answer of the first refused request, or None after ``tries``."""
    for _ in range(hammer.tries):
        if hammer.method == "WS":
            try:
                with http.websocket_connect(hammer.path) as ws:
                    assert ws.receive_json()["code"] == "no_room"
                    continue
            except WebSocketDenialResponse as denied:
                if denied.status_code == 429:
                    return denied
                continue
        answer = http.request(hammer.method, hammer.path, json=hammer.body)
        if answer.status_code == 429:
            return answer
    return None


@pytest.mark.parametrize(
    "hammer", [hammer for hammers in LIMITED.values() for hammer in hammers], ids=lambda h: h.path
)
def test_one_address_hammering_a_route_is_refused(tmp_path, hammer):
    with client(tmp_path, password_memory_kib=8, **SMALL) as http:
        refused = _refused(http, hammer)
        assert refused is not None, f"{hammer.method} {hammer.path} took {hammer.tries} requests"
        if hammer.retry_after:
            assert int(refused.headers["Retry-After"]) >= 1
        assert refused.json()["error"] == hammer.refusal


def test_health_pings_the_database_at_most_once_a_second(tmp_path):
    with client(tmp_path) as http:
        (health,) = [r for r in http.app.routes if isinstance(r, Route) and r.path == "/health"]
        api = health.endpoint.__self__  # type: ignore[attr-defined]
        now = [1000.0]
        api.clock = lambda: now[0]
        storage = http.app.state.table.storage
        pings: list[float] = []
        ping = storage.ping

        async def counted() -> None:
            pings.append(now[0])
            await ping()

        storage.ping = counted
        for _ in range(20):
            assert http.get("/health").json()["status"] == "ok"
        assert pings == [1000.0]  # twenty answers, one ping
        now[0] += 1.0
        assert http.get("/health").status_code == 200
        assert pings == [1000.0, 1001.0]  # a second later, a new one

"""The ASGI application: the HTTP API (:mod:`cardtable.server.rooms.routes`) and the WebSocket
(:mod:`cardtable.server.rooms.websocket`) of one
:class:`~cardtable.server.rooms.table.Table`, beside the routes of a front end it is given
(the web table's, mounted by :mod:`cardtable.online`; the server imports no front end)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute

from .edges.guard import RequestGuard
from .edges.http import refused
from .edges.lookups import ClusterLookups
from .errors import ApiError
from .lessons import LessonsApi
from .lobby.public import LobbyApi
from .lobby.quick_match import QuickMatchApi
from .ops.config import ServerConfig
from .players.accounts import AccountsApi
from .players.leaderboard import LeaderboardApi
from .players.profile_route import ProfileApi
from .rooms.routes import RoomsApi
from .rooms.table import Table
from .rooms.websocket import TableSocket


def create_app(config: ServerConfig | None = None, *, front: Sequence[BaseRoute] = ()) -> Starlette:
    """The table server as an ASGI app; its lifespan opens the database and restores rooms
    (unless ``cardtable serve`` opened them before listening) and closes them.

    ``front`` are a front end's routes, served before the API's: ``cardtable serve``
    passes the web table's page, static files and catalogs (:mod:`cardtable.online`).
    Without them the app serves the API and the WebSocket only. Every request passes
    :class:`~cardtable.server.edges.guard.RequestGuard` first (host names, the origin and body
    of state changes, the headers of every answer); a route's refusal (an
    :class:`~cardtable.server.errors.ApiError`) is answered by
    :func:`~cardtable.server.edges.http.refused`.
    """
    table = Table(config or ServerConfig())

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if not table.is_open:  # ``cardtable serve`` opens it before listening (command.py)
            await table.open()
        try:
            yield
        finally:
            await table.close()

    config = table.config
    lookups = ClusterLookups(
        config.lookup_burst,
        config.lookup_miss_seconds,
        None if config.uses_sqlite() else table.storage,
        config.lookup_cluster_misses,
        config.lookup_window,
    )
    accounts = AccountsApi(table)
    signed_in = accounts.user  # the one way a route learns who is signed in
    routes = [
        *front,
        *RoomsApi(table, lookups, signed_in).routes(),
        *accounts.routes(),
        *LeaderboardApi(table, signed_in).routes(),
        *LobbyApi(table).routes(),
        *LessonsApi().routes(),
        *ProfileApi(table, signed_in).routes(),
        *QuickMatchApi(table, signed_in).routes(),
        *TableSocket(table, lookups).routes(),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(RequestGuard, config=config, routes=routes)],
        # Every route raises its refusals; they are answered here, the same way.
        exception_handlers={ApiError: refused},
    )
    app.state.table = table
    app.state.lookups = lookups
    app.state.accounts = accounts
    return app

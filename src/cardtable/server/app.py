"""The ASGI application: the HTTP API (:mod:`.http_api`) and the WebSocket
(:mod:`.websocket`) of one :class:`~cardtable.server.table.Table`, beside the routes of
a front end it is given (the web table's, mounted by :mod:`cardtable.online`; the
server imports no front end)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute

from .accounts_api import AccountsApi
from .config import ServerConfig
from .guard import RequestGuard
from .http_api import RoomsApi
from .leaderboard_api import LeaderboardApi
from .lessons_api import LessonsApi
from .lobby_api import LobbyApi
from .lookups import ClusterLookups
from .profile_api import ProfileApi
from .quickmatch_api import QuickMatchApi
from .table import Table
from .websocket import TableSocket


def create_app(config: ServerConfig | None = None, *, front: Sequence[BaseRoute] = ()) -> Starlette:
    """The table server as an ASGI app; its lifespan opens the database and restores rooms
    (unless ``cardtable serve`` opened them before listening) and closes them.

    ``front`` are a front end's routes, served before the API's: ``cardtable serve``
    passes the web table's page, static files and catalogs (:mod:`cardtable.online`).
    Without them the app serves the API and the WebSocket only. Every request passes
    :class:`~cardtable.server.guard.RequestGuard` first (host names, the origin and body
    of state changes, the headers of every answer).
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
    routes = [
        *front,
        *RoomsApi(table, lookups, accounts.user).routes(),
        *accounts.routes(),
        *LeaderboardApi(table, accounts).routes(),
        *LobbyApi(table).routes(),
        *LessonsApi().routes(),
        *ProfileApi(table, accounts).routes(),
        *QuickMatchApi(table, accounts).routes(),
        *TableSocket(table, lookups).routes(),
    ]
    app = Starlette(
        routes=routes, lifespan=lifespan, middleware=[Middleware(RequestGuard, config=config)]
    )
    app.state.table = table
    app.state.lookups = lookups
    app.state.accounts = accounts
    return app

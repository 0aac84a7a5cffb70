"""The ASGI application: the web table's pages, the HTTP API (:mod:`.http_api`) and the
WebSocket (:mod:`.websocket`) of one :class:`~cardtable.server.table.Table`."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from starlette.applications import Starlette

from ..web import web_routes
from .config import ServerConfig
from .http_api import RoomsApi
from .table import Table
from .websocket import TableSocket


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The table server as an ASGI app; its lifespan opens the database and restores rooms
    (unless ``cardtable serve`` opened them before listening) and closes them."""
    table = Table(config or ServerConfig())

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if not table.is_open:  # ``cardtable serve`` opens it before listening (command.py)
            await table.open()
        try:
            yield
        finally:
            await table.close()

    routes = [
        *web_routes(),  # the web table (cardtable.web): the page at /, /static, /i18n
        *RoomsApi(table).routes(),
        *TableSocket(table).routes(),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.table = table
    return app

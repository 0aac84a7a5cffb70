"""The online table as ``cardtable serve`` runs it: the table server with the web table.

The server (:mod:`cardtable.server`) and the web table (:mod:`cardtable.web`) are front
ends that never import each other; this module, like the ``cardtable`` command, may
import both and puts them together: the server's app serving the web table's page,
static files, catalogs and options beside its API and WebSocket.
"""

from __future__ import annotations

from starlette.applications import Starlette

from cardtable.server.ops.config import ServerConfig

from .server.app import create_app as create_server_app
from .web import web_routes


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The table server for ``config`` with the web table at ``/``, ``/static``,
    ``/i18n`` and ``/api/web``."""
    return create_server_app(config, front=web_routes())

"""The web table: a small single-page app served by the table server.

Plain ES modules, HTML and CSS under ``static/`` (no build step), the routes that
serve them in :mod:`cardtable.web.routes`, the browser's translation catalogs
(common catalogs merged with the web-only ones in ``cardtable/i18n/web``) and a
description of each game's rules options for the home page.
"""

from __future__ import annotations

from .routes import web_routes

__all__ = ["web_routes"]

"""Starlette routes of the web table, included by :func:`cardtable.server.app.create_app`.

- ``GET /``, ``/r/{code}``, ``/r/{code}/watch``: the page (``static/index.html``).
- ``GET /static/...``: its modules, styles and icons.
- ``GET /i18n/{lang}.json``: the browser catalog of a language (common + web strings).
- ``GET /api/web/games``: each game's rules options and bots, for the home page.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from .catalogs import LANGUAGES, browser_catalog
from .options import all_games

STATIC = Path(str(resources.files(__package__).joinpath("static")))
NO_CACHE = {"Cache-Control": "no-cache"}


async def page(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers=NO_CACHE)


async def catalog(request: Request) -> Response:
    lang = request.path_params["lang"]
    if lang not in LANGUAGES:
        return JSONResponse(
            {"error": "no_language", "reason": f"languages: {', '.join(LANGUAGES)}"},
            status_code=404,
        )
    return JSONResponse(browser_catalog(lang), headers=NO_CACHE)


async def games(request: Request) -> Response:
    return JSONResponse(all_games())


def web_routes() -> list[BaseRoute]:
    """The page, its static files, the catalogs and the options endpoint."""
    return [
        Route("/", page),
        Route("/r/{code}", page),
        Route("/r/{code}/watch", page),
        Route("/i18n/{lang}.json", catalog),
        Route("/api/web/games", games),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

"""Starlette routes of the web table, served beside the server's API by
:func:`cardtable.online.create_app`.

- ``GET /``, ``/r/{code}``, ``/r/{code}/watch``: the page (``static/index.html``, naming
  the versioned asset prefix).
- ``GET /static/v/{version}/...``: its modules, styles and icons, kept for a year (the
  version changes with their content); ``GET /static/...``: the same, revalidated.
- ``GET /i18n/{lang}.json``: the browser catalog of a language (common + web strings).
- ``GET /api/web/games``: each game's rules options and bots, for the home page.

Every response here is gzipped when worth it and carries the security headers
(:mod:`cardtable.web.delivery`).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, request_response
from starlette.staticfiles import StaticFiles

from ..i18n import LANGUAGES
from .catalogs import browser_catalog
from .delivery import IMMUTABLE, REVALIDATE, asset_version, delivered
from .options import all_games

STATIC = Path(str(resources.files(__package__).joinpath("static")))
NO_CACHE = {"Cache-Control": REVALIDATE}
ASSET_VERSION = asset_version(STATIC)
ASSETS = f"/static/v/{ASSET_VERSION}/"
# The page names its style sheet, module and icon under the versioned prefix, and asks
# for every module at once (modulepreload) rather than one import level at a time.
PRELOADS = "".join(
    f'<link rel="modulepreload" href="{ASSETS}{path.relative_to(STATIC).as_posix()}">\n'
    for path in sorted(STATIC.rglob("*.js"))
)
PAGE = (
    (STATIC / "index.html")
    .read_text(encoding="utf-8")
    .replace('"/static/', f'"{ASSETS}')
    .replace("</head>", PRELOADS + "</head>")
)


async def page(request: Request) -> Response:
    return HTMLResponse(PAGE, headers=NO_CACHE)


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
    the_page = delivered(request_response(page))
    files = StaticFiles(directory=STATIC)
    return [
        Route("/", the_page),
        Route("/r/{code}", the_page),
        Route("/r/{code}/watch", the_page),
        Route("/i18n/{lang}.json", delivered(request_response(catalog))),
        Route("/api/web/games", delivered(request_response(games), REVALIDATE)),
        Mount(ASSETS.rstrip("/"), delivered(files, IMMUTABLE), name="assets"),
        Mount("/static", delivered(files, REVALIDATE), name="static"),
    ]

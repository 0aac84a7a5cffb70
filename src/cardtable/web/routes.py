"""Starlette routes of the web table, served beside the server's API by
:func:`cardtable.online.create_app`.

- ``GET /``, ``/r/{code}``, ``/r/{code}/watch``: the page (``static/index.html``, naming
  the versioned asset prefix).
- ``GET /static/v/{version}/...``: its modules, styles and icons, kept for a year (the
  version changes with their content); ``GET /static/...``: the same, revalidated.
- ``GET /i18n/{lang}.json``: the browser catalog of a language (common + web strings).
- ``GET /api/web/games``: each game's rules options and bots, for the home page.
- ``GET /manifest.webmanifest``, ``/sw.js``, ``/offline``: the installable app (issue 31):
  its manifest, its service worker (scope ``/``, naming the asset version, so a new
  deployment is a new worker that drops the old cache) and the offline page the worker
  shows when the server cannot be reached. See ``pwa/sw.js`` for what it caches.

Every response here is gzipped when worth it and carries the security headers
(:mod:`cardtable.web.delivery`).
"""

from __future__ import annotations

import html
import json
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, request_response
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

from ..i18n import LANGUAGES
from .catalogs import browser_catalog, web_catalog
from .delivery import IMMUTABLE, REVALIDATE, asset_version, delivered
from .options import all_games

STATIC = Path(str(resources.files(__package__).joinpath("static")))
WORKER = Path(str(resources.files(__package__).joinpath("pwa", "sw.js")))
NO_CACHE = {"Cache-Control": REVALIDATE}
ASSET_VERSION = asset_version(STATIC)
#: The top bar's felt: the installed app's title bar and splash screen.
THEME_COLOR = "#0a4430"
BACKGROUND_COLOR = "#e9efe9"
#: What the offline page needs, cached by the service worker when it installs.
OFFLINE_ASSETS = ["offline.css", "offline.js", "favicon.svg"]


def assets_prefix(version: str) -> str:
    return f"/static/v/{version}/"


def render_page(version: str) -> str:
    """``index.html`` naming the versioned assets, with every module preloaded (the page
    asks for them all at once rather than one import level at a time)."""
    assets = assets_prefix(version)
    preloads = "".join(
        f'<link rel="modulepreload" href="{assets}{path.relative_to(STATIC).as_posix()}">\n'
        for path in sorted(STATIC.rglob("*.js"))
        if path.name not in OFFLINE_ASSETS
    )
    return (
        (STATIC / "index.html")
        .read_text(encoding="utf-8")
        .replace('"/static/', f'"{assets}')
        .replace("</head>", preloads + "</head>")
    )


def render_manifest(version: str) -> dict[str, Any]:
    """The web app manifest: what Chromium needs to offer "Install app"."""
    icons = assets_prefix(version) + "icons/"
    return {
        "id": "/",
        "name": "cardtable: Skip-Bo & Skyjo",
        "short_name": "cardtable",
        "description": "Play Skip-Bo and Skyjo with friends or bots, and learn the rules.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [
            {"src": icons + "icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": icons + "icon-512.png", "sizes": "512x512", "type": "image/png"},
            {
                "src": icons + "icon-maskable-512.png",
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }


def render_worker(version: str) -> str:
    return (
        WORKER.read_text(encoding="utf-8")
        .replace('"__VERSION__"', json.dumps(version))
        .replace("__OFFLINE_ASSETS__", json.dumps(OFFLINE_ASSETS))
    )


def render_offline(version: str) -> str:
    """The offline page, in every language (its script shows the player's)."""
    assets = assets_prefix(version)
    sections = []
    for lang in LANGUAGES:
        words = web_catalog(lang)
        text = {key: html.escape(words[f"web.offline.{key}"]) for key in OFFLINE_KEYS}
        sections.append(
            f'<section lang="{lang}" data-trying="{text["trying"]}" '
            f'data-waiting="{text["waiting"]}"{"" if lang == "en" else " hidden"}>\n'
            f'<img src="{assets}favicon.svg" alt="">\n'
            f"<h1>{text['title']}</h1>\n<p>{text['text']}</p>\n"
            f'<p class="status" role="status">{text["waiting"]}</p>\n'
            f'<button type="button" class="retry">{text["retry"]}</button>\n</section>\n'
        )
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="theme-color" content="{THEME_COLOR}">\n<title>cardtable</title>\n'
        f'<link rel="icon" href="{assets}favicon.svg" type="image/svg+xml">\n'
        f'<link rel="stylesheet" href="{assets}offline.css">\n'
        f'<script type="module" src="{assets}offline.js"></script>\n'
        "</head>\n<body>\n<main>\n" + "".join(sections) + "</main>\n</body>\n</html>\n"
    )


OFFLINE_KEYS = ("title", "text", "waiting", "trying", "retry")
ASSETS = assets_prefix(ASSET_VERSION)
PAGE = render_page(ASSET_VERSION)


def text_route(body: str, media_type: str, headers: dict[str, str]) -> ASGIApp:
    async def answer(request: Request) -> Response:
        return Response(body, media_type=media_type, headers=headers)

    return delivered(request_response(answer))


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


#: The methods the page, its catalogs and its options take (HEAD comes with GET): any
#: other is 405 with ``Allow``, not the page.
GET = ["GET"]


def web_routes(version: str = ASSET_VERSION) -> list[BaseRoute]:
    """The page, its static files, the catalogs, the options endpoint and the installable
    app's manifest, service worker and offline page. ``version`` names the assets (the
    digest of ``static/``; a test deploys "a new version" with another)."""
    the_page = text_route(render_page(version), "text/html", NO_CACHE)
    files = StaticFiles(directory=STATIC)
    manifest = json.dumps(render_manifest(version))
    # The worker is asked again at every visit (no-cache): a new one means a new version.
    worker = text_route(render_worker(version), "text/javascript", NO_CACHE)
    return [
        Route("/", the_page, methods=GET),
        Route("/r/{code}", the_page, methods=GET),
        Route("/r/{code}/watch", the_page, methods=GET),
        Route(
            "/manifest.webmanifest",
            text_route(manifest, "application/manifest+json", NO_CACHE),
            methods=GET,
        ),
        Route("/sw.js", worker, methods=GET),
        Route("/offline", text_route(render_offline(version), "text/html", NO_CACHE), methods=GET),
        Route("/i18n/{lang}.json", delivered(request_response(catalog)), methods=GET),
        Route("/api/web/games", delivered(request_response(games), REVALIDATE), methods=GET),
        Mount(assets_prefix(version).rstrip("/"), delivered(files, IMMUTABLE), name="assets"),
        Mount("/static", delivered(files, REVALIDATE), name="static"),
    ]

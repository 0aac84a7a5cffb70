"""How the web table's files leave the server: compressed, cached, and locked down.

- **Versioned asset URLs.** Every file under ``static/`` is served at
  ``/static/v/{ASSET_VERSION}/...``, where the version is a digest of all of them; the page
  (``index.html``, never cached) names that prefix, and the modules import each other by
  relative paths, so they all load from it. Such a response may be kept for a year
  (``immutable``): a new release has a new digest, so it is never served stale. The plain
  ``/static/...`` URLs still answer (revalidated every time) for links kept from before.
- **Compression.** Text responses (HTML, modules, styles, catalogs, SVG) go out gzipped to
  a browser that accepts it (Starlette's GZipMiddleware; ``Vary: Accept-Encoding``).
- **Security headers** on every response of the web table: a Content-Security-Policy
  without ``unsafe-inline`` (the page has no inline script or style; the modules set
  styles through the CSSOM only), ``nosniff``, no framing, no referrer, and no access to
  the camera, microphone or location.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from starlette.datastructures import MutableHeaders
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Responses smaller than this are sent as they are (compression would not pay).
GZIP_MINIMUM = 500

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "media-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}

#: A versioned asset: its URL changes with its content, so it may be kept for a year.
IMMUTABLE = "public, max-age=31536000, immutable"
#: Anything else the page loads: kept, but asked again (a 304 when unchanged).
REVALIDATE = "no-cache"


def asset_version(directory: Path) -> str:
    """A digest of every file's path and content under ``directory`` (12 hex digits)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in directory.rglob("*") if p.is_file()):
        digest.update(path.relative_to(directory).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


class Headers:
    """Adds the security headers, and ``cache`` as Cache-Control unless the response
    already chose one, to every HTTP response of ``app``."""

    def __init__(self, app: ASGIApp, cache: str | None = None) -> None:
        self.app = app
        self.cache = cache

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
                if self.cache is not None and "cache-control" not in headers:
                    headers["Cache-Control"] = self.cache
            await send(message)

        await self.app(scope, receive, send_with_headers)


def delivered(app: ASGIApp, cache: str | None = None) -> ASGIApp:
    """``app`` with the security headers, ``cache`` and gzip for text responses."""
    return GZipMiddleware(Headers(app, cache), minimum_size=GZIP_MINIMUM)

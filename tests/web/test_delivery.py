"""How the page's files are delivered: gzip, caching with versioned URLs, security headers,
and the page working under its own Content-Security-Policy."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import httpx2 as httpx

from cardtable.web.delivery import CONTENT_SECURITY_POLICY, asset_version
from cardtable.web.routes import ASSET_VERSION, ASSETS, STATIC

from .pages import SHORT_GAMES, TIMEOUT, create_table, new_page, start

TEXT_SUFFIXES = {".js", ".css", ".svg", ".html", ".md"}


def static_files() -> list[Path]:
    return sorted(p for p in STATIC.rglob("*") if p.is_file())


def check_security(response: httpx.Response) -> None:
    headers = response.headers
    assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert "unsafe-inline" not in CONTENT_SECURITY_POLICY
    assert "unsafe-eval" not in CONTENT_SECURITY_POLICY
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer"


def test_every_static_file_is_versioned_compressed_cached_and_locked_down(server):
    files = static_files()
    assert len(files) > 15
    with httpx.Client(base_url=server) as client:
        for path in files:
            name = path.relative_to(STATIC).as_posix()
            response = client.get(ASSETS + name, headers={"Accept-Encoding": "gzip"})
            assert response.status_code == 200, name
            assert response.content == path.read_bytes(), name  # httpx decodes the gzip
            assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
            check_security(response)
            if path.suffix in TEXT_SUFFIXES and path.stat().st_size > 1000:
                assert response.headers.get("content-encoding") == "gzip", name
                assert "accept-encoding" in response.headers["vary"].lower(), name
            # The unversioned URL answers too, but must be revalidated.
            plain = client.get("/static/" + name)
            assert plain.status_code == 200 and plain.headers["cache-control"] == "no-cache"
            check_security(plain)
        # Without Accept-Encoding nothing is compressed.
        raw = client.get(ASSETS + "js/room.js", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in raw.headers
        # A version that is not the current one is not served (never a stale file).
        assert client.get("/static/v/000000000000/js/app.js").status_code == 404


def test_the_page_names_the_versioned_assets_and_is_never_kept(server):
    with httpx.Client(base_url=server) as client:
        for url in ("/", "/r/ABCD", "/r/ABCD/watch"):
            response = client.get(url, headers={"Accept-Encoding": "gzip"})
            assert response.status_code == 200
            assert response.headers["cache-control"] == "no-cache"
            check_security(response)
            html = response.text
            assert f'src="{ASSETS}js/app.js"' in html and f'href="{ASSETS}css/style.css"' in html
            assert not re.search(r'"/static/(?!v/)', html)
            assert "<script>" not in html and "style=" not in html  # nothing inline
        catalog = client.get("/i18n/fr.json", headers={"Accept-Encoding": "gzip"})
        assert catalog.headers["content-encoding"] == "gzip"
        assert catalog.headers["cache-control"] == "no-cache"
        check_security(catalog)
        games = client.get("/api/web/games", headers={"Accept-Encoding": "gzip"})
        assert games.headers["content-encoding"] == "gzip"
        assert games.json()["limits"] == {"name": 24}
        check_security(games)
        # The bytes on the wire are gzip.
        with client.stream("GET", ASSETS + "js/room.js", headers={"Accept-Encoding": "gzip"}) as r:
            wire = b"".join(r.iter_raw())
        assert gzip.decompress(wire) == (STATIC / "js" / "room.js").read_bytes()
        assert len(wire) < len(gzip.decompress(wire)) / 2


def test_the_version_follows_the_content(tmp_path):
    (tmp_path / "a.js").write_text("one")
    first = asset_version(tmp_path)
    (tmp_path / "a.js").write_text("two")
    assert asset_version(tmp_path) != first
    assert len(ASSET_VERSION) == 12 and asset_version(STATIC) == ASSET_VERSION


def test_a_whole_table_works_under_the_page_s_csp(server, browser):
    page = new_page(browser, server, csp=True)
    page.add_init_script(
        "window.__violations = [];"
        "document.addEventListener('securitypolicyviolation',"
        " (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));"
    )
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=TIMEOUT)
    create_table(page, "skipbo", "Alice", SHORT_GAMES["skipbo"], ["greedy"])
    start(page)
    page.wait_for_selector(".src-legal", timeout=TIMEOUT)
    # The fanned discard piles take their height from a style set through the CSSOM.
    fan = page.locator('[data-id="disc:0:0"]')
    assert fan.evaluate("el => el.style.getPropertyValue('--n')") == "1"
    assert page.evaluate("window.__violations") == []
    assert not page.errors
    page.context.close()

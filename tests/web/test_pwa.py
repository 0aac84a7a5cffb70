"""The app on a phone (issue 31): the web app manifest and its icons, the service worker
(what it caches and what never), Chromium's installability checks, the offline page when
the server is stopped and the return to the table when it is back, and fresh assets
after a new version is deployed (the old cache dropped)."""

from __future__ import annotations

import json
import struct
import time
from collections.abc import Callable
from typing import Any

import httpx2 as httpx

from cardtable.i18n import LANGUAGES
from cardtable.web.catalogs import web_catalog
from cardtable.web.delivery import CONTENT_SECURITY_POLICY
from cardtable.web.routes import ASSET_VERSION, ASSETS, STATIC

from ..live_server import free_port, running_server
from ..server.test_restart import Server
from .conftest import ARGS, CHROMIUM
from .pages import TIMEOUT, create_table, new_page


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def until(check: Callable[[], Any], what: str, timeout: float = TIMEOUT / 1000) -> Any:
    """Poll ``check`` (a page evaluation: string waits break under the page's CSP)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def controlled(page: Any) -> str:
    """Wait until the service worker controls ``page``; its script's URL."""
    url: str = until(
        lambda: page.evaluate("navigator.serviceWorker.controller?.scriptURL || ''"),
        "the service worker to control the page",
    )
    return url


CACHED = """async () => {
  const out = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    out[name] = (await cache.keys()).map((r) => new URL(r.url).pathname).sort();
  }
  return out;
}"""


def test_the_manifest_the_worker_and_the_offline_page_are_served(server):
    with httpx.Client(base_url=server) as client:
        page = client.get("/").text
        assert '<link rel="manifest" href="/manifest.webmanifest">' in page
        assert '<meta name="theme-color" content="#0a4430">' in page
        # The offline page's script is not preloaded by the table's page.
        assert "offline.js" not in page

        response = client.get("/manifest.webmanifest")
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("application/manifest+json")
        assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
        manifest = response.json()
        assert manifest["name"] and manifest["short_name"] == "cardtable"
        assert manifest["start_url"] == "/" and manifest["scope"] == "/"
        assert manifest["display"] == "standalone"
        assert manifest["theme_color"] == "#0a4430" and manifest["background_color"]
        sizes = set()
        for icon in manifest["icons"]:
            assert icon["src"].startswith(ASSETS), icon  # versioned, kept a year
            image = client.get(icon["src"])
            assert image.status_code == 200 and image.headers["content-type"] == "image/png"
            width, height = png_size(image.content)
            assert icon["sizes"] == f"{width}x{height}"
            assert len(image.content) < 20_000  # small
            sizes.add((width, icon.get("purpose", "any")))
        assert {(192, "any"), (512, "any"), (512, "maskable")} <= sizes

        worker = client.get("/sw.js")
        assert worker.status_code == 200
        assert worker.headers["content-type"].startswith("text/javascript")
        assert worker.headers["cache-control"] == "no-cache"  # a new version is seen at once
        assert worker.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
        script = worker.text
        assert json.dumps(ASSET_VERSION) in script and "__" not in script
        assert 'addEventListener("fetch"' in script
        for name in ("offline.css", "offline.js", "favicon.svg"):
            assert (STATIC / name).exists() and f'"{name}"' in script

        offline = client.get("/offline")
        assert offline.status_code == 200 and offline.headers["cache-control"] == "no-cache"
        assert "<script>" not in offline.text and "style=" not in offline.text
        for lang in LANGUAGES:
            title = web_catalog(lang)["web.offline.title"]
            assert f'<section lang="{lang}"' in offline.text
            assert f"<h1>{title}</h1>" in offline.text


def test_the_page_is_installable_and_caches_only_versioned_files(server, browser, tmp_path):
    # Chromium never offers to install from an incognito profile, which Playwright's
    # new contexts are: a persistent one is an ordinary profile.
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=CHROMIUM, args=ARGS
    )
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server + "/")
        page.wait_for_selector("body[data-ready='1']", timeout=TIMEOUT)
        assert controlled(page) == server + "/sw.js"
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == server + "/manifest.webmanifest"
        assert manifest["errors"] == []
        assert cdp.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}
        # Play a little: the API and the WebSocket carry tokens, none of it is cached.
        page.fill("#your-name", "Alice")
        page.click("#create")
        page.wait_for_selector("#room-code", timeout=TIMEOUT)
        page.reload()
        page.wait_for_selector("#room-code", timeout=TIMEOUT)
        cached = page.evaluate(CACHED)
        assert list(cached) == [f"cardtable-{ASSET_VERSION}"]
        paths = cached[f"cardtable-{ASSET_VERSION}"]
        assert "/offline" in paths and ASSETS + "js/app.js" in paths
        assert all(p == "/offline" or p.startswith(ASSETS) for p in paths), paths
        # A media element's ranges go to the network and are not kept (a 206 is no file).
        ranged = page.evaluate(
            f"fetch('{ASSETS}sounds/turn.wav', {{headers: {{Range: 'bytes=0-9'}}}})"
            ".then((r) => r.status)"
        )
        assert ranged in (200, 206)
        assert ASSETS + "sounds/turn.wav" not in page.evaluate(CACHED)[f"cardtable-{ASSET_VERSION}"]
        assert errors == []
    finally:
        context.close()


def test_the_offline_page_when_the_server_is_stopped_and_the_table_when_it_is_back(
    tmp_path, browser
):
    server = Server(tmp_path)
    server.start()
    try:
        page = new_page(browser, server.base, lang="fr")
        controlled(page)
        code = create_table(page, "skyjo", "Alice", {"players": 2}, ["human"])
        server.kill()
        page.reload()  # the phone comes back to the tab: no server
        page.wait_for_selector("body[data-offline='fr']", timeout=TIMEOUT)
        french = web_catalog("fr")
        assert page.inner_text("section[lang='fr'] h1") == french["web.offline.title"]
        assert page.is_visible("section[lang='fr'] button.retry")
        assert not page.is_visible("section[lang='en']")
        assert page.evaluate("document.documentElement.lang") == "fr"
        page.click("section[lang='fr'] button.retry")  # still down: it keeps waiting
        page.wait_for_timeout(500)
        assert page.is_visible("body[data-offline='fr']")
        server.start()
        # The page retries by itself and returns to the same table, in French.
        page.wait_for_selector("body[data-ready='1']", timeout=TIMEOUT)
        page.wait_for_selector("#room-code", timeout=TIMEOUT)
        assert page.inner_text("#room-code") == code
        assert page.evaluate("document.documentElement.lang") == "fr"
        assert page.errors == []
    finally:
        server.stop()


def test_a_new_deployment_serves_fresh_assets_and_drops_the_old_cache(tmp_path, browser):
    port = free_port()
    old, new = "0123456789ab", "ba9876543210"
    with running_server(tmp_path / "data", port=port, version=old) as base:
        page = new_page(browser, base)
        controlled(page)
        page.reload()  # the files load through the worker, which keeps them
        page.wait_for_selector("#create", timeout=TIMEOUT)
        cached = until(lambda: page.evaluate(CACHED).get(f"cardtable-{old}"), "the cache")
        assert f"/static/v/{old}/js/app.js" in cached
    with running_server(tmp_path / "data", port=port, version=new) as base:
        page.reload()
        page.wait_for_selector("body[data-ready='1']", timeout=TIMEOUT)
        page.wait_for_selector("#create", timeout=TIMEOUT)
        # The new worker took over and dropped the old version's cache.
        until(lambda: list(page.evaluate(CACHED)) == [f"cardtable-{new}"], "the old cache gone")
        worker = page.evaluate("fetch('/sw.js').then((r) => r.text())")
        assert json.dumps(new) in worker
        # Every file the page loaded is of the new version.
        loaded = page.evaluate(
            "performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)"
        )
        files = [path for path in loaded if path.startswith("/static/")]
        assert files and all(path.startswith(f"/static/v/{new}/") for path in files), files
        src = page.get_attribute("script[type=module]", "src")
        assert src == f"/static/v/{new}/js/app.js"
        # The server no longer serves the old version (nor does the worker keep it: above).
        assert httpx.get(f"{base}/static/v/{old}/js/app.js").status_code == 404
        assert page.errors == []


def test_the_phone_going_offline_and_online_again_returns_to_the_table(server, browser, shots):
    page = new_page(browser, server, lang="de", width=375)
    controlled(page)
    code = create_table(page, "skipbo", "Anna", {"players": 2}, ["human"])
    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("body[data-offline='de']", timeout=TIMEOUT)
    assert page.inner_text("section[lang='de'] h1") == web_catalog("de")["web.offline.title"]
    page.screenshot(path=shots / "offline-page-phone-de.png")
    page.context.set_offline(False)  # the "online" event: it asks again at once
    page.wait_for_selector("#room-code", timeout=TIMEOUT)
    assert page.inner_text("#room-code") == code
    assert page.errors == []

"""Draw the installed app's PNG icons from ``favicon.svg`` with the system Chromium.

The web app manifest names a 192 and a 512 px icon (what Chromium needs to offer
"Install app" / "Add to Home screen") and a 512 px maskable one (the cards kept inside
the safe circle, the felt reaching every edge, for the launcher's own mask). They are
committed under ``src/cardtable/web/static/icons/``; run this again after changing the
favicon::

    python scripts/pwa_icons.py

Needs Playwright for Python, Pillow and Chromium at /usr/bin/chromium (no browser is
downloaded)."""

from __future__ import annotations

import base64
import io
import shutil
from pathlib import Path
from typing import Any

from PIL import Image
from playwright.sync_api import sync_playwright

STATIC = Path(__file__).parents[1] / "src" / "cardtable" / "web" / "static"
ICONS = STATIC / "icons"
FELT = "#0a4430"  # the top bar's felt (--felt-dark), also the manifest's theme colour

# (file, size, share of the side the cards take, corner radius as a share of the side)
ICON_SET = [
    ("icon-192.png", 192, 0.78, 0.18),
    ("icon-512.png", 512, 0.78, 0.18),
    ("icon-maskable-512.png", 512, 0.56, 0.0),
]


def html(svg: str, size: int, share: float, radius: float) -> str:
    data = base64.b64encode(svg.encode()).decode()
    inner = round(size * share)
    return (
        "<!doctype html><html><body style='margin:0;background:transparent'>"
        f"<div style='width:{size}px;height:{size}px;background:{FELT};"
        f"border-radius:{round(size * radius)}px;display:grid;place-items:center'>"
        f"<img src='data:image/svg+xml;base64,{data}' width='{inner}' height='{inner}'>"
        "</div></body></html>"
    )


def draw(page: Any, svg: str, size: int, share: float, radius: float) -> bytes:
    page.set_viewport_size({"width": size, "height": size})
    page.set_content(html(svg, size, share, radius))
    shot: bytes = page.screenshot(omit_background=True)
    # A palette of 64 colours keeps each file a few kilobytes.
    image = Image.open(io.BytesIO(shot)).convert("RGBA").quantize(64)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def main() -> None:
    svg = (STATIC / "favicon.svg").read_text(encoding="utf-8")
    ICONS.mkdir(exist_ok=True)
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--headless"])
        page = browser.new_page()
        for name, size, share, radius in ICON_SET:
            (ICONS / name).write_bytes(draw(page, svg, size, share, radius))
            print(name, (ICONS / name).stat().st_size, "bytes")
        browser.close()


if __name__ == "__main__":
    main()

"""No symbol of the page shows as an empty box: every character its catalogs, scripts,
page and style sheet can put on screen is in DejaVu Sans, the font Debian's Chromium
falls back to (the copy matplotlib ships is read, so the check needs no system font).
The symbols it lacks (⦸, ⏮, ⏭) are, like the card back 🂠, SVG icons shipped with the
page (js/icons.js)."""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib
from fontTools.ttLib import TTFont

from cardtable.web.catalogs import LANGUAGES, browser_catalog

STATIC = Path(__file__).parents[2] / "src" / "cardtable" / "web" / "static"
DEJAVU = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"


def without_comments(script: str) -> str:
    script = re.sub(r"/\*.*?\*/", "", script, flags=re.S)
    return re.sub(r"(^|[^:\\])//[^\n]*", r"\1", script)  # not the // of a URL


def shown_characters() -> set[str]:
    chars: set[str] = set()
    for lang in LANGUAGES:
        for text in browser_catalog(lang).values():
            chars |= set(text)
    for path in STATIC.glob("js/*.js"):
        chars |= set(without_comments(path.read_text(encoding="utf-8")))
    chars |= set((STATIC / "index.html").read_text(encoding="utf-8"))
    css = (STATIC / "css" / "style.css").read_text(encoding="utf-8")
    for content in re.findall(r'content:\s*"([^"]*)"', css):
        chars |= set(content)
    return chars


def test_every_character_the_page_shows_is_in_the_default_font():
    cmap = TTFont(DEJAVU).getBestCmap()
    chars = shown_characters()
    assert {"★", "▲", "Σ", "·", "é", "ü"} <= chars  # the sources were read
    assert sorted(c for c in chars if ord(c) > 127 and ord(c) not in cmap) == []
    # The symbols Debian's fonts lack are not among them.
    assert not {"⦸", "⏮", "⏭", "🂠"} & chars
    assert all(ord(symbol) not in cmap for symbol in "⦸⏮⏭")

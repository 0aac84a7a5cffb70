"""Counts are worded by CLDR's plural rules in every language: no "(s)", no "1 points"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel import Locale

from cardtable.i18n import LANGUAGES, placeholders
from cardtable.web.catalogs import browser_catalog, web_catalog

from .pages import new_page

COUNTS = (0, 1, 2, 5)
STATIC = Path(__file__).parents[2] / "src" / "cardtable" / "web" / "static"


def plural_keys() -> list[str]:
    """Every plural group the page words: its own (web.*) and the shared ones its scripts
    name (the review's, worded as in the terminal)."""
    english = browser_catalog("en")
    groups = {key.rsplit(".", 1)[0] for key in english if key.endswith(".other")}
    scripts = "\n".join(p.read_text(encoding="utf-8") for p in STATIC.glob("js/*.js"))
    named = set(re.findall(r'"([a-z_]+(?:\.[a-z0-9_]+)+)"', scripts))
    return sorted(key for key in groups if key.startswith("web.") or key in named)


def fill(text: str, count: int) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(count) if m.group(1) == "count" else "P", text)


def params(text: str, count: int) -> dict[str, object]:
    return {**{name: "P" for name in placeholders(text)}, "count": count}


def test_every_counted_text_has_a_form_for_each_category_of_each_language():
    keys = plural_keys()
    assert {"web.log.skipbo.drew", "web.lobby.wait_players", "web.score.round_points"} <= set(keys)
    assert {"review.best", "review.decisions", "web.summary.winners"} <= set(keys)
    for lang in LANGUAGES:
        catalog = browser_catalog(lang)
        for count in COUNTS:
            category = Locale.parse(lang).plural_form(count)
            for key in keys:
                # A category with no entry of its own takes "other" (the page does the same).
                known = f"{key}.{category}" in catalog
                assert known or category not in ("one", "other"), (lang, key)
        texts = {
            **web_catalog(lang),
            **{k: v for k, v in catalog.items() if k.startswith("review.")},
        }
        either = [key for key, text in texts.items() if re.search(r"\((s|n|e|i)\)|/e\b", text)]
        assert not either, lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_words_0_1_2_and_5_as_cldr_says(server, browser, lang):
    page = new_page(browser, server, lang=lang)
    catalog = browser_catalog(lang)
    locale = Locale.parse(lang)
    for key in plural_keys():
        for count in COUNTS:
            category = locale.plural_form(count)
            text = catalog.get(f"{key}.{category}", catalog[f"{key}.other"])
            shown = page.evaluate(
                "async ([key, params]) => (await pageModule('i18n.js')).t(key, params)",
                [key, params(text, count)],
            )
            assert shown == fill(text, count), (lang, key, count)
    # Numbers are written the language's way too.
    big = page.evaluate(
        "async () => (await pageModule('i18n.js')).t('web.skipbo.draw_pile', { count: 1234.5 })"
    )
    written = {"en": "1,234.5", "fr": "1[\u202f\u00a0]234,5", "de": "1.234,5", "it": "1234,5"}
    assert re.search(written[lang], big), big
    # And several names (shared wins) as a list in the language's words.
    names = page.evaluate(
        "() => pageModule('i18n.js').then((m) => m.formatNames(['Alice', 'Bob', 'Zoé']))"
    )
    listed = {"en": "Alice, Bob, and Zoé", "fr": "Alice, Bob et Zoé", "de": "Alice, Bob und Zoé"}
    assert names == listed.get(lang, "Alice, Bob e Zoé"), names
    assert not page.errors
    page.context.close()

"""Counts are worded by CLDR's plural rules in every language: no "(s)", no "1 points"."""

from __future__ import annotations

import re

import pytest
from babel import Locale

from cardtable.i18n import LANGUAGES
from cardtable.web.catalogs import web_catalog

from .pages import new_page

COUNTS = (0, 1, 2, 5)
PARAMS = {"name": "Alice", "card": "7", "n": 2}


def plural_keys() -> list[str]:
    english = web_catalog("en")
    return sorted({key.rsplit(".", 1)[0] for key in english if key.endswith(".other")})


def fill(text: str, count: int) -> str:
    values = {**PARAMS, "count": count}
    return re.sub(r"\{(\w+)\}", lambda m: str(values[m.group(1)]), text)


def test_every_counted_text_has_a_form_for_each_category_of_each_language():
    keys = plural_keys()
    assert {"web.log.skipbo.drew", "web.lobby.wait_players", "web.score.round_points"} <= set(keys)
    for lang in LANGUAGES:
        catalog = web_catalog(lang)
        for count in COUNTS:
            category = Locale.parse(lang).plural_form(count)
            for key in keys:
                # A category with no entry of its own takes "other" (the page does the same).
                known = f"{key}.{category}" in catalog
                assert known or category not in ("one", "other"), (lang, key)
        either = [key for key, text in catalog.items() if re.search(r"\((s|n|e|i)\)|/e\b", text)]
        assert not either, lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_words_0_1_2_and_5_as_cldr_says(server, browser, lang):
    page = new_page(browser, server, lang=lang)
    catalog = web_catalog(lang)
    locale = Locale.parse(lang)
    for key in plural_keys():
        for count in COUNTS:
            category = locale.plural_form(count)
            expected = fill(catalog.get(f"{key}.{category}", catalog[f"{key}.other"]), count)
            shown = page.evaluate(
                "([key, params]) => window.cardtable.t(key, params)",
                [key, {**PARAMS, "count": count}],
            )
            assert shown == expected, (lang, key, count)
    # Numbers are written the language's way too.
    big = page.evaluate("window.cardtable.t('web.skipbo.draw_pile', { count: 1234.5 })")
    written = {"en": "1,234.5", "fr": "1[\u202f\u00a0]234,5", "de": "1.234,5", "it": "1234,5"}
    assert re.search(written[lang], big), big
    assert not page.errors
    page.context.close()

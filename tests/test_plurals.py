"""Texts that count something follow each language's CLDR plural rules (Babel)."""

from __future__ import annotations

import re

import pytest

from cardtable.i18n import LANGUAGES, catalog, placeholders, plural_key, translate_count

CATEGORIES = ("zero", "one", "two", "few", "many", "other")
PLURAL = re.compile(rf"^(.+)\.({'|'.join(CATEGORIES)})$")


def _groups(lang: str) -> dict[str, set[str]]:
    groups: dict[str, set[str]] = {}
    for key in catalog(lang):
        found = PLURAL.match(key)
        if found:
            groups.setdefault(found[1], set()).add(found[2])
    return groups


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_plural_group_has_one_and_other_and_counts(lang):
    groups = _groups(lang)
    assert groups == {key: groups[key] for key in _groups("en")}  # the same groups
    for key, categories in groups.items():
        assert {"one", "other"} <= categories, (lang, key)
        for category in categories:
            assert "count" in placeholders(catalog(lang)[f"{key}.{category}"]), (lang, key)


def test_no_hand_written_plural_is_left_in_the_shared_catalogs():
    for lang in LANGUAGES:
        for key, text in catalog(lang).items():
            assert not re.search(r"\w\((s|n|e|i)\)", text), (lang, key, text)


def test_the_cldr_rule_of_each_language_picks_the_text():
    key = "lobby.waiting_players"
    assert translate_count("en", key, 1) == "Waiting for 1 more player to join."
    assert translate_count("en", key, 0) == "Waiting for 0 more players to join."
    assert translate_count("en", key, 3) == "Waiting for 3 more players to join."
    # French counts 0 and 1 as singular; English and German only 1.
    assert translate_count("fr", key, 0) == "En attente de 0 joueur de plus."
    assert translate_count("fr", key, 2) == "En attente de 2 joueurs de plus."
    assert translate_count("de", key, 1) == "Warte auf 1 weiteren Spieler."
    assert translate_count("de", key, 0) == "Warte auf 0 weitere Spieler."
    assert translate_count("it", "skipbo.left", 1) == "1 rimasta"
    assert translate_count("it", "skipbo.left", 0) == "0 rimaste"


def test_a_category_a_catalog_does_not_give_falls_back_to_other():
    # CLDR gives French and Italian a "many" for millions; the catalogs word it as "other".
    assert plural_key("fr", "skipbo.left", 1_000_000) == "skipbo.left.other"
    assert plural_key("it", "skipbo.left", 1_000_000) == "skipbo.left.other"
    assert plural_key("fr", "skipbo.left", 1) == "skipbo.left.one"

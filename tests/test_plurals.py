"""Texts that count something follow each language's CLDR plural rules (Babel)."""

from __future__ import annotations

import re

import pytest

from cardtable.i18n import (
    LANGUAGES,
    catalog,
    placeholders,
    plural_key,
    read_catalog,
    translate_count,
)

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


def test_no_hand_written_plural_is_left_in_any_catalog():
    # The shared catalogs and the web page's own: "card(s)", "Karte(n)", "carta(e)".
    for lang in LANGUAGES:
        texts = {**catalog(lang), **read_catalog(lang, f"web/{lang}.json")}
        assert "web.skyjo.draw_pile.one" in texts
        for key, text in texts.items():
            assert not re.search(r"\w\((s|n|e|i|en|es|r)\)", text), (lang, key, text)


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


# The terminal's counted texts for 0, 1, 2 and 5 in each language: which number takes
# the singular is the language's CLDR rule (French: 0 and 1; the others: 1 only).
SINGULAR = {"en": {1}, "de": {1}, "it": {1}, "fr": {0, 1}}
COUNTED = {
    # key: {lang: (singular text, plural text)}, "{count}" filled in.
    "event.skipbo.stock_revealed": {
        "en": ("Ann: stock pile shows 7 ({count} left).",) * 2,
        "fr": (
            "Ann : le talon montre 7 ({count} restante).",
            "Ann : le talon montre 7 ({count} restantes).",
        ),
        "de": ("Ann: Spielerstapel zeigt 7 (noch {count}).",) * 2,
        "it": (
            "Ann: il mazzo mostra 7 ({count} rimasta).",
            "Ann: il mazzo mostra 7 ({count} rimaste).",
        ),
    },
    "review.decisions": {
        "en": ("your {count} decision with a choice", "your {count} decisions with a choice"),
        "fr": ("votre {count} décision avec un choix", "vos {count} décisions avec un choix"),
        "de": (
            "deiner {count} Entscheidung mit Auswahl",
            "deinen {count} Entscheidungen mit Auswahl",
        ),
        "it": ("{count} decisione con una scelta", "{count} decisioni con una scelta"),
    },
    "review.best": {
        "en": ("the best move {count} time", "the best move {count} times"),
        "fr": ("le meilleur coup {count} fois",) * 2,
        "de": ("{count}-mal der beste Zug",) * 2,
        "it": ("la mossa migliore {count} volta", "la mossa migliore {count} volte"),
    },
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("count", [0, 1, 2, 5])
def test_the_terminal_words_0_1_2_and_5_as_cldr_says(lang, count):
    from cardtable.tui.words import Words

    words = Words(lang, "skipbo", ["Ann"])
    form = 0 if count in SINGULAR[lang] else 1
    for key, texts in COUNTED.items():
        params = {"who": "Ann", "card": "7"} if key.startswith("event.") else {}
        assert words.count(key, count, **params) == texts[lang][form].format(count=count)
    turns = words.count("event.skyjo.turn_limit", count, round=3)
    noun = {
        "en": ("turn", "turns"),
        "fr": ("tour", "tours"),
        "de": ("Zug", "Zügen"),
        "it": ("turno", "turni"),
    }[lang][form]
    assert f" {count} {noun}" in turns and "3" in turns


@pytest.mark.parametrize(
    ("lang", "value", "digits", "text"),
    [
        # CLDR chooses by the number as written: "1.0" is plural in English and German
        # (it shows a decimal), singular in French (its integer part is 0 or 1).
        ("en", 1, 0, "This move cost you about 1 point."),
        ("en", 1, 1, "This move cost you about 1.0 points."),
        ("en", 2.5, 1, "This move cost you about 2.5 points."),
        ("fr", 1.5, 1, "Ce coup vous a coûté environ 1,5 point."),
        ("fr", 0, 1, "Ce coup vous a coûté environ 0,0 point."),
        ("fr", 2, 1, "Ce coup vous a coûté environ 2,0 points."),
        ("de", 1, 0, "Dieser Zug hat dich etwa 1 Punkt gekostet."),
        ("de", 1, 1, "Dieser Zug hat dich etwa 1,0 Punkte gekostet."),
        ("it", 1, 0, "Questa mossa ti è costata circa 1 punto."),
        ("it", 5, 1, "Questa mossa ti è costata circa 5,0 punti."),
    ],
)
def test_an_amount_takes_the_form_of_the_number_as_written(lang, value, digits, text):
    from cardtable.tui.words import Words

    assert Words(lang, "skyjo", []).amount("review.cost_skyjo", value, digits) == text

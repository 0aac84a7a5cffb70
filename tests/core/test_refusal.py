"""Refusals as catalog keys: the engines' English tables match the English catalog, every
refusal key is in the four catalogs with the same placeholders, and each renders whole."""

from __future__ import annotations

import functools
import pickle

import pytest

from cardtable.core import IllegalMoveError, Refusal, fill_refusal
from cardtable.core.refusal import table_translator
from cardtable.i18n import LANGUAGES, catalog, placeholders, translate
from cardtable.i18n.refusals import ARTICLE_PARAMS, CARD_KEYS, card_key, render_refusal
from cardtable.skipbo import refusals as skipbo_refusals
from cardtable.skipbo.cards import VALUES, with_article
from cardtable.skyjo import refusals as skyjo_refusals

ENGLISH = {**skipbo_refusals.ENGLISH, **skyjo_refusals.ENGLISH}
#: The refusals and the card names they use, in English.
WORDED = {**ENGLISH, **{key: catalog("en")[key] for key in CARD_KEYS}}


def test_a_refusal_round_trips_through_json() -> None:
    refusal = Refusal.of("refusal.skipbo.pile_needs", pile=2, needed=5, card=8)
    assert refusal.params == (("card", 8), ("needed", 5), ("pile", 2))
    data = refusal.to_json()
    assert data == {
        "key": "refusal.skipbo.pile_needs",
        "params": {"card": 8, "needed": 5, "pile": 2},
    }
    assert Refusal.from_json(data) == refusal
    bare = Refusal("refusal.skyjo.game_over")
    assert Refusal.from_json({"key": bare.key}) == bare


def test_the_illegal_move_error_carries_key_params_and_english() -> None:
    refusal = Refusal.of("refusal.skipbo.discard_empty", discard=3)
    error = IllegalMoveError("your discard pile 3 is empty", refusal)
    assert str(error) == error.reason == "your discard pile 3 is empty"
    assert error.key == "refusal.skipbo.discard_empty" and error.params == {"discard": 3}
    copy = pickle.loads(pickle.dumps(error))
    assert copy.reason == error.reason and copy.refusal == refusal
    bare = IllegalMoveError("action 7 is not legal")
    assert bare.refusal is None and bare.key is None and bare.params == {}


def test_the_engines_english_is_the_english_catalog_word_for_word() -> None:
    english = catalog("en")
    assert not set(skipbo_refusals.ENGLISH) & set(skyjo_refusals.ENGLISH)
    for key, text in ENGLISH.items():
        assert english.get(key) == text, key


def test_every_refusal_key_is_in_the_four_catalogs_with_the_same_placeholders() -> None:
    for lang in LANGUAGES:
        texts = catalog(lang)
        # The catalogs hold exactly the keys the engines produce, no stale one.
        assert {key for key in texts if key.startswith("refusal.")} == set(WORDED), lang
        for key, text in WORDED.items():
            assert placeholders(texts[key]) == placeholders(text), (lang, key)
            assert texts[key].strip(), (lang, key)
            assert lang == "en" or texts[key] != text, (lang, key)  # translated


def test_an_article_names_every_skip_bo_card_as_the_engine_always_did() -> None:
    english = table_translator(catalog("en"))
    for card in VALUES:
        assert english(card_key(card), value=str(card)) == with_article(card)


def test_the_core_fills_in_numbers_and_only_the_wording_it_is_given() -> None:
    refusal = Refusal.of(skipbo_refusals.PILE_NEEDS, pile=2, needed=8, card=0)
    plain = fill_refusal(refusal, table_translator(ENGLISH))
    assert plain == "building pile 2 needs 8, not 0"
    named = fill_refusal(refusal, table_translator(ENGLISH), wording={"card": lambda v: "X"})
    assert named == "building pile 2 needs 8, not X"
    assert skipbo_refusals.english(refusal) == "building pile 2 needs an 8, not a Skip-Bo card"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_renders_whole_in_every_language(lang: str) -> None:
    def words(key: str, **params: object) -> str:
        return translate(lang, key, **params)

    for key, text in ENGLISH.items():
        names = placeholders(text) - {"move"}
        for card in (0, 5, 8):
            params = {name: card if name in ARTICLE_PARAMS else 3 for name in names}
            shown = render_refusal(Refusal.of(key, **params), words, move="MOVE")
            assert "{" not in shown and "refusal." not in shown, (lang, key, shown)
            if "move" in placeholders(text):
                assert "MOVE" in shown


def test_a_skip_bo_card_is_named_in_each_language() -> None:
    refusal = Refusal.of(skipbo_refusals.PILE_NEEDS, pile=1, needed=8, card=0)
    shown = {}
    for lang in LANGUAGES:
        words = functools.partial(translate, lang)
        shown[lang] = render_refusal(refusal, words)
    assert shown == {
        "en": "building pile 1 needs an 8, not a Skip-Bo card",
        "fr": "la pile de construction 1 attend un 8, pas une carte Skip-Bo",
        "de": "Ablegestapel 1 braucht eine 8, eine Skip-Bo-Karte passt nicht",
        "it": "il mazzo di costruzione 1 richiede un 8, non una carta Skip-Bo",
    }

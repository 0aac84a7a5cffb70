"""The four web catalogs agree, and every key the page uses exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardtable.i18n import LANGUAGES, catalog, placeholders
from cardtable.web.catalogs import browser_catalog, web_catalog
from cardtable.web.options import all_games

from ..core.test_error_words import server_error_codes

STATIC = Path(__file__).parents[2] / "src" / "cardtable" / "web" / "static"
ERROR_CODES = re.compile(r'"(\w+)"')


def _js() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(STATIC.glob("js/*.js")))


def test_same_keys_and_placeholders_in_every_language():
    english = web_catalog("en")
    assert english
    for lang in LANGUAGES:
        catalog = web_catalog(lang)
        assert set(catalog) == set(english), lang
        for key, text in english.items():
            assert placeholders(catalog[key]) == placeholders(text), (lang, key)
            assert catalog[key].strip(), (lang, key)
        assert all(key.startswith("web.") for key in catalog), lang


def test_every_key_in_the_scripts_exists():
    english = web_catalog("en")
    used = set(re.findall(r'"(web\.[a-z0-9_.]*[a-z0-9_])"', _js()))
    assert len(used) > 150
    # A key worded by a count exists as its plural forms ("key.one", "key.other").
    assert sorted(key for key in used - set(english) if f"{key}.other" not in english) == []
    # The review is worded by the terminal's keys (one wording of it): they exist too.
    shared = catalog("en")
    review = set(re.findall(r'"(review\.[a-z0-9_.]*[a-z0-9_])"', _js()))
    assert {"review.summary", "review.best", "review.decisions"} <= review
    assert sorted(key for key in review if key not in shared and f"{key}.other" not in shared) == []


def test_dynamic_keys_exist():
    english = web_catalog("en")
    for info in all_games()["games"]:
        game = info["game"]
        assert f"web.home.about_{game}" in english
        assert f"web.rules.{game}_title" in english
        assert f"web.rules.{game}.1.title" in english
        for option in info["options"]:
            # Labelled by the rules options' own key, not by a copy of the page's.
            assert option["label"] == f"option.{game}.{option['name']}"
            assert f"web.opt.{game}.{option['name']}" not in english
            for lang in LANGUAGES:
                assert option["label"] in browser_catalog(lang)
        for bot in info["bots"]:
            assert f"web.bot.{bot}" in english
    for code in _known_errors():
        assert f"web.error.{code}" in english


def _known_errors() -> set[str]:
    known = re.search(r"const KNOWN_ERRORS = \[(.*?)\];", _js(), re.S)
    assert known is not None
    return set(ERROR_CODES.findall(known.group(1)))


def test_the_page_knows_every_error_code_of_the_server():
    # Each is worded from the page's catalog; only an unknown code shows the English.
    codes = server_error_codes()
    assert "stale_version" in codes
    assert sorted(codes - _known_errors()) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_gets_the_allowed_values_of_options_in_its_catalog(lang):
    # A refused option says what it allows from these shared keys (allowed_key).
    allowed = {key for key in catalog("en") if key.startswith("allowed.")}
    assert "allowed.optional_int" in allowed
    merged = browser_catalog(lang)
    assert all(merged[key] == catalog(lang)[key] for key in allowed)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_browser_catalog_merges_common_and_web(lang):
    merged = browser_catalog(lang)
    assert set(web_catalog(lang)) <= set(merged)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_gets_the_advisor_s_reasons_in_its_catalog(lang):
    # The hint and the review word the advisor's reasons from these shared keys.
    advice = {key for key in catalog("en") if key.startswith("advice.")}
    assert "advice.separator" in advice and len(advice) > 20
    merged = browser_catalog(lang)
    assert advice <= set(merged)
    assert all(merged[key] == catalog(lang)[key] for key in advice)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_gets_the_refusals_in_its_catalog(lang):
    # A refused move is worded from these shared keys (the server sends reason_key).
    refusals = {key for key in catalog("en") if key.startswith("refusal.")}
    assert {"refusal.skipbo.card_a", "refusal.skyjo.setup_first"} <= refusals
    merged = browser_catalog(lang)
    assert all(merged[key] == catalog(lang)[key] for key in refusals)
    # The keys the page names itself are among them.
    used = set(re.findall(r'"(refusal\.[a-z0-9_.]*[a-z0-9_])"', _js()))
    assert used and used <= refusals

"""Every reason and message key the server can send has its words in every catalog
(issue 47): a game's "not rated" reason (the ``rated`` message, the profile's recent
games) on the web page and in the terminal, and every error code on the web page too;
the shared catalogs' ``error.*`` are checked by tests/core/test_error_words.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardtable.i18n import LANGUAGES, catalog
from cardtable.server.ladder import Unrated
from cardtable.web.catalogs import web_catalog

from ..core.test_error_words import server_error_codes

ROOT = Path(__file__).parents[2]


def unrated_reasons() -> set[str]:
    """Every reason a game is not rated (the ``rated`` message, a profile's game)."""
    return {str(reason) for reason in Unrated}


def test_the_reasons_are_found():
    assert {"coached", "guest_seat", "taken_over", "blocked", "hinted"} <= unrated_reasons()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_unrated_reason_has_words_on_the_page_and_in_the_terminal(lang):
    page, terminal = web_catalog(lang), catalog(lang)
    english = web_catalog("en")
    for reason in sorted(unrated_reasons()):
        assert f"web.rated.reason.{reason}" in page, (lang, reason)
        assert f"rated.reason.{reason}" in terminal, (lang, reason)
        if lang != "en":
            assert page[f"web.rated.reason.{reason}"] != english[f"web.rated.reason.{reason}"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_error_code_has_words_on_the_page(lang):
    page = web_catalog(lang)
    missing = sorted(code for code in server_error_codes() if f"web.error.{code}" not in page)
    assert missing == []


def test_the_terminal_words_a_coached_game():
    from cardtable.tui.words import Words

    for lang in LANGUAGES:
        said = Words(lang, "skyjo", []).verdict({"rated": False, "reason": "coached"})
        assert "coached" not in said.split(), (lang, said)
        assert said.endswith(catalog(lang)["rated.reason.coached"])


def test_protocol_md_lists_every_unrated_reason():
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    listed = text[text.index("`reason` is one of") :][:600]
    assert sorted(r for r in unrated_reasons() if f"`{r}`" not in listed) == []
    players = (ROOT / "docs" / "players.md").read_text(encoding="utf-8")
    kept = players[players.index("`rated_games.reason`") :][:400]
    assert sorted(r for r in unrated_reasons() if f"`{r}`" not in kept) == []

"""Refusals other than the engine's, in words: every error code the server sends has its
text in the four shared catalogs (``error.{code}``), and a refused rules option says what
the option allows as a catalog key and parameters besides its English: the English
catalog gives the engine's words exactly, and every language has each key with the same
placeholders, translated."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest

from cardtable.core import ALLOWED, OptionError, option_error, option_fields
from cardtable.games import game_names, get_game
from cardtable.i18n import LANGUAGES, catalog, placeholders, translate

SERVER = Path(__file__).parents[2] / "src" / "cardtable" / "server"
CODE = re.compile(
    r"(?:ApiError|RoomError|ProtocolError|_error|error_message|too_many|_guard_error)"
    r'\(\s*"([a-z_]+)"'
)


def server_error_codes() -> set[str]:
    """Every error code the server's sources raise or send."""
    text = "\n".join(path.read_text(encoding="utf-8") for path in SERVER.rglob("*.py"))
    return set(CODE.findall(text))


def test_the_server_s_error_codes_are_found():
    codes = server_error_codes()
    assert {"not_your_turn", "stale_version", "bad_move", "bad_options", "no_room"} <= codes
    # In every folder of the server (one folder per concept), refused before a route too.
    assert {"second_seat", "too_many_sockets", "no_step", "bad_host"} <= codes
    assert len(codes) > 50


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_error_code_has_its_words_in_every_language(lang):
    english = catalog("en")
    texts = catalog(lang)
    for code in server_error_codes():
        assert f"error.{code}" in english, code
    for key, text in english.items():
        if key.startswith("error."):
            assert placeholders(texts[key]) == placeholders(text), (lang, key)
            assert lang == "en" or texts[key] != text, (lang, key)


def _refusal(game: str, options: dict[str, object]) -> OptionError:
    with pytest.raises(OptionError) as caught:
        get_game(game).rules_from_json(options)
    return caught.value


CASES = [
    ("skipbo", {"players": 6, "stock_size": 25}, "allowed.optional_int"),
    ("skipbo", {"players": 3, "teams": True}, "allowed.teams_players"),
    ("skipbo", {"players": 2, "discard_to_partner": True}, "allowed.needs_teams"),
    ("skipbo", {"rounds": 1}, "allowed.bool"),
    ("skyjo", {"players": 9}, "allowed.int"),
    ("skyjo", {"colour": 1}, "allowed.unknown"),
]


@pytest.mark.parametrize(("game", "options", "key"), CASES)
def test_every_refused_option_has_a_key_whose_english_is_the_engine_s(game, options, key):
    error = _refusal(game, options)
    assert error.key == key
    assert translate("en", key, **error.params) == error.allowed
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.field, copy.allowed, copy.key, copy.params) == (
        error.field,
        error.allowed,
        error.key,
        error.params,
    )


#: The ``allowed.`` keys the server words itself: its turn time limit and what the coach
#: needs, table options (cardtable.server.rooms.table_options), not rules options of any game.
SERVER_ALLOWED = {"allowed.turn_seconds", "allowed.coach_seats", "allowed.coach_before_start"}


def requirement_words() -> dict[str, str]:
    """Each game's requirements between options, by catalog key: the engine's English."""
    return {
        need.allowed_key: need.english
        for game in game_names()
        for field in option_fields(get_game(game).rules_type)
        for need in field.option.requires
    }


def test_the_allowed_words_are_the_english_catalog_word_for_word():
    english = catalog("en")
    engines = requirement_words()
    assert "allowed.teams_players" in engines
    assert not set(engines) & set(ALLOWED)  # the core's texts name no game's option
    found = {key for key in english if key.startswith("allowed.")}
    assert found == set(ALLOWED) | set(engines) | SERVER_ALLOWED
    assert all(english[key] == text for key, text in {**ALLOWED, **engines}.items())
    error = option_error("rules", [], "allowed.object")
    assert str(error) == "option 'rules': a JSON object of options (got [])"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_allowed_key_is_translated_with_the_same_placeholders(lang):
    texts = catalog(lang)
    for key, text in catalog("en").items():
        if not key.startswith("allowed."):
            continue
        assert placeholders(texts[key]) == placeholders(text), (lang, key)
        assert lang == "en" or texts[key] != text, (lang, key)
    shown = translate(lang, "allowed.optional_int", low=5, high=22)
    assert "5" in shown and "22" in shown and (lang == "en" or "null" not in shown)

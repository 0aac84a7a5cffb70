"""The shared catalogs: same keys and placeholders in every language, nothing missing on screen."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from cardtable.bots import make_bot
from cardtable.core import Rng
from cardtable.games import get_game
from cardtable.i18n import LANGUAGES, catalog, default_language, missing, placeholders, translate
from cardtable.tui.app import make_app
from cardtable.tui.source import LocalGame
from cardtable.tui.words import Words

from .helpers import settle

CATALOGS = Path(__file__).parents[2] / "src" / "cardtable" / "i18n"


def test_the_four_catalogs_have_the_same_keys_and_placeholders() -> None:
    english = catalog("en")
    for lang in LANGUAGES:
        data = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
        assert set(data) == set(english), lang
        for key, text in data.items():
            assert placeholders(text) == placeholders(english[key]), (lang, key)
            assert text.strip(), (lang, key)


def test_pile_names_follow_the_rule_sheets() -> None:
    expected = {
        "fr": ("talon", "pile de construction", "pile de défausse", "Pioche"),
        "de": ("Spielerstapel", "Ablegestapel", "Hilfsstapel", "Kartenstock"),
        "en": ("stock pile", "building pile", "discard pile", "Draw pile"),
        "it": ("mazzo", "mazzo di costruzione", "pila degli scarti", "Mazzo di pesca"),
    }
    for lang, names in expected.items():
        got = tuple(
            translate(lang, f"skipbo.{key}")
            for key in ("stock_pile", "building_pile", "discard_pile", "draw_pile")
        )
        assert got == names
    assert translate("de", "skyjo.discard_pile") == "Ablagestapel"
    assert translate("de", "skyjo.draw_pile") == "Nachziehstapel"


def test_missing_key_falls_back_to_english_and_default_language() -> None:
    assert translate("fr", "no.such.key") == "no.such.key"
    assert ("fr", "no.such.key") in missing()
    assert default_language({"LANG": "de_DE.UTF-8"}) == "de"
    assert default_language({"CARDTABLE_LANG": "it", "LANG": "fr_FR"}) == "it"
    assert default_language({"LANG": "C"}) == "en"


def _every_event_and_move(game_name: str, options: dict[str, object], words: Words) -> None:
    game = get_game(game_name)
    state = game.new_state(game.rules_from_json(options), 3)
    bot = make_bot(game_name, "greedy")
    rng = Rng(1)
    while not state.is_over:
        move = game.decode(bot.choose(state, rng))
        text = words.move(move.to_json())
        assert "{" not in text and "move." not in text
        for event in state.apply(move).to_json()["events"]:
            line = words.event(event)
            assert line is None or ("{" not in line and "event." not in line)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_renders_with_no_missing_key(lang: str) -> None:
    before = {entry for entry in missing() if entry[0] == lang}
    for game_name, options in (
        ("skyjo", {"players": 3, "rows_rule": True}),
        ("skipbo", {"players": 4, "teams": True, "stock_size": 5, "rounds": True, "target": 60}),
    ):
        names = ["You", "P2", "P3", "P4"]
        _every_event_and_move(game_name, options, Words(lang, game_name, names))
        asyncio.run(_screens(game_name, options, lang))
    assert {entry for entry in missing() if entry[0] == lang} == before


async def _screens(game_name: str, options: dict[str, object], lang: str) -> None:
    game = get_game(game_name)
    rules = game.rules_from_json(options)
    players: int = getattr(rules, "players", 2)
    source = LocalGame(game, rules, 5, ["greedy"] * (players - 1), pause=0)
    app = make_app(source, lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("h")
        await pilot.press("question_mark")
        page = app.screen.body.plain  # type: ignore[attr-defined]
        assert "keys." not in page and "help." not in page
        await pilot.press("escape")
        view = source.view()
        texts = [app.status_text(view).plain, app.render_board(view).plain, app.key_bar().plain]
        texts.append(app.final_page(view).plain)
        assert all("{" not in text for text in texts)
        assert len(app.key_bar().plain) <= 78


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_round_ended_by_the_turn_limit_is_told_in_every_language(lang: str) -> None:
    from cardtable.skyjo.moves import DRAW, EXCHANGE
    from cardtable.skyjo.state import SETUP, TURN, SkyjoState
    from cardtable.tui.app import SkyjoApp

    game = get_game("skyjo")
    state = game.new_state(game.rules_from_json({"players": 2, "turn_limit": 100}), 2)
    assert isinstance(state, SkyjoState)
    words = Words(lang, "skyjo", ["You", "P2"])
    lines: list[str] = []
    ended: dict[str, object] = {}
    while not ended:
        legal = state.legal_actions()
        if state.phase == SETUP:
            action = legal[0]
        elif state.phase == TURN:
            action = DRAW
        else:  # never a face-down position: nobody goes out
            seat = state.player
            up = [a for a in legal if EXCHANGE <= a < EXCHANGE + 12]
            action = next(a for a in up if not state.down[seat] >> (a - EXCHANGE) & 1)
        for event in state.apply_action(action).to_json()["events"]:
            line = words.event(event)
            if line is not None:
                lines.append(line)
            if event["type"] == "RoundEnded":
                ended = event
    assert ended["closer"] is None
    limit = words.count("event.skyjo.turn_limit", 100, round=1)
    assert limit in lines and words("event.skyjo.round_ended_limit", round=1) in lines
    assert all("{" not in line and "event." not in line for line in lines)
    app = make_app(LocalGame(game, state.rules, 2, ["greedy"], pause=0), lang)
    assert isinstance(app, SkyjoApp)
    assert app.round_heading(ended).plain == words("skyjo.turn_limit_reached")

"""Whole games played by pressing keys, as a person would."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from cardtable.tui.app import TextScreen
from cardtable.tui.skipbo_board import Place, legal_targets
from cardtable.tui.source import Hint

from .helpers import local_app, play_to_end, settle, state_of


def run(test: Callable[[], Awaitable[None]]) -> Callable[[], None]:
    """A plain test function running the coroutine ``test`` (no async plugin needed)."""

    def wrapper() -> None:
        asyncio.run(test())  # type: ignore[arg-type]

    wrapper.__name__ = test.__name__
    return wrapper


@run
async def test_a_whole_skyjo_game_by_keys() -> None:
    # A whole game to 60 points (the option end_score) keeps the test short; it still
    # crosses several rounds, their summaries and the final scores.
    app = local_app("skyjo", {"players": 2, "end_score": 60}, seed=11)
    async with app.run_test(size=(80, 24)) as pilot:
        moves = await play_to_end(pilot, app)
        state = state_of(app)
        assert state.is_over and moves > 10
        assert isinstance(app.screen, TextScreen) and app.screen.kind == "final"
        page = app.screen.body.plain
        assert "Final scores" in page and "You" in page
        assert len(state.rounds()) >= 2  # round summaries were shown and dismissed by keys
        await pilot.press("enter")
        assert "Game over" in app.query_one("#status").render().plain  # type: ignore[attr-defined]
        assert any("Round 1 scored" in line for line in app.log_lines)


@run
async def test_a_short_skipbo_game_by_keys() -> None:
    app = local_app("skipbo", {"players": 2, "stock_size": 5}, seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to_end(pilot, app)
        state = state_of(app)
        assert state.is_over
        assert "Final scores" in app.screen.body.plain  # type: ignore[attr-defined]
        assert any("stock pile shows" in line for line in app.log_lines)


@run
async def test_refused_moves_are_explained() -> None:
    app = local_app("skyjo", {"players": 2}, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("d")  # drawing during the set-up is refused by the engine
        assert app.message.startswith("Refused: ")
        assert len(app.message) > len("Refused: ") + 5
        assert not state_of(app).history


@run
async def test_a_refused_move_is_told_in_the_player_s_language() -> None:
    app = local_app("skyjo", {"players": 2}, seed=3, lang="fr")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("d")  # drawing during the set-up is refused by the engine
        assert app.message == (
            "Refusé : la manche n'a pas commencé : chaque joueur retourne d'abord deux cartes"
        ), app.message
    app = local_app("skipbo", {"players": 2, "stock_size": 5, "first_player": 0}, 2, lang="it")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        hand = app.source.view()["hand"]
        slot = next(i for i, card in enumerate(hand) if card not in (0, 1))
        await pilot.press(str(slot + 1), "a")  # onto an empty building pile
        assert app.message == (
            "Rifiutato: un nuovo mazzo di costruzione inizia con un 1 o una carta Skip-Bo, "
            f"non con un {hand[slot]}"
        ), app.message
        assert not state_of(app).history


@run
async def test_skipbo_selection_highlights_and_refusals() -> None:
    app = local_app("skipbo", {"players": 2, "stock_size": 5, "first_player": 0}, seed=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("a")
        assert "Pick a card first" in app.message
        await pilot.press("s", "q")  # q after the stock: the discard pile becomes the source
        assert app.selected == Place("discard", 0)  # type: ignore[attr-defined]
        await pilot.press("escape")
        assert app.selected is None  # type: ignore[attr-defined]
        view = app.source.view()
        hand = view["hand"]
        slot = next(i for i, card in enumerate(hand) if card not in (0, 1))
        await pilot.press(str(slot + 1))
        assert app.selected == Place("hand", slot)  # type: ignore[attr-defined]
        assert legal_targets(view, Place("hand", slot)) == {
            Place("discard", index) for index in range(4)
        }  # no building pile takes it on empty piles: only the discard piles light up
        await pilot.press("a")
        assert app.message.startswith("Refused: ")
        assert not state_of(app).history


@run
async def test_hint_names_who_suggests() -> None:
    app = local_app("skyjo", {"players": 2}, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("h")
        assert app.message.startswith("Hint (move advisor): ")
        assert "turn up the card at row" in app.message


@run
async def test_a_french_hint_gives_the_advisor_s_reason_in_french() -> None:
    app = local_app("skyjo", {"players": 2}, seed=3, lang="fr")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("h")  # the set-up: every move turns up a card
        assert app.message.startswith("Conseil (conseiller) : ")
        assert app.message.endswith(" : retourne une carte"), app.message
        assert "(points attendus pour la manche : " in app.message and "," in app.message


@run
async def test_a_hint_s_reason_in_german_names_the_players() -> None:
    app = local_app("skipbo", {"players": 3, "stock_size": 5}, seed=2, lang="de")
    given: list[Hint | None] = []
    real = app.source.hint

    async def recording() -> Hint | None:
        hint = await real()
        given.append(hint)
        return hint

    app.source.hint = recording  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("h")
        hint = given[0]
        assert hint is not None and hint.reason_parts
        reason = app.words.reason(hint.reason_parts)
        assert app.message.startswith("Tipp (Zugberater): ")
        assert app.message.endswith(f": {reason}"), app.message
        assert hint.reason not in app.message  # not the English text
        for part in hint.reason_parts:
            assert part["key"].startswith("advice.skipbo.")


@run
async def test_help_screen_lists_the_bindings() -> None:
    app = local_app("skipbo", {"players": 4, "teams": True, "stock_size": 5}, seed=1, lang="de")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, TextScreen) and app.screen.kind == "help"
        page = app.screen.body.plain
        assert "Hilfsstapel" in page and "Ablegestapel" in page and "ctrl+q" in page
        await pilot.press("escape")
        assert not isinstance(app.screen, TextScreen)


@run
async def test_partner_keys_select_the_partner_piles() -> None:
    app = local_app("skipbo", {"players": 4, "teams": True, "stock_size": 5, "first_player": 0}, 4)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("p")
        assert app.selected.partner and app.selected.kind == "stock"  # type: ignore[attr-defined]
        await pilot.press("escape", "W")
        selected = app.selected  # type: ignore[attr-defined]
        assert selected.kind == "discard" and selected.partner and selected.index == 1

"""Whole games played by pressing keys, as a person would."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from cardtable.tui.app import TextScreen

from .helpers import local_app, play_to_end, settle, state_of


def run(test: Callable[[], Awaitable[None]]) -> Callable[[], None]:
    """A plain test function running the coroutine ``test`` (no async plugin needed)."""

    def wrapper() -> None:
        asyncio.run(test())  # type: ignore[arg-type]

    wrapper.__name__ = test.__name__
    return wrapper


@run
async def test_a_whole_skyjo_game_by_keys() -> None:
    app = local_app("skyjo", {"players": 2}, seed=11)
    async with app.run_test(size=(80, 24)) as pilot:
        moves = await play_to_end(pilot, app)
        state = state_of(app)
        assert state.is_over and moves > 10
        assert isinstance(app.screen, TextScreen) and app.screen.kind == "final"
        page = app.screen.body.plain
        assert "Final scores" in page and "You" in page
        assert len(state.rounds()) >= 1
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
async def test_skipbo_selection_highlights_and_refusals() -> None:
    app = local_app("skipbo", {"players": 2, "stock_size": 5, "first_player": 0}, seed=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("a")
        assert "Pick a card first" in app.message
        await pilot.press("s", "q")  # a stock card never goes onto a discard pile
        await pilot.press("escape")
        view = app.source.view()
        top = view["players"][0]["stock_top"]
        await pilot.press("s")
        assert app.selected is not None  # type: ignore[attr-defined]
        pile_value = 1 if top not in (0, 1) else 2  # a pile that cannot take the stock card
        if top != 0:
            await pilot.press("a")
            if top != 1:
                assert app.message.startswith("Refused: ")
                assert not state_of(app).history
        del pile_value


@run
async def test_hint_names_who_suggests() -> None:
    app = local_app("skyjo", {"players": 2}, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("h")
        assert app.message.startswith("Hint (move advisor): ")
        assert "turn up the card at row" in app.message


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

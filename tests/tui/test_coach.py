"""The practice coach at the terminal table (``cardtable play skyjo --host SERVER --coach``):
a deliberately bad move gets the coach's line under the board; ``u`` takes it back once
(a second time is refused, and the line says why), ``k`` keeps it and the bot plays on.

The deal and the coach's random choices are fixed (the server runs in this process), as
in tests/web/test_coach.py: the coach is silent when we take the discard and speaks
when we put it over the lower of our two face-up cards."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from cardtable.games import get_game
from cardtable.server import coach, lobby
from cardtable.skyjo.moves import EXCHANGE, TAKE_DISCARD
from cardtable.tui.app import TableApp, make_app
from cardtable.tui.command import PlayError, check_mode
from cardtable.tui.lobby import LobbyScreen
from cardtable.tui.remote import RemoteGame

from ..coach_deals import JUDGE_SEED, SKYJO, practice_deal
from ..live_server import running_server
from .helpers import keys_for, wait_for
from .test_command import parse

AGAINST_GREEDY = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]


@pytest.fixture(scope="module")
def practice(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """A server whose every game is the practice deal: its URL and the bad move's cell."""
    seed, low = practice_deal()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lobby, "new_seed", lambda: seed)
        patch.setattr(coach, "new_seed", lambda: JUDGE_SEED)
        with running_server(tmp_path_factory.mktemp("tui-coach")) as url:
            yield url, low


def _coach_text(app: TableApp) -> str:
    widget = app.query_one("#coach", Static)
    return str(widget.render()) if widget.display else ""


async def _press_move(pilot: Any, app: TableApp, action: int) -> None:
    await pilot.press(*keys_for(app, get_game("skyjo").decode(action)))


async def _to_the_bad_move(pilot: Any, app: TableApp, source: RemoteGame, low: int) -> None:
    """From the lobby: start (s), turn up two cards, take the discard (the coach is
    silent), put it over the low card: the coach's line comes."""
    await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    await pilot.press("s")
    for pos in (0, 1):
        await wait_for(pilot, lambda: bool(source._view and source.view()["legal_actions"]), "up")
        await _press_move(pilot, app, min(source.view()["legal_actions"]))
        await wait_for(pilot, lambda p=pos: source.view()["grids"][0][p] is not None, "a card up")
    await wait_for(pilot, lambda: TAKE_DISCARD in source.view()["legal_actions"], "our turn")
    await _press_move(pilot, app, TAKE_DISCARD)
    await wait_for(pilot, lambda: EXCHANGE + low in source.view()["legal_actions"], "the card held")
    await _press_move(pilot, app, EXCHANGE + low)
    await wait_for(pilot, lambda: app.coach is not None, "the coach's line")


async def _seated(base: str, tmp_path: Path) -> RemoteGame:
    return await RemoteGame.create(
        base,
        "skyjo",
        SKYJO,
        AGAINST_GREEDY,
        name="Tui",
        table={"coach": True},
        store=tmp_path / "seats.json",
    )


def test_a_bad_move_gets_the_coach_s_line_and_one_take_back(
    practice: tuple[str, int], tmp_path: Path
) -> None:
    base, low = practice

    async def go() -> None:
        source = await _seated(base, tmp_path)
        assert source.coached()
        app = make_app(source, "en")
        async with app.run_test(size=(100, 32)) as pilot:
            await _to_the_bad_move(pilot, app, source, low)
            line = _coach_text(app)
            assert line.startswith("Coach: This move cost you about") and "Better:" in line
            assert "Why:" in line and "u takes the move back, k keeps it" in line, line
            version = source.version
            await pilot.press("u")
            await wait_for(pilot, lambda: app.coach is None, "the take-back")
            # The view before the move: the card held again, the same decision to make.
            await wait_for(pilot, lambda: source.view().get("hand") is not None, "the sync")
            assert source.version is not None and version is not None
            assert source.version > version
            assert app.message == "Move taken back: play it again."
            assert app.log_lines[-1] == "Move taken back: play it again."
            assert _coach_text(app) == ""

            await _press_move(pilot, app, EXCHANGE + low)
            await wait_for(pilot, lambda: app.coach is not None, "the coach's second line")
            assert "You already took back a move here once." in _coach_text(app)
            await pilot.press("u")
            assert app.message == "Refused: You already took back a move here once."
            await pilot.press("k")
            assert app.message == "Refused: You already took back a move here once."
        await source.close()

    asyncio.run(go())


def test_a_kept_move_lets_the_bot_play_on(practice: tuple[str, int], tmp_path: Path) -> None:
    base, low = practice

    async def go() -> None:
        source = await _seated(base, tmp_path)
        app = make_app(source, "fr")
        async with app.run_test(size=(100, 32)) as pilot:
            await _to_the_bad_move(pilot, app, source, low)
            assert _coach_text(app).startswith("Coach : ")  # in the player's language
            version = source.version
            assert version is not None
            await pilot.press("k")
            assert app.message == "Coup gardé : les robots continuent."
            await wait_for(pilot, lambda: (source.version or 0) > version, "the bot's move")
            # The line stays until our next move, its offer gone.
            assert app.coach is not None and not app.coach.open
            await pilot.press("u")
            assert app.message.startswith("Refusé")
        await source.close()

    asyncio.run(go())


def test_the_coach_goes_with_host_only() -> None:
    check_mode(parse("skyjo", "--host", "h:1", "--coach"))
    with pytest.raises(PlayError, match="--coach goes with --host"):
        check_mode(parse("skyjo", "--coach"))
    with pytest.raises(PlayError, match="takes the coach from the room"):
        check_mode(parse("--join", "h:1/K7QW3M", "--coach"))

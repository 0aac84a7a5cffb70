"""The practice coach at the terminal table (``cardtable play skyjo --host SERVER --coach``):
a deliberately bad move gets the coach's line under the board; ``u`` takes it back once
(a second time is refused, and the line says why), ``k`` keeps it and the bot plays on.

The deal and the coach's random choices are fixed (the server runs in this process), as
in tests/web/test_coach.py: the coach is silent when we take the discard and speaks
when we put it over the lower of our two face-up cards."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from cardtable.bots import coaching
from cardtable.games import get_game
from cardtable.server.rooms import coach, seating
from cardtable.skyjo.moves import EXCHANGE, TAKE_DISCARD
from cardtable.skyjo.position import TURN
from cardtable.tui.app import TableApp, make_app
from cardtable.tui.command import PlayError, build_local, check_mode
from cardtable.tui.lobby import LobbyScreen
from cardtable.tui.local_coach import judge_seed
from cardtable.tui.remote import RemoteGame
from cardtable.tui.source import LocalGame

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
        patch.setattr(seating, "new_seed", lambda: seed)
        patch.setattr(coach, "new_seed", lambda: JUDGE_SEED)
        with running_server(tmp_path_factory.mktemp("tui-coach")) as url:
            yield url, low


def _coach_text(app: TableApp) -> str:
    widget = app.query_one("#coach", Static)
    return str(widget.render()) if widget.display else ""


async def _press_move(pilot: Any, app: TableApp, action: int) -> None:
    # The app draws a new view a moment after the source has it, and may move its
    # cursor then: the keys are worked out from the board it shows once it has.
    await pilot.pause()
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


def test_the_coach_is_chosen_for_a_local_game_or_a_hosted_room_not_a_joined_one() -> None:
    check_mode(parse("skyjo", "--host", "h:1", "--coach"))
    check_mode(parse("skyjo", "--coach"))
    assert build_local(parse("skyjo", "--coach")).coached()
    assert not build_local(parse("skyjo")).coached()
    with pytest.raises(PlayError, match="takes the coach from the room"):
        check_mode(parse("--join", "h:1/K7QW3M", "--coach"))


# --- a local game (``cardtable play skyjo --coach``): the same coach, on this machine ---
LOCAL_RULES = {"players": 2}


def _local(seed: int) -> LocalGame:
    engine = get_game("skyjo")
    return LocalGame(engine, engine.rules_from_json(LOCAL_RULES), seed, ["greedy"], pause=0)


def _speaks(state: Any, action: int) -> bool:
    """Whether the local coach calls seat 0's ``action`` in ``state`` clearly worse."""
    measure, verdict = coaching.judge(state, 0, action, judge_seed(state))
    return verdict is not None and coaching.clearly_worse(measure, verdict)


@functools.cache
def local_practice_deal() -> tuple[int, int]:
    """A local deal (greedy bot, as ``LocalGame`` plays it) where the coach is silent on
    our set-up and on taking the discard, and speaks when we put it over one of our two
    face-up cards: the deal's seed and that card's position."""
    for seed in range(1, 300):
        source = _local(seed)
        state = source.state
        silent = True
        while silent and not (state.phase == TURN and state.current_player == 0):
            seat = state.current_player
            if seat == 0:
                action = min(state.legal_actions())
                silent = not _speaks(state, action)
            else:
                action = source.bots[seat].choose(state.clone(), source._rngs[seat])
            state.apply_action(action)
        if not silent or _speaks(state, TAKE_DISCARD):
            continue
        state.apply_action(TAKE_DISCARD)
        for pos in (0, 1):
            if _speaks(state, EXCHANGE + pos):
                return seed, pos
    raise AssertionError("no local practice deal found")


async def _local_bad_move(pilot: Any, app: TableApp, source: LocalGame, low: int) -> int:
    """Our set-up, the discard taken, then the bad move: the coach's line. Returns the
    number of moves made before the bad one."""
    for pos in (0, 1):
        await wait_for(pilot, lambda: bool(source.view()["legal_actions"]), "our set-up")
        await _press_move(pilot, app, min(source.view()["legal_actions"]))
        await wait_for(pilot, lambda p=pos: source.view()["grids"][0][p] is not None, "a card up")
    await wait_for(pilot, lambda: TAKE_DISCARD in source.view()["legal_actions"], "our turn")
    await _press_move(pilot, app, TAKE_DISCARD)
    await wait_for(pilot, lambda: EXCHANGE + low in source.view()["legal_actions"], "held")
    made = len(source.state.history)
    await _press_move(pilot, app, EXCHANGE + low)
    await wait_for(pilot, lambda: app.coach is not None, "the coach's line")
    return made


def test_a_local_game_s_coach_takes_a_move_back_once_and_the_game_replays() -> None:
    seed, low = local_practice_deal()
    engine = get_game("skyjo")
    source = LocalGame(
        engine, engine.rules_from_json(LOCAL_RULES), seed, ["greedy"], pause=0, coach=True
    )
    app = make_app(source, "en")

    async def go() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            made = await _local_bad_move(pilot, app, source, low)
            assert "u takes the move back, k keeps it" in _coach_text(app)
            await pilot.pause(0.2)
            assert len(source.state.history) == made + 1  # the bot waits for our answer
            await pilot.press("u")
            await wait_for(pilot, lambda: app.coach is None, "the take-back")
            assert len(source.state.history) == made and source.view()["hand"] is not None
            assert app.message == "Move taken back: play it again."
            await _press_move(pilot, app, EXCHANGE + low)
            await wait_for(pilot, lambda: app.coach is not None, "the second line")
            assert "You already took back a move here once." in _coach_text(app)
            await pilot.press("u")
            assert app.message == "Refused: You already took back a move here once."
            # The move stands: the bot plays on, and the game is its moves that stand.
            await wait_for(pilot, lambda: len(source.state.history) > made + 1, "the bot")
            replayed = engine.new_state(source.state.rules, seed)
            for action in list(source.state.history):
                replayed.apply_action(action)
            assert replayed.to_json() == source.state.to_json()

    asyncio.run(go())


def test_a_local_game_s_kept_move_lets_the_bot_play_on() -> None:
    seed, low = local_practice_deal()
    engine = get_game("skyjo")
    source = LocalGame(
        engine, engine.rules_from_json(LOCAL_RULES), seed, ["greedy"], pause=0, coach=True
    )
    app = make_app(source, "de")

    async def go() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            made = await _local_bad_move(pilot, app, source, low)
            assert _coach_text(app).startswith("Coach: ")
            await pilot.press("k")
            assert app.message == "Zug behalten: Die Bots spielen weiter."
            await wait_for(pilot, lambda: len(source.state.history) > made + 1, "the bot")
            assert app.coach is not None and not app.coach.open

    asyncio.run(go())

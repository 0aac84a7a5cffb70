"""Driving the terminal client by keys in pilot tests."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from cardtable.bots import make_bot
from cardtable.core import Rng
from cardtable.games import get_game
from cardtable.skipbo.moves import Discard, EndTurn, PlayFromDiscard, PlayFromHand, PlayFromStock
from cardtable.skyjo.moves import DiscardAndReveal, DrawFromDeck, Exchange, Reveal, TakeDiscard
from cardtable.tui.app import TableApp, TextScreen, make_app
from cardtable.tui.source import LocalGame

BUILDING = "abcd"
DISCARDS = "qwer"


def local_app(game: str, options: dict[str, Any], seed: int, lang: str = "en") -> TableApp:
    """An app over a local game with greedy bots and no pause between bot moves."""
    engine = get_game(game)
    rules = engine.rules_from_json(options)
    players: int = getattr(rules, "players", 2)
    source = LocalGame(engine, rules, seed, ["greedy"] * (players - 1), pause=0)
    return make_app(source, lang)


def state_of(app: TableApp) -> Any:
    assert isinstance(app.source, LocalGame)
    return app.source.state


async def settle(pilot: Pilot[None], app: TableApp, limit: int = 20_000) -> None:
    """Wait until a page is shown, it is our turn, or the game is over."""
    for _ in range(limit):
        await pilot.pause()
        if isinstance(app.screen, TextScreen):
            return
        view = app.source.view()
        if view["legal_actions"] or view["result"] is not None:
            return
    raise AssertionError("the game did not come back to us")


def keys_for(app: TableApp, move: Any) -> list[str]:
    """The keys that play ``move`` on ``app``'s board."""
    if isinstance(move, DrawFromDeck):
        return ["d"]
    if isinstance(move, TakeDiscard):
        return ["t"]
    if isinstance(move, Exchange | Reveal | DiscardAndReveal):
        keys = cursor_keys(app, move.pos)
        return [*keys, "x" if isinstance(move, DiscardAndReveal) else "enter"]
    hand: list[int] = app.source.view().get("hand", [])
    if isinstance(move, PlayFromHand):
        return [str(hand.index(move.card) + 1), BUILDING[move.pile]]
    if isinstance(move, PlayFromStock):
        return ["p" if move.partner else "s", BUILDING[move.pile]]
    if isinstance(move, PlayFromDiscard):
        key = DISCARDS[move.discard]
        return [key.upper() if move.partner else key, BUILDING[move.pile]]
    if isinstance(move, Discard):
        key = DISCARDS[move.discard]
        return [str(hand.index(move.card) + 1), key.upper() if move.partner else key]
    if isinstance(move, EndTurn):
        return ["n"]
    raise AssertionError(f"no keys for {move!r}")


def cursor_keys(app: TableApp, pos: int) -> list[str]:
    """The shortest arrow presses (the cursor wraps round) from the cursor to ``pos``."""
    cursor: int = app.cursor.pos  # type: ignore[attr-defined]
    down = (pos // 4 - cursor // 4) % 3
    right = (pos % 4 - cursor % 4) % 4
    rows = ["down"] * down if down <= 1 else ["up"] * (3 - down)
    cols = ["right"] * right if right <= 2 else ["left"] * (4 - right)
    return rows + cols


async def play_to_end(
    pilot: Pilot[None], app: TableApp, max_moves: int = 5_000, bot_name: str = "greedy"
) -> int:
    """Play our seat with a bot's choices (greedy), by keys, until the final page; moves made."""
    state = state_of(app)
    bot = make_bot(state.game.name, bot_name)
    rng = Rng(7)
    moves = 0
    while moves < max_moves:
        await settle(pilot, app)
        if isinstance(app.screen, TextScreen):
            if app.screen.kind == "final":
                return moves
            await pilot.press("enter")
            continue
        move = state.game.decode(bot.choose(state.clone(), rng))
        before = len(state.history)
        await pilot.press(*keys_for(app, move))
        assert len(state.history) > before, (move, app.message)
        moves += 1
    raise AssertionError("the game did not end")


async def wait_for(
    pilot: Pilot[None], condition: Callable[[], bool], what: str, limit: float = 60.0
) -> None:
    """Let the app run until ``condition()`` holds (real time: threads and servers work)."""
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.05)

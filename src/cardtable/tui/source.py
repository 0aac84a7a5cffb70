"""Where a game comes from: the engine on this machine, or a room on a server.

The app never holds game state. It asks a :class:`GameSource` for the current
view of its seat, submits moves to it and is told about every move through
:class:`Update` records carrying the move's public JSON outcome and the new
view. :class:`LocalGame` runs the engine and the bots here.
"""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

from ..bots import Bot, bot_names, make_bot
from ..core import JSON, Game, GameState, IllegalMoveError, Rng, RulesBase

#: Bot levels offered by ``--bots`` and the bot each one means, strongest available first.
LEVELS: dict[str, tuple[str, ...]] = {
    "easy": ("naive", "random"),
    "medium": ("greedy", "random"),
    "hard": ("hard", "greedy", "random"),
    "expert": ("expert", "hard", "greedy", "random"),
}


class MoveRefusedError(Exception):
    """The game refused a move; ``reason`` says why in plain words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclasses.dataclass(frozen=True, slots=True)
class Update:
    """What changed: the outcome of one move (None for the first update) and the view after it."""

    view: JSON
    outcome: JSON | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Hint:
    """A suggested move in its JSON form, and who suggested it (``advisor`` or a bot's name)."""

    move: JSON
    by: str
    note: str = ""


Notify = Callable[[Update], None]


class GameSource(ABC):
    """A game seen from one seat, whatever drives it."""

    game: Game[Any]
    seat: int

    @abstractmethod
    def view(self) -> JSON:
        """The current view of our seat."""

    @abstractmethod
    def seat_labels(self) -> list[str]:
        """A short label per seat: '' for a person, or the bot's name."""

    @abstractmethod
    async def run(self, notify: Notify) -> None:
        """Drive the game until it is over, calling ``notify`` after every move."""

    @abstractmethod
    async def submit(self, move: Any) -> None:
        """Play ``move`` for our seat; raise :class:`MoveRefusedError` if it is illegal."""

    def hint(self) -> Hint | None:
        """A suggested move for our seat, or None when this source cannot give one."""
        return None

    def hold(self, held: bool) -> None:  # noqa: B027 - optional hook
        """Pause (True) or resume (False) the bots while the player reads a summary."""


def resolve_bot(game: str, token: str) -> str:
    """The bot name meant by ``token``: a bot name, or a level (easy, medium, hard, expert)."""
    known = bot_names(game)
    if token in known:
        return token
    level = _levels_module()
    if level is not None:
        mapped = level(game, token)
        if mapped is not None:
            return mapped
    for name in LEVELS.get(token, ()):
        if name in known:
            return name
    choices = ", ".join([*LEVELS, *known])
    raise KeyError(f"unknown bot or level {token!r} for {game}; known: {choices}")


def _levels_module() -> Callable[[str, str], str | None] | None:
    """The bots package's own level mapping, when it has one (``bots.levels.bot_for_level``)."""
    try:
        module = importlib.import_module("cardtable.bots.levels")
    except ModuleNotFoundError:
        return None
    function = getattr(module, "bot_for_level", None)
    if not callable(function):
        return None

    def lookup(game: str, token: str) -> str | None:
        try:
            result = function(game, token)
        except (KeyError, ValueError):
            return None
        return result if isinstance(result, str) else getattr(result, "name", None)

    return lookup


class LocalGame(GameSource):
    """The engine on this machine: our seat plays by submitting moves, bots play the others."""

    def __init__(
        self,
        game: Game[Any],
        rules: RulesBase,
        seed: int,
        bots: Sequence[str],
        *,
        seat: int = 0,
        pause: float = 0.6,
    ) -> None:
        players: int = getattr(rules, "players", 2)
        if len(bots) != players - 1:
            raise ValueError(f"{players} seats need {players - 1} bots, got {len(bots)}")
        self.game = game
        self.seat = seat
        self.pause = pause
        self.state: GameState[Any] = game.new_state(rules, seed)
        others = [s for s in range(players) if s != seat]
        self.bots: dict[int, Bot] = {
            s: make_bot(game.name, n) for s, n in zip(others, bots, strict=True)
        }
        self._rngs = {s: Rng(seed * 1009 + s + 1) for s in others}
        self._labels = ["" if s == seat else self.bots[s].name for s in range(players)]
        self._notify: Notify | None = None
        self._wake = asyncio.Event()
        self._resume = asyncio.Event()
        self._resume.set()

    def view(self) -> JSON:
        return self.state.view(self.seat)

    def seat_labels(self) -> list[str]:
        return list(self._labels)

    async def run(self, notify: Notify) -> None:
        self._notify = notify
        notify(Update(self.view()))
        state = self.state
        while not state.is_over:
            seat = state.current_player
            if seat is None or seat == self.seat:
                self._wake.clear()
                await self._wake.wait()
                continue
            await self._resume.wait()
            await asyncio.sleep(self.pause)
            await self._resume.wait()
            action = self.bots[seat].choose(state.clone(), self._rngs[seat])
            outcome = state.apply_action(action)
            notify(Update(self.view(), outcome.to_json()))

    async def submit(self, move: Any) -> None:
        if self.state.current_player != self.seat:
            raise MoveRefusedError("it is not your turn")
        try:
            outcome = self.state.apply(move)
        except IllegalMoveError as error:
            raise MoveRefusedError(error.reason) from error
        if self._notify is not None:
            self._notify(Update(self.view(), outcome.to_json()))
        self._wake.set()

    def hold(self, held: bool) -> None:
        if held:
            self._resume.clear()
        else:
            self._resume.set()

    def hint(self) -> Hint | None:
        state = self.state
        if state.current_player != self.seat:
            return None
        advisor = _advisor()
        if advisor is not None:
            advice = advisor(state, self.seat, 0.5)
            move = _advised_move(self.game, advice)
            if move is not None:
                return Hint(_move_json(move), "advisor")
        bot = make_bot(self.game.name, "greedy") if "greedy" in bot_names(self.game.name) else None
        if bot is None:
            return None
        action = bot.choose(state.clone(), Rng(len(state.history)))
        return Hint(_move_json(self.game.decode(action)), "greedy")


def _move_json(move: Any) -> JSON:
    data: JSON = move.to_json()
    return data


def _advisor() -> Callable[..., Any] | None:
    try:
        module = importlib.import_module("cardtable.bots.advisor")
    except ModuleNotFoundError:
        return None
    function = getattr(module, "advise", None)
    return function if callable(function) else None


def _advised_move(game: Game[Any], advice: Any) -> Any:
    """The move an advisor's answer recommends, whatever shape the answer has."""
    if isinstance(advice, (list, tuple)):
        advice = advice[0] if advice else None
    for attr in ("move", "action", "best"):
        if advice is not None and not isinstance(advice, int) and hasattr(advice, attr):
            advice = getattr(advice, attr)
    if isinstance(advice, int) and not isinstance(advice, bool):
        return game.decode(advice)
    return advice if advice is not None and hasattr(advice, "to_json") else None

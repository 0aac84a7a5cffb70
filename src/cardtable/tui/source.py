"""Where a game comes from: the engine on this machine, or a room on a server.

The app never holds game state. It asks a :class:`GameSource` for the current
view of its seat, submits moves to it and is told about every move through
:class:`Update` records carrying the move's public JSON outcome and the new
view. :class:`LocalGame` runs the engine and the bots here.
"""

from __future__ import annotations

import asyncio
import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from ..bots import Bot, make_bot
from ..bots.advisor import advise
from ..bots.montecarlo import Budget
from ..bots.review import TABLE_DECISIONS, review_message, table_review_seed
from ..core import JSON, Game, GameState, IllegalMoveError, Refusal, Rng, RulesBase
from ..sim.judge import review_game
from .local_coach import LocalCoach


class MoveRefusedError(Exception):
    """The game refused a move; ``reason`` says why in plain English. When the engine
    refused it, ``refusal`` says the same as a catalog key and parameters and ``move`` is
    the refused move (its JSON form), so that the app words it in the player's language.
    Otherwise ``code`` names the refusal (the server's error code, or this client's own:
    ``not_connected``, ``waiting``, ``dropped``, ``no_answer``), worded from the catalog
    key ``error.{code}``."""

    def __init__(
        self,
        reason: str,
        refusal: Refusal | None = None,
        move: JSON | None = None,
        code: str | None = None,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.refusal = refusal
        self.move = move
        self.code = code


class RefusedError(Exception):
    """A review, a rematch or a lobby request could not be had: ``code`` as the server's
    error codes (``review_busy``, ``not_finished``, ``not_host``, ``bad_options``...),
    ``reason`` in plain English; a refused rules option also names the option
    (``field``) and its allowed values (``allowed``, the engine's words; ``allowed_key``
    and ``allowed_params`` the same for translation, when the server sent them)."""

    def __init__(
        self,
        code: str,
        reason: str,
        field: str | None = None,
        allowed: str | None = None,
        allowed_key: str | None = None,
        allowed_params: JSON | None = None,
    ) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.field = field
        self.allowed = allowed
        self.allowed_key = allowed_key
        self.allowed_params: JSON = dict(allowed_params or {})


@dataclasses.dataclass(frozen=True, slots=True)
class Update:
    """What changed: the outcome of one move (None for the first update) and the view after it.

    An online room also says when it went back to its lobby for a rematch (``lobby``,
    with the finished game's view), when a new game of the room was dealt (``new_game``,
    with the new game's first view), and when its lobby changed (``room``: a player
    joined, the options changed; the view is the last game's, ``{}`` before the first).
    ``talk`` is table talk for the log, nothing else changed: a chat line, a quick
    reaction or a ``turn_timeout`` notice, as the server sent it. ``coach`` is the
    practice coach's word on our last move (a ``coach`` message of docs/protocol.md) or
    the notice that a move was taken back (``took_back``); the view is unchanged.
    """

    view: JSON
    outcome: JSON | None = None
    new_game: bool = False
    lobby: bool = False
    room: bool = False
    talk: JSON | None = None
    coach: JSON | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Hint:
    """A suggested move in its JSON form, who suggested it, its estimate and reason:
    ``reason`` in English, ``reason_parts`` as catalog keys and parameters (the
    advisor's ``reason_parts`` JSON form) to word it in the player's language.

    The advisor's ``value`` is a win probability in Skip-Bo and the expected own
    round points in Skyjo.
    """

    move: JSON
    by: str
    value: float | None = None
    reason: str = ""
    reason_parts: tuple[JSON, ...] = ()


Notify = Callable[[Update], None]
#: ``progress(done, total)``: called by a review after each decision it looked at.
Progress = Callable[[int, int], None]


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

    async def hint(self) -> Hint | None:
        """A suggested move for our seat, or None when this source cannot give one."""
        return None

    def hold(self, held: bool) -> None:  # noqa: B027 - optional hook
        """Pause (True) or resume (False) the bots while the player reads a summary."""

    # --- post-game review ---------------------------------------------------------------
    #: True when :meth:`review_here` works the review out on this machine; False when
    #: :meth:`review` asks the table for it.
    reviews_here: ClassVar[bool] = False

    def review_here(self, progress: Progress | None = None) -> JSON:
        """Work out the post-game review of our seat here (blocking: call it in a thread).

        The answer has the form of the server's ``review`` message. Raises
        :class:`RefusedError`.
        """
        raise RefusedError("no_review", "this game cannot be reviewed here")

    async def review(self) -> JSON:
        """Ask for the post-game review of our seat; raises :class:`RefusedError`."""
        raise RefusedError("no_review", "this game cannot be reviewed")

    # --- rematch ------------------------------------------------------------------------
    def rematch_role(self) -> str | None:
        """``"host"`` (may start a rematch), ``"guest"`` (follows the host's), or None."""
        return None

    async def rematch(self) -> None:
        """Start a rematch (the host of an online room); raises :class:`RefusedError`."""
        raise RefusedError("no_rematch", "a rematch is for online tables")

    # --- the practice coach -------------------------------------------------------------
    def coached(self) -> bool:
        """Whether the practice coach watches our moves (docs/protocol.md)."""
        return False

    async def take_back(self, version: int) -> None:
        """Take back our last move, which the coach's line at ``version`` spoke of; raises
        :class:`RefusedError` (``no_coach``, ``no_take_back``, ``stale_version``...)."""
        raise RefusedError("no_coach", "take-backs are for practice games with the coach on")

    async def keep_move(self, version: int) -> None:
        """Keep the move the coach's line at ``version`` spoke of: the bots play on."""
        raise RefusedError("no_coach", "take-backs are for practice games with the coach on")

    # --- the lobby of an online room ------------------------------------------------------
    def lobby(self) -> JSON | None:
        """The room summary while the room waits in its lobby (docs/protocol.md), else None."""
        return None

    def link(self) -> str | None:
        """The room's link for friends to join (online rooms only)."""
        return None

    def signed_in(self) -> tuple[str, list[JSON]] | None:
        """The account signed in at an online table (``--user``) and its ratings on the
        game's ladders; None for a guest or a local game."""
        return None

    async def configure(self, options: JSON | None = None, seats: list[JSON] | None = None) -> None:
        """Change rules options and/or the seats in the lobby (the host); raises
        :class:`RefusedError`."""
        raise RefusedError("no_lobby", "options are chosen in the lobby of an online table")

    async def start_game(self) -> None:
        """Start the room's game from its lobby (the host); raises :class:`RefusedError`."""
        raise RefusedError("no_lobby", "a local game starts at once")


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
        hint_budget_ms: float = 500.0,
        coach: bool = False,
    ) -> None:
        players: int = getattr(rules, "players", 2)
        if len(bots) != players - 1:
            raise ValueError(f"{players} seats need {players - 1} bots, got {len(bots)}")
        self.game = game
        self.seat = seat
        self.pause = pause
        self.hint_budget_ms = hint_budget_ms
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
        #: The practice coach (``coach``): judges our moves, offers one take-back.
        self.coach = LocalCoach(seat, lambda: self.state, self._coach_says) if coach else None

    def view(self) -> JSON:
        return self.state.view(self.seat)

    def seat_labels(self) -> list[str]:
        return list(self._labels)

    async def run(self, notify: Notify) -> None:
        self._notify = notify
        notify(Update(self.view()))
        while not self.state.is_over:
            state = self.state
            seat = state.current_player
            if seat is None or seat == self.seat:
                self._wake.clear()
                await self._wake.wait()
                continue
            await self._resume.wait()
            await asyncio.sleep(self.pause)
            await self._resume.wait()
            if self.coach is not None:
                await self.coach.ready()
                if self.state is not state:
                    continue  # our move was taken back: our turn again
            # Search bots think for a while: off the event loop, so the screen stays alive.
            action = await asyncio.to_thread(
                self.bots[seat].choose, state.clone(), self._rngs[seat]
            )
            outcome = state.apply_action(action)
            notify(Update(self.view(), outcome.to_json()))

    async def submit(self, move: Any) -> None:
        if self.state.current_player != self.seat:
            raise MoveRefusedError("it is not your turn", code="not_your_turn")
        before = self.state.clone() if self.coach is not None else None
        try:
            outcome = self.state.apply(move)
        except IllegalMoveError as error:
            raise MoveRefusedError(error.reason, error.refusal, move.to_json()) from error
        if self._notify is not None:
            self._notify(Update(self.view(), outcome.to_json()))
        if self.coach is not None and before is not None:
            self.coach.after_move(before, outcome.action, outcome.events)
        self._wake.set()

    # The practice coach: the same line and answers as an online room's.
    def coached(self) -> bool:
        return self.coach is not None

    def _coach_says(self, message: JSON) -> None:
        if self._notify is not None:
            self._notify(Update(self.view(), coach=message))

    async def take_back(self, version: int) -> None:
        if self.coach is None:
            await super().take_back(version)  # refused: no coach here
            return
        before = self.coach.take_back(version)
        if before is None:
            raise RefusedError("no_take_back", "the coach offers no move of yours to take back")
        self.state = before
        if self._notify is not None:
            notice = {"type": "took_back", "seat": self.seat, "index": len(before.history)}
            self._notify(Update(self.view(), coach=notice))
            self._notify(Update(self.view()))
        self._wake.set()

    async def keep_move(self, version: int) -> None:
        if self.coach is None:
            await super().keep_move(version)
        elif not self.coach.keep(version):
            raise RefusedError("no_take_back", "the coach offers no move of yours to take back")

    reviews_here = True

    def review_here(self, progress: Progress | None = None) -> JSON:
        """The review of our seat by the precise judge (:mod:`cardtable.sim.judge`) over
        a table's decisions (``TABLE_DECISIONS``): the same review as a server would give
        for the same game."""
        state = self.state
        if not state.is_over:
            raise RefusedError("not_finished", "a review is offered once the game is over")
        review = review_game(
            self.game,
            state.rules,
            state.seed,
            state.history[:],
            self.seat,
            max_decisions=TABLE_DECISIONS,
            rng=Rng(table_review_seed(state.seed, self.seat)),
            progress=progress,
        )
        return review_message(self.game, review)

    def hold(self, held: bool) -> None:
        if held:
            self._resume.clear()
        else:
            self._resume.set()

    async def hint(self) -> Hint | None:
        """The move advisor's first choice, with its estimate and reason."""
        state = self.state
        if state.current_player != self.seat or state.is_over:
            return None
        budget = Budget(milliseconds=self.hint_budget_ms, minimum=2)
        # The advisor plays moves on the state it is given: hand it a re-deal of what our
        # seat cannot see, so that no hidden card can shape the hint.
        world = state.determinize(self.seat, Rng(len(state.history) * 7919 + 17))
        advice = await asyncio.to_thread(advise, world, self.seat, budget)
        if not advice:
            return None
        best = advice[0]
        move: JSON = self.game.decode(best.action).to_json()
        parts = tuple(part.to_json() for part in best.reason_parts)
        return Hint(move, "advisor", best.value, best.reason, parts)

"""The practice coach of a game played on this machine (``cardtable play GAME --coach``).

The same coach as an online room's (:mod:`cardtable.bots.coaching`: the verdict of the
post-game review on a re-deal of what the player could not see, the same threshold, the
same moves that may not be taken back), with the same ``coach`` line, so the table draws
it alike. After each of the player's moves with a real choice it judges the move in a
worker thread; the bots wait while it judges and while a take-back is on offer. A
take-back puts the engine's state back to a copy taken just before the move, so the
game's moves stay the moves that stand and it replays from its rules and seed.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from ..bots.coaching import (
    OVER,
    PLAYED_ON,
    REVEALED,
    USED,
    clearly_worse,
    reveals_hidden,
    verdict_fields,
)
from ..bots.review import has_choice
from ..core import JSON, Event, GameState
from ..sim.judge import coach_judge as judge

_MASK = (1 << 63) - 1


def judge_seed(before: GameState[Any]) -> int:
    """The seed of the coach's re-deals for the move made from ``before``: fixed by the
    deal and the move's place, so a game replayed gets the same lines."""
    return (before.seed * 1_000_003 + len(before.history) * 7_919 + 1) & _MASK


@dataclasses.dataclass
class _Offer:
    """A move the coach spoke of that may still be taken back."""

    index: int
    before: GameState[Any]


class LocalCoach:
    """The coach of one local game: its verdicts, its offer of a take-back, the take-backs.

    ``state()`` is the game's state as it stands; ``say(message)`` sends the table a
    ``coach`` line."""

    def __init__(
        self, seat: int, state: Callable[[], GameState[Any]], say: Callable[[JSON], None]
    ) -> None:
        self.seat = seat
        self.state = state
        self.say = say
        #: The index of the move being judged (the bots wait meanwhile).
        self.judging: int | None = None
        self.offer: _Offer | None = None
        #: The index of each decision taken back once already.
        self.used: set[int] = set()
        #: Set whenever the bots may have to stop waiting.
        self.changed = asyncio.Event()
        #: The verdicts being worked out (held here: the event loop keeps only weak ones).
        self.tasks: set[asyncio.Task[None]] = set()

    def holds_bots(self) -> bool:
        return self.judging is not None or self.offer is not None

    async def ready(self) -> None:
        """Wait until the bots may play: nothing judged, no take-back on offer."""
        while self.holds_bots():
            self.changed.clear()
            await self.changed.wait()

    def after_move(self, before: GameState[Any], action: int, events: Sequence[Event]) -> None:
        """Our move was made from ``before`` (a copy): judge it if it was a real choice.
        A new move ends the offer on the last one."""
        self.offer = None
        if not has_choice(before, self.seat):
            self.changed.set()
            return
        index = len(before.history)
        self.judging = index
        seed = judge_seed(before)
        shown = reveals_hidden(before.game.name, events, self.seat)
        task = asyncio.create_task(self._judge(before, action, index, seed, shown))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _judge(
        self, before: GameState[Any], action: int, index: int, seed: int, shown: bool
    ) -> None:
        try:
            measure, verdict = await asyncio.to_thread(judge, before, self.seat, action, seed)
        except Exception:  # the coach is a help: without a verdict the game goes on
            measure, verdict = "", None
        if self.judging == index:
            self.judging = None
        self.changed.set()
        state = self.state()
        # Of our last move only: a verdict on a move played on from is dropped.
        if verdict is None or self.judging is not None or not clearly_worse(measure, verdict):
            return
        why = REVEALED if shown else USED if index in self.used else None
        if why is None and state.is_over:
            why = OVER
        elif why is None and len(state.history) != index + 1:
            why = PLAYED_ON
        if why is None:
            self.offer = _Offer(index, before)
        message = verdict_fields(state.game, measure, verdict, why)
        self.say({"version": index + 1, "game_no": 1, "index": index, **message})

    def _checked(self, version: int) -> _Offer | None:
        offer = self.offer
        return offer if offer is not None and version == offer.index + 1 else None

    def take_back(self, version: int) -> GameState[Any] | None:
        """The state to go back to, or None when the coach offers no take-back of the
        move at ``version`` (the line's: the number of moves made after it)."""
        offer = self._checked(version)
        if offer is None:
            return None
        self.offer = None
        self.used.add(offer.index)
        self.changed.set()
        return offer.before

    def keep(self, version: int) -> bool:
        """Keep the move at ``version``: the bots play on. False when nothing was on offer."""
        if self._checked(version) is None:
            return False
        self.offer = None
        self.changed.set()
        return True

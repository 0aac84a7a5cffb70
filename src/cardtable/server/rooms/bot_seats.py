"""Bots that play seats on the server, and the move advisor, off the event loop.

Bot moves, hints and reviews run in worker processes (:mod:`cardtable.server.ops.workers`):
a thinking bot never holds the GIL of the process serving the rooms. Bot moves and hints
share one pool, sized to the cores by default; reviews, which take seconds, have a pool of
their own, so a bot's move never waits behind one. ``bot_processes=0`` runs the same jobs in
threads of the server process instead (tests, a machine with one core).

A bot's move that fails because its worker died or ran past ``bot_timeout`` is
retried once on a fresh worker; if that fails too, or if the bot itself raised or
chose an illegal move, a simpler bot (:data:`STAND_IN_BOT`) plays that one move and
the room tells its players (a ``notice``, see docs/protocol.md). A table never stalls
on a bot. Bots decide from what their seat may see (see :mod:`cardtable.bots.base`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ...bots import Bot, bot_names, make_bot
from ...bots.advisor import Advice, advise
from ...bots.montecarlo import Budget
from ...bots.review import Review, ReviewedMove
from ...core import Game, GameState, Rng, RulesBase
from ...games import get_game
from ...sim.judge import judge_position
from ...sim.judge import review_game as judged_review
from ..ops.workers import WorkerLostError, WorkerPool, WorkerTimeoutError

log = logging.getLogger("cardtable.server")

_MASK = (1 << 63) - 1

#: What the advisor's ``value`` measures in each game (see :mod:`cardtable.bots.advisor`).
ADVICE_MEASURE = {"skipbo": "win_chance", "skyjo": "round_points"}
#: The bot that plays a move its seat's own bot could not (cheap: no search).
STAND_IN_BOT = "greedy"


def known_bot(game: str, name: str) -> bool:
    return name in bot_names(game)


def bot_rng(seed: int, moves_played: int) -> Rng:
    """A generator fixed by the game and the move number, so restarts change nothing."""
    return Rng((seed * 1_000_003 + moves_played * 7_919 + 1) & _MASK)


def _choose(bot: Bot, state: GameState[Any], rng: Rng) -> int:
    action = bot.choose(state, rng)
    if not state.is_legal_action(action):
        raise ValueError(f"bot {bot.name!r} chose illegal action {action}")
    return action


# --- the jobs (module-level, so a worker process can unpickle them) -------------------
def choose_job(game: str, name: str, state: GameState[Any], seed: int) -> int:
    """Bot ``name``'s move for the seat to move in ``state`` (a private copy)."""
    return _choose(make_bot(game, name), state, bot_rng(seed, len(state.history)))


def advise_job(state: GameState[Any], seat: int, milliseconds: float, seed: int) -> list[Advice]:
    return advise(state, seat, Budget(milliseconds=milliseconds, minimum=2), seed)


def judge_job(state: GameState[Any], seat: int, action: int, seed: int) -> ReviewedMove | None:
    """The coach's verdict on one move: the precise judge of :mod:`cardtable.sim.judge`
    (compiled rollouts on common re-deals, its own budget; the advisor's judge where
    numba is missing)."""
    return judge_position(state, seat, action, seed)


def review_job(
    game: str,
    rules: RulesBase,
    seed: int,
    actions: list[int],
    seat: int,
    max_decisions: int,
    rng_seed: int,
) -> Review:
    """The post-game review by the precise judge (its own budget, docs/bots.md)."""
    return judged_review(
        get_game(game), rules, seed, actions, seat, max_decisions=max_decisions, rng=Rng(rng_seed)
    )


@dataclasses.dataclass(frozen=True)
class BotChoice:
    action: int
    #: The simpler bot that played this move because the seat's bot could not.
    stand_in: str | None = None


class _Threads:
    """The thread form of a worker pool (``bot_processes=0``): same calls, no processes."""

    def __init__(self, size: int, name: str) -> None:
        self.executor = ThreadPoolExecutor(max_workers=max(1, size), thread_name_prefix=name)
        self.waiting = 0
        self.replaced = 0

    async def run(self, function: Callable[..., Any], *args: Any, timeout: float) -> Any:
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self.executor, function, *args)
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            # A thread cannot be stopped: it runs on, its answer is dropped.
            raise WorkerTimeoutError(f"the job ran past {timeout:g} s") from None

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


class BotPool:
    """The workers shared by every bot seat and hint of a server, and those of reviews."""

    def __init__(
        self,
        processes: int | None,
        review_workers: int = 1,
        *,
        threads: int = 2,
        move_timeout: float = 20.0,
        review_timeout: float = 600.0,
    ) -> None:
        """``processes``: worker processes for bots and hints (None: one per core;
        0: ``threads`` threads of this process, and reviews in threads too)."""
        count = (os.cpu_count() or 1) if processes is None else processes
        self.in_processes = count > 0
        self.move_timeout = move_timeout
        self.review_timeout = review_timeout
        self.workers: WorkerPool | _Threads
        self.reviewers: WorkerPool | _Threads
        if self.in_processes:
            self.workers = WorkerPool(count, "bot")
            self.reviewers = WorkerPool(max(1, review_workers), "review")
        else:
            self.workers = _Threads(threads, "bot")
            self.reviewers = _Threads(review_workers, "review")
        #: Moves played by the stand-in bot since the start.
        self.stand_ins = 0

    def start(self) -> None:
        for pool in (self.workers, self.reviewers):
            if isinstance(pool, WorkerPool):
                pool.start()

    async def choose(self, game: str, name: str, state: GameState[Any], seed: int) -> BotChoice:
        """The move of bot ``name`` for the seat to move in ``state`` (a private copy), or
        of the stand-in bot when ``name``'s worker died or stalled twice, or it failed."""
        for attempt in (1, 2):
            try:
                action = await self.workers.run(
                    choose_job, game, name, state, seed, timeout=self.move_timeout
                )
            except (WorkerLostError, WorkerTimeoutError) as error:
                log.warning("bot %s, attempt %d: %s", name, attempt, error)
                continue
            except Exception:
                log.exception("bot %s failed", name)
                break
            return BotChoice(action)
        self.stand_ins += 1
        try:
            # The stand-in plays without search: a thread of this process is enough,
            # and it works even when no worker can start.
            action = await asyncio.to_thread(
                _choose, make_bot(game, STAND_IN_BOT), state, bot_rng(seed, len(state.history))
            )
        except Exception:
            log.exception("the stand-in bot failed; playing the first legal move")
            action = state.legal_actions()[0]
        return BotChoice(action, STAND_IN_BOT)

    async def advise(
        self, state: GameState[Any], seat: int, milliseconds: float, seed: int
    ) -> list[Advice]:
        """The move advisor's ranked moves for ``seat`` (who must be to move) in ``state``.

        ``state`` must already be a determinization for ``seat`` (see
        :meth:`~cardtable.server.rooms.advice.Advisor.hint`): the advisor also plays moves on
        the state it is given, so it must never be the real one.
        """
        advice: list[Advice] = await self.workers.run(
            advise_job, state, seat, milliseconds, seed, timeout=self.move_timeout
        )
        return advice

    async def judge(
        self,
        state: GameState[Any],
        seat: int,
        action: int,
        seed: int,
    ) -> ReviewedMove | None:
        """The review's verdict on ``seat`` playing ``action`` in ``state`` (see
        :func:`cardtable.sim.judge.judge_position`), for the practice coach, in a bot
        worker. ``state`` must be a determinization for ``seat``, as for :meth:`advise`."""
        verdict: ReviewedMove | None = await self.workers.run(
            judge_job, state, seat, action, seed, timeout=self.move_timeout
        )
        return verdict

    async def review(
        self,
        game: Game[Any],
        rules: RulesBase,
        seed: int,
        actions: list[int],
        seat: int,
        *,
        max_decisions: int,
        rng_seed: int,
    ) -> Review:
        """The post-game review of ``seat`` (see :mod:`cardtable.bots.review`) in a review
        worker. The review replays the game itself and shows the advisor only re-deals of
        what ``seat`` could see at each of its decisions."""
        review: Review = await self.reviewers.run(
            review_job,
            game.name,
            rules,
            seed,
            actions,
            seat,
            max_decisions,
            rng_seed,
            timeout=self.review_timeout,
        )
        return review

    def shutdown(self) -> None:
        self.workers.close()
        self.reviewers.close()

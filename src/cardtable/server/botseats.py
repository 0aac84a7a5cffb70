"""Bots that play seats on the server, off the event loop.

Choosing runs in a shared thread pool, on a clone of the state, so a slow bot never
blocks other rooms or the connections of its own room. Bots decide from what their
seat may see (see :mod:`cardtable.bots.base`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..bots import Bot, bot_names, make_bot
from ..bots.advisor import Advice, advise
from ..bots.montecarlo import Budget
from ..bots.review import Review, review_game
from ..core import Game, GameState, Rng, RulesBase

log = logging.getLogger("cardtable.server")

_MASK = (1 << 63) - 1

#: What the advisor's ``value`` measures in each game (see :mod:`cardtable.bots.advisor`).
ADVICE_MEASURE = {"skipbo": "win_chance", "skyjo": "round_points"}


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


class BotPool:
    """The worker threads shared by every bot seat of a server, and those of reviews.

    Reviews take seconds, so they have threads of their own: a bot's move never
    waits behind one.
    """

    def __init__(self, workers: int, review_workers: int = 1) -> None:
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bot")
        self.reviewer = ThreadPoolExecutor(
            max_workers=max(1, review_workers), thread_name_prefix="review"
        )

    async def choose(self, game: str, name: str, state: GameState[Any], seed: int) -> int:
        """The action bot ``name`` picks for the seat to move in ``state`` (a private copy).

        A bot that fails or picks an illegal action is replaced by the first legal move,
        so a broken bot cannot stall a table.
        """
        loop = asyncio.get_running_loop()
        bot = make_bot(game, name)
        rng = bot_rng(seed, len(state.history))
        try:
            return await loop.run_in_executor(self.executor, _choose, bot, state, rng)
        except Exception:
            log.exception("bot %s failed; playing the first legal move", name)
            return state.legal_actions()[0]

    async def advise(
        self, state: GameState[Any], seat: int, milliseconds: float, seed: int
    ) -> list[Advice]:
        """The move advisor's ranked moves for ``seat`` (who must be to move) in ``state``.

        ``state`` must already be a determinization for ``seat`` (see :meth:`Room.hint`):
        the advisor also plays moves on the state it is given, so it must never be the
        real one.
        """
        loop = asyncio.get_running_loop()
        budget = Budget(milliseconds=milliseconds, minimum=2)
        return await loop.run_in_executor(self.executor, advise, state, seat, budget, seed)

    async def review(
        self,
        game: Game[Any],
        rules: RulesBase,
        seed: int,
        actions: list[int],
        seat: int,
        *,
        iterations: int,
        confirm: int,
        max_decisions: int,
        rng_seed: int,
    ) -> Review:
        """The post-game review of ``seat`` (see :mod:`cardtable.bots.review`), in a thread.

        The review replays the game itself and shows the advisor only re-deals of what
        ``seat`` could see at each of its decisions.
        """
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self.reviewer,
            functools.partial(
                review_game,
                game,
                rules,
                seed,
                actions,
                seat,
                iterations=iterations,
                confirm=confirm,
                max_decisions=max_decisions,
                rng=Rng(rng_seed),
            ),
        )

    def shutdown(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.reviewer.shutdown(wait=False, cancel_futures=True)

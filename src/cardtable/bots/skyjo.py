"""The Skyjo bots by name (``BOTS``, which :func:`cardtable.bots.make_bot` reads):
``greedy`` (:mod:`.skyjo_greedy`), ``naive`` and ``hard`` (:mod:`.skyjo_hard`), ``learned``
(:mod:`.learned`) and
``expert`` (:mod:`.skyjo_expert`); ``random`` is generic."""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot
from .learned import LearnedBot
from .skyjo_expert import SkyjoExpert
from .skyjo_greedy import GreedyBot
from .skyjo_hard import HardBot, NaiveBot

# GreedyBot is known by this module's name too (the lab, the batch engine's docs).
__all__ = ["BOTS", "GreedyBot"]

BOTS: dict[str, Callable[[], Bot]] = {
    "greedy": GreedyBot,
    "naive": NaiveBot,
    "hard": HardBot,
    "learned": lambda: LearnedBot("skyjo", HardBot),
    "expert": SkyjoExpert,
}

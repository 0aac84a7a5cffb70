"""Bots by game and name: ``make_bot("skipbo", "greedy")``."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from .base import Bot, RandomBot

# Game-specific bots live in ``cardtable.bots.<game>`` modules that expose ``BOTS``,
# a mapping from name to a zero-argument factory.
_GAME_BOT_MODULES = {"skipbo": "cardtable.bots.skipbo", "skyjo": "cardtable.bots.skyjo"}


def _factories(game: str) -> dict[str, Callable[[], Bot]]:
    factories: dict[str, Callable[[], Bot]] = {"random": RandomBot}
    module_name = _GAME_BOT_MODULES.get(game)
    if module_name is None:
        raise KeyError(f"unknown game {game!r}; known: {', '.join(_GAME_BOT_MODULES)}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise
    else:
        factories.update(module.BOTS)
    return factories


def bot_names(game: str) -> list[str]:
    return sorted(_factories(game))


def make_bot(game: str, name: str) -> Bot:
    factories = _factories(game)
    if name not in factories:
        raise KeyError(f"unknown bot {name!r} for {game}; known: {', '.join(sorted(factories))}")
    return factories[name]()

"""Bots by game and name: ``make_bot("skipbo", "greedy")``.

A search bot's budget can be named with the bot, ``expert@16`` (16 iterations per
decision), for tournaments at several strengths; the web table and the terminal
client offer plain names only.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from .base import Bot, RandomBot

# Game-specific bots live in ``cardtable.bots.<game>`` modules that expose ``BOTS``,
# a mapping from name to a zero-argument factory.
_GAME_BOT_MODULES = {"skipbo": "cardtable.bots.skipbo", "skyjo": "cardtable.bots.skyjo"}
# Bots whose search budget can be given as ``name@iterations``.
_BUDGETED = frozenset({"expert"})
MAX_ITERATIONS = 100_000


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


def _shown(name: str) -> str:
    return repr(name) if len(name) <= 40 else repr(name[:40] + "...")


def parse_bot_name(game: str, name: str) -> tuple[str, int | None]:
    """``("expert", 16)`` for ``"expert@16"``, ``("hard", None)`` for ``"hard"``.

    Raises KeyError naming what is wrong: an unknown bot, a budget on a bot that
    takes none, or a budget that is not a whole number from 1 to ``MAX_ITERATIONS``.
    """
    factories = _factories(game)
    base, at, budget = name.partition("@")
    if base not in factories:
        raise KeyError(
            f"unknown bot {_shown(base)} for {game}; known: {', '.join(sorted(factories))}"
        )
    if not at:
        return base, None
    if base not in _BUDGETED:
        raise KeyError(f"bot {base!r} takes no budget; only {', '.join(sorted(_BUDGETED))} do")
    # ASCII digits only: str.isdigit() also accepts "²", which int() refuses, and a
    # number longer than MAX_ITERATIONS's digits is out of range without converting it.
    digits = budget.isascii() and budget.isdigit() and len(budget) <= len(str(MAX_ITERATIONS))
    if not digits or not 1 <= int(budget) <= MAX_ITERATIONS:
        raise KeyError(
            f"the budget in {_shown(name)} must be a whole number of iterations "
            f"from 1 to {MAX_ITERATIONS}"
        )
    return base, int(budget)


def make_bot(game: str, name: str) -> Bot:
    base, iterations = parse_bot_name(game, name)
    if iterations is None:
        return _factories(game)[base]()
    from .expert import make_expert

    return make_expert(game, iterations)

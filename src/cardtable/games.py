"""The registry of games by name, imported lazily so each engine loads only when used."""

from __future__ import annotations

import importlib
from typing import Any

from .core import Game

GAME_MODULES = {"skipbo": "cardtable.skipbo", "skyjo": "cardtable.skyjo"}


def get_game(name: str) -> Game[Any]:
    """The :class:`Game` called ``name`` (``skipbo`` or ``skyjo``)."""
    module_name = GAME_MODULES.get(name)
    if module_name is None:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(GAME_MODULES)}")
    game: Game[Any] = importlib.import_module(module_name).GAME
    return game


def game_names() -> list[str]:
    return list(GAME_MODULES)

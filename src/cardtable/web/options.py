"""What the home page needs to offer a game: its rules options and its bots.

The options are read from each game's rules dataclass (names, types, defaults), with
the ranges the rules validate; the server still validates whatever the page sends.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from typing import Any

from ..bots import bot_names
from ..core import JSON
from ..games import game_names, get_game
from ..skipbo.rules import MAX_STOCK, MIN_STOCK, max_stock

#: Bots from weakest to strongest; any other registered bot comes after them.
BOT_LEVELS = ("random", "naive", "greedy", "hard", "expert")
DEFAULT_BOT = "greedy"

#: Ranges the rules validate (see docs/rules/*.md); the server has the last word.
RANGES: dict[str, dict[str, tuple[int, int]]] = {
    "skyjo": {"players": (2, 8), "end_score": (1, 1000)},
    "skipbo": {
        "players": (2, 6),
        "stock_size": (MIN_STOCK, MAX_STOCK),
        "target": (1, 100_000),
        "round_bonus": (0, 10_000),
        "points_per_card": (0, 1000),
        "first_player": (0, 5),
    },
}

#: Options whose largest value depends on the player count: the engine's own function.
#: The page gets the maximum for each player count (``max_by_players``) and so refuses
#: what the server would refuse; ``max`` stays the largest for any count.
MAX_BY_PLAYERS: dict[str, dict[str, Callable[[int], int]]] = {
    "skipbo": {"stock_size": max_stock},
}

#: Options the page does not offer (safeguards that players never need to change).
HIDDEN = {"turn_limit", "first_player"}


def _kind(annotation: Any) -> tuple[str, bool]:
    """('int' or 'bool', whether None is allowed) from a field's type."""
    if isinstance(annotation, str):
        optional = "None" in annotation
        return ("bool" if "bool" in annotation else "int"), optional
    args = typing.get_args(annotation)
    if isinstance(annotation, types.UnionType) or args:
        optional = type(None) in args
        inner = [arg for arg in args if arg is not type(None)]
        return ("bool" if bool in inner else "int"), optional
    return ("bool" if annotation is bool else "int"), False


def game_options(name: str) -> JSON:
    """The options and bots of game ``name`` for the page."""
    game = get_game(name)
    rules_type = game.rules_type
    hints = typing.get_type_hints(rules_type)
    defaults = rules_type()
    options = []
    for field in dataclasses.fields(rules_type):
        if field.name in HIDDEN:
            continue
        kind, optional = _kind(hints.get(field.name, field.type))
        entry: JSON = {
            "name": field.name,
            "type": kind,
            "optional": optional,
            "default": getattr(defaults, field.name),
        }
        bounds = RANGES.get(name, {}).get(field.name)
        if bounds is not None:
            entry["min"], entry["max"] = bounds
        top = MAX_BY_PLAYERS.get(name, {}).get(field.name)
        if top is not None:
            low, high = RANGES[name]["players"]
            entry["max_by_players"] = {str(n): top(n) for n in range(low, high + 1)}
        options.append(entry)
    known = bot_names(name)
    bots = [bot for bot in BOT_LEVELS if bot in known] + sorted(set(known) - set(BOT_LEVELS))
    return {
        "game": name,
        "title": game.title,
        "options": options,
        "bots": bots,
        "default_bot": DEFAULT_BOT if DEFAULT_BOT in known else bots[0],
        "moves": move_table(name),
    }


def move_table(name: str) -> list[JSON]:
    """The JSON form of every action code of game ``name``, indexed by code.

    The page turns the legal action codes it receives into sources and targets with
    this table, so no action encoding is repeated in JavaScript.
    """
    game = get_game(name)
    table: list[JSON] = []
    for code in range(game.num_actions):
        move = game.decode(code)
        to_json = getattr(move, "to_json", None)
        table.append(to_json() if callable(to_json) else {"type": str(move)})
    return table


def all_games() -> JSON:
    return {"games": [game_options(name) for name in game_names()]}

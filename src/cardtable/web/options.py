"""What the home page needs to offer a game: its rules options and its bots.

The options, their defaults and their ranges come from :mod:`cardtable.rules_options`,
which reads each rules field's own description, the one the engine validates with, so
the page offers exactly what the server accepts (and the server still validates whatever
the page sends).
"""

from __future__ import annotations

from ..bots import bot_names
from ..bots.levels import BY_STRENGTH
from ..core import JSON
from ..display_names import MAX_NAME
from ..games import game_names, get_game
from ..rules_options import bounds_by_players, depends_on_players, limits, option_specs

DEFAULT_BOT = "greedy"

#: Options the page does not offer: a safeguard no real game meets, and the rules edition,
#: which only replays old records.
HIDDEN = {"turn_limit", "edition"}


def option_entry(game_name: str, name: str) -> JSON:
    """One option for the page: name, ``label`` (the catalog key of its label, the one
    every client shows), ``type`` (``int`` or ``bool``), ``optional`` (None
    lets the rules choose), ``default``; for a whole number its ``min`` and ``max`` for
    any player count, and when the largest value depends on the player count, the
    engine's largest for each count (``max_by_players``, keyed by the count as text), so
    the page refuses what the server would refuse."""
    spec = next(spec for spec in option_specs(game_name) if spec.name == name)
    entry: JSON = {
        "name": spec.name,
        "label": spec.label,
        "type": spec.kind,
        "optional": spec.optional,
        "default": spec.default,
    }
    found = limits(game_name, name)
    if found is not None:
        entry["min"], entry["max"] = found
    if depends_on_players(game_name, name):
        by_players = bounds_by_players(game_name, name)
        entry["max_by_players"] = {str(n): high for n, (_, high) in by_players.items()}
    return entry


def game_options(name: str) -> JSON:
    """The options and bots of game ``name`` for the page."""
    game = get_game(name)
    options = [
        option_entry(name, spec.name) for spec in option_specs(name) if spec.name not in HIDDEN
    ]
    known = bot_names(name)
    # Weakest first; any other registered bot comes after them.
    bots = [bot for bot in BY_STRENGTH if bot in known] + sorted(set(known) - set(BY_STRENGTH))
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
    """Every game's options, and the server's limits on what the page's fields hold
    (``limits.name``: the longest display name), so the page's limits are the server's."""
    return {"games": [game_options(name) for name in game_names()], "limits": {"name": MAX_NAME}}

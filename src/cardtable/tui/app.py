"""The Textual app for a game source: :func:`make_app` picks the game's table.

The terminal client is laid out by concept: :mod:`.table` is what both games share
(layout, updates, review, rematch, hints), :mod:`.skyjo_app` and :mod:`.skipbo_app`
the keys and pages of each game, :mod:`.skyjo_board` and :mod:`.skipbo_board` the
boards they draw, :mod:`.screens` the modal pages, :mod:`.lobby` a room's lobby and
:mod:`.source` where the game comes from (local engine and bots, or a server room).
"""

from __future__ import annotations

from .screens import FinalScreen, ReviewScreen, TextScreen
from .skipbo_app import SkipBoApp
from .skyjo_app import SkyjoApp
from .source import GameSource
from .table import ReviewCancelledError, ReviewJob, TableApp, seat_names

__all__ = [
    "FinalScreen",
    "ReviewCancelledError",
    "ReviewJob",
    "ReviewScreen",
    "SkipBoApp",
    "SkyjoApp",
    "TableApp",
    "TextScreen",
    "make_app",
    "seat_names",
]


def make_app(source: GameSource, lang: str, *, summaries: bool = True) -> TableApp:
    """The app for ``source``'s game."""
    if source.game.name == "skyjo":
        return SkyjoApp(source, lang, summaries=summaries)
    return SkipBoApp(source, lang, summaries=summaries)

"""Levels for people, mapped to bots (measured strength in docs/bots.md)."""

from __future__ import annotations

from .base import Bot
from .registry import make_bot

#: Level name -> bot name, the same for both games.
LEVELS: dict[str, str] = {
    "easy": "naive",
    "medium": "greedy",
    "hard": "hard",
    "expert": "expert",
}


def make_level_bot(game: str, level: str) -> Bot:
    """The bot playing ``game`` at ``level`` (easy, medium, hard, expert)."""
    if level not in LEVELS:
        raise KeyError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")
    return make_bot(game, LEVELS[level])

"""Levels for people, mapped to bots (measured strength in docs/bots.md)."""

from __future__ import annotations

from .registry import bot_names

#: Level name -> bot name, the same for both games.
LEVELS: dict[str, str] = {
    "easy": "naive",
    "medium": "greedy",
    "hard": "hard",
    "expert": "expert",
    # Trained, not hand-made (docs/bots.md, "Learned"); unrated on the ladders until
    # its strength against the others is measured there.
    "learned": "learned",
}
#: The bots of the hand-made levels and the random one, weakest first, then ``learned``:
#: its strength is per game and per training run (docs/bots.md, "Learned").
BY_STRENGTH: tuple[str, ...] = ("random", *LEVELS.values())


def resolve_bot(game: str, token: str) -> str:
    """The bot name meant by ``token`` for ``game``: a level (easy ... expert, learned)
    or a bot name; raises ``KeyError`` naming the levels and bots it knows."""
    known = bot_names(game)
    name = LEVELS.get(token, token)
    if name in known:
        return name
    choices = ", ".join([*LEVELS, *known])
    raise KeyError(f"unknown bot or level {token!r} for {game}; known: {choices}")

"""What a bot is: something that picks a legal action for the seat to move.

Bots work over the core protocol only. A bot may read the state it is given but
must decide only from what its seat may see (``state.view(seat)`` holds exactly
that); search bots that need a full state call ``state.determinize(seat, rng)``.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..core import GameState, Rng


class Bot(Protocol):
    """A policy for one seat. ``choose`` returns an action code legal in ``state``."""

    name: str

    def choose(self, state: GameState[Any], rng: Rng) -> int: ...


class RandomBot:
    """Picks uniformly among the legal actions; works for every game."""

    name = "random"

    def choose(self, state: GameState[Any], rng: Rng) -> int:
        legal = state.legal_actions()
        return legal[rng.below(len(legal))]

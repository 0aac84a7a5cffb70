"""Random play-outs: positions for tests, benchmarks and search."""

from __future__ import annotations

from typing import Any

from .game import GameState
from .rng import Rng


def play_random(state: GameState[Any], rng: Rng, moves: int) -> int:
    """Apply up to ``moves`` uniformly random legal moves in place; return how many."""
    for played in range(moves):
        legal = state.legal_actions()
        if not legal:
            return played
        state.advance(legal[rng.below(len(legal))])
    return moves

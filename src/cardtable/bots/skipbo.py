"""Skip-Bo baseline bots (the strong ones come with the bots issue)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core import GameState, Rng
from ..skipbo.moves import (
    DISCARD_BASE,
    DISCARD_PLAY_BASE,
    END_TURN,
    STOCK_BASE,
)
from .base import Bot
from .learned import LearnedBot
from .skipbo_expert import SkipBoExpert
from .skipbo_hard import HardBot, NaiveBot

_NO_CARD = -1


class GreedyBot:
    """Plays its stock whenever it can, then any other play, and discards its highest card.

    Among other plays it uses numbered cards before Skip-Bo cards, so wild cards
    are kept for the stock. It discards onto the pile whose top is just above the
    card (keeping piles descending), else an empty pile, else the pile with the
    highest top.
    """

    name = "greedy"

    def choose(self, state: GameState[Any], rng: Rng) -> int:
        legal = state.legal_actions()
        stock = [a for a in legal if STOCK_BASE <= a < DISCARD_PLAY_BASE]
        if stock:
            return stock[0]
        plays = [a for a in legal if a < STOCK_BASE or DISCARD_PLAY_BASE <= a < DISCARD_BASE]
        if plays:
            numbered = [a for a in plays if not _plays_wild(state, a)]
            return (numbered or plays)[0]
        if END_TURN in legal:
            return END_TURN
        return self._discard(state, legal)

    @staticmethod
    def _discard(state: GameState[Any], legal: list[int]) -> int:
        view = state.view(state.current_player)
        hand: list[int] = view["hand"]
        numbers = [card for card in hand if card]
        card = max(numbers) if numbers else 0
        piles: list[list[int]] = view["players"][state.current_player]["discards"]
        tops = [pile[-1] if pile else _NO_CARD for pile in piles]

        def preference(index: int) -> tuple[int, int]:
            top = tops[index]
            if top == card + 1 or (card and top == card):
                return (0, 0)
            if top == _NO_CARD:
                return (1, 0)
            return (2, -top)

        best = min(range(4), key=preference)
        action = DISCARD_BASE + card * 4 + best
        return action if action in legal else legal[-1]


def _plays_wild(state: GameState[Any], action: int) -> bool:
    """Whether the play moves a Skip-Bo card (hand code 0..3 or a discard top of 0)."""
    if action < STOCK_BASE:
        return action < 4
    view_discards = state.view(state.current_player)["players"]
    relative = action - DISCARD_PLAY_BASE
    seat = state.current_player
    assert seat is not None
    owner = seat if relative < 16 else view_discards[seat]["partner"]
    pile: list[int] = view_discards[owner]["discards"][(relative & 15) // 4]
    return pile[-1] == 0


BOTS: dict[str, Callable[[], Bot]] = {
    "greedy": GreedyBot,
    "naive": NaiveBot,
    "hard": HardBot,
    "learned": lambda: LearnedBot("skipbo", HardBot),
    "expert": SkipBoExpert,
}

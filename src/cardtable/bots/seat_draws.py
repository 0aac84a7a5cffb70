"""Rollouts in which every seat draws from its own part of the re-dealt draw pile.

The experts compare close moves on the same re-deal. With one shared draw pile the
pairing breaks as soon as the moves draw different numbers of cards: a Skip-Bo move
that empties the hand draws five cards that the other move leaves for the opponent,
a Skyjo player who takes the discard leaves the card they would have drawn to the
next player, and from then on every hand differs. Here the re-dealt draw pile is cut
into one queue per seat (every ``n``-th card from the top), and before a move that
draws, the drawing seat's queue is put on top of the pile. Whatever the moves, a
seat's k-th draw is the same card in every rollout of the re-deal.

This changes no probability: the re-dealt pile is a uniformly random order of its
cards, so any position not yet drawn holds a uniformly random one of the cards not
yet drawn, whichever positions the draws are taken from. Only the pile's order is
touched, never its cards, and a wrong guess of who draws next (``drawer``) would
cost pairing, not correctness. When the pile runs out and the engine shuffles a new
one, or a seat's queue runs out, the queues are cut again from what is left.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..core import GameState, Rng
from ..skipbo.moves import DISCARD_BASE, STOCK_BASE
from ..skipbo.state import SkipBoState
from ..skyjo.moves import DRAW
from ..skyjo.state import TURN, SkyjoState
from .base import Bot
from .montecarlo import Playout, RoundOver, play_out

Drawer = Callable[[Any, int], "int | None"]
"""``drawer(state, action)``: the seat that may draw during ``action``, or None."""


def skipbo_drawer(state: SkipBoState, action: int) -> int | None:
    if action >= DISCARD_BASE:  # a discard or an empty hand's end: the next seat refills
        return (state.current + 1) % state.n
    if action < STOCK_BASE and state.hand_sizes[state.current] == 1:
        return state.current  # the last hand card: five new ones
    return None


def skyjo_drawer(state: SkyjoState, action: int) -> int | None:
    return state.player if action == DRAW and state.phase == TURN else None


class SeatDraws:
    """The draw pile of one rollout, as a queue per seat (the next card first)."""

    def __init__(self, state: Any, drawer: Drawer) -> None:
        self.drawer = drawer
        self._cut(state)

    def _cut(self, state: Any) -> None:
        pile: list[int] = state.draw
        top = len(pile) - 1
        self.queues = [
            pile[top - seat :: -state.n] if top >= seat else [] for seat in range(state.n)
        ]
        self.pile = pile

    def advance(self, state: Any, action: int) -> None:
        """``state.advance(action)`` with the drawing seat's queue on top of the pile."""
        drawer = self.drawer(state, action)
        if drawer is None:
            state.advance(action)
            return
        if state.draw is not self.pile:
            self._cut(state)
        queue = self.queues[drawer]
        rest = [card for seat, q in enumerate(self.queues) if seat != drawer for card in q]
        rest.extend(reversed(queue))
        state.draw = self.pile = rest
        before = len(rest)
        state.advance(action)
        drawn = before - len(state.draw)
        if state.draw is self.pile and drawn <= len(queue):
            del queue[:drawn]
        else:
            self._cut(state)


def seat_draw_playout(drawer: Drawer) -> Playout:
    """:func:`~cardtable.bots.montecarlo.play_out` with a draw queue per seat."""

    def playout(
        world: GameState[Any],
        action: int,
        start: GameState[Any],
        policies: Sequence[Bot],
        rng: Rng,
        round_over: RoundOver,
    ) -> GameState[Any]:
        draws = SeatDraws(world, drawer)
        return play_out(world, action, start, policies, rng, round_over, draws.advance)

    return playout


SKIPBO_SEAT_DRAWS = seat_draw_playout(skipbo_drawer)
SKYJO_SEAT_DRAWS = seat_draw_playout(skyjo_drawer)

"""Skip-Bo rollouts in which every seat draws from its own part of the re-dealt draw pile.

The expert compares close moves on the same re-deal. With one shared draw pile the
pairing breaks as soon as the moves draw different numbers of cards: a move that
empties the hand draws five cards that the other move leaves for the opponent, and
from then on every hand differs. Here the re-dealt draw pile is cut into one queue
per seat (every ``n``-th card from the top), and before any move that draws, the
drawing seat's queue is put on top of the pile. Whatever the moves, a seat's k-th
draw is the same card in every rollout of the re-deal.

This changes no probability: the re-dealt pile is a uniformly random order of the
unseen cards, so any card position not yet drawn holds a uniformly random one of
the cards not yet seen, whichever positions the draws are taken from. Only the
draw pile's order is touched, never its cards. When the pile runs out and the
completed building piles are shuffled in, the queues are cut again from the new
pile.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core import GameState, Rng
from ..skipbo.moves import DISCARD_BASE, STOCK_BASE
from ..skipbo.state import SkipBoState
from .base import Bot
from .montecarlo import ROLLOUT_MOVE_LIMIT, RoundOver


class SeatDraws:
    """The draw pile of one rollout, as a queue per seat (the next card first)."""

    def __init__(self, state: SkipBoState) -> None:
        self._cut(state)

    def _cut(self, state: SkipBoState) -> None:
        pile = state.draw
        top = len(pile) - 1
        self.queues = [
            pile[top - seat :: -state.n] if top >= seat else [] for seat in range(state.n)
        ]
        self.pile = pile

    def advance(self, state: SkipBoState, action: int) -> None:
        """``state.advance(action)`` with the drawing seat's queue on top of the pile."""
        if action >= DISCARD_BASE:  # a discard or an empty hand's end: the next seat refills
            drawer = (state.current + 1) % state.n
        elif action < STOCK_BASE and state.hand_sizes[state.current] == 1:
            drawer = state.current  # the last hand card: five new ones
        else:
            state.advance(action)
            return
        if state.draw is not self.pile:  # completed piles were shuffled in
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
            # The pile was shuffled anew, or the queue ran out and the draw went on
            # into the others' cards: cut again from what is left.
            self._cut(state)


def seat_draw_play_out(
    world: GameState[Any],
    action: int,
    start: GameState[Any],
    policies: Sequence[Bot],
    rng: Rng,
    round_over: RoundOver,
) -> GameState[Any]:
    """:func:`~cardtable.bots.montecarlo.play_out` with a draw queue per seat."""
    assert isinstance(world, SkipBoState)
    draws = SeatDraws(world)
    draws.advance(world, action)
    moves = 0
    while not round_over(start, world) and moves < ROLLOUT_MOVE_LIMIT:
        seat = world.current_player
        assert seat is not None
        draws.advance(world, policies[seat].choose(world, rng))
        moves += 1
    return world

"""``hard``'s value of each legal Skip-Bo move: the prior of a residual learned policy.

``hard`` (:mod:`.skipbo_hard`) values whole turns: its planner searches the lines of
plays open to the mover and plays the first play of the best one. The learned bot's
residual policy (the trainer's ``--prior hard``) needs a value for each single move
instead, on one scale, so that the move ``hard`` would play is the best valued:

- a play (a hand card, the stock top or a discard pile's top onto a building pile):
  the best line the planner found that starts with it. Two building piles that need
  the same card are the same play, so their two action codes get the same value;
- ending the turn, where that is legal: the value of stopping now (no more plays);
- a discard: stopping now, less ``DISCARD_WEIGHT`` times how far its discard score
  falls below the best discard's (:func:`.skipbo_hard.discard_options`); a discard that
  ``hard`` never considers (a Skip-Bo card while a numbered card could go) has no value.

Higher is better. :func:`prior_row` turns the values into the row the network adds
to its logits: 0 for ``hard``'s best move, ``value - best`` for the others, never
below ``-FLOOR`` (a play of the stock is worth 1,000 more than any other line, so the
raw gaps would dwarf every correction), and ``-FLOOR`` for a legal move without a
value. Where ``hard`` values nothing (a single legal move, a partner's stock top to
play, a frozen table, where it builds by another rule) the row is all 0.

The compiled :func:`cardtable.fast.skipbo_env.hard_priors` gives the same rows on the
batch engine, and the crosscheck tests hold the two equal.
"""

from __future__ import annotations

from typing import Any

from ..skipbo.moves import (
    DISCARD_BASE,
    DISCARD_PLAY_BASE,
    END_TURN,
    STOCK_BASE,
    PlayFromDiscard,
    PlayFromHand,
    PlayFromStock,
    decode,
)
from ..skipbo.state import SkipBoState
from .skipbo_hard import HARD_WEIGHTS, PlanWeights, TurnPlanner, discard_options, frozen

#: How much one point of a discard score weighs against the planner's line values.
DISCARD_WEIGHT = 1.0
#: The lowest prior: a move ``hard`` values this far below its best, or not at all.
FLOOR = 50.0
_STOCK = -1


class ValuingPlanner(TurnPlanner):
    """``hard``'s planner that keeps the best value of the lines each first play starts
    (``None``: stopping now), from every line end the search values."""

    sees_every_end = True

    def __init__(self, state: SkipBoState, seat: int, weights: PlanWeights = HARD_WEIGHTS) -> None:
        super().__init__(state, seat, weights)
        self.by_first: dict[tuple[int, int] | None, float] = {}

    def record(
        self, score: float, first: tuple[int, int] | None, last: tuple[int, int] | None = None
    ) -> None:
        if score > self.by_first.get(first, -1e18):
            self.by_first[first] = score
        super().record(score, first, last)


def play_step(state: SkipBoState, action: int) -> tuple[int, int] | None:
    """The planner's ``(source, card needed)`` of a play's action code: the source is
    the stock (-1), a discard pile counted from 1, or a hand card as ``-2 - card``; the
    inverse of ``plan_step_action``. None for any other move, a partner's pile included
    (the planner plays from the mover's own cards only)."""
    move = decode(action)
    if isinstance(move, PlayFromHand):
        source = -2 - move.card
    elif isinstance(move, PlayFromStock) and not move.partner:
        source = _STOCK
    elif isinstance(move, PlayFromDiscard) and not move.partner:
        source = move.discard + 1
    else:
        return None
    return source, len(state.building[move.pile]) + 1


def move_values(state: SkipBoState, weights: PlanWeights = HARD_WEIGHTS) -> dict[int, float]:
    """``hard``'s value of each legal move of the seat to move (higher is better; see
    the module); empty where it values nothing."""
    if state.is_over:
        return {}
    legal = state.legal_actions()
    if len(legal) < 2 or frozen(state):
        return {}
    if any(STOCK_BASE + 4 <= action < DISCARD_PLAY_BASE for action in legal):
        return {}  # a partner's stock top: hard plays it whatever else is open
    seat = state.current
    planner = ValuingPlanner(state, seat, weights)
    planner.search()
    stop = planner.by_first[None]
    ranked = discard_options(state, seat, legal)
    discards: dict[int, float] = {}
    if ranked:
        top = ranked[0][0]
        discards = {action: stop - DISCARD_WEIGHT * (top - score) for score, action in ranked}
    values: dict[int, float] = {}
    for action in legal:
        if action < DISCARD_BASE:
            step = play_step(state, action)
            value = None if step is None else planner.by_first.get(step)
        elif action == END_TURN:
            value = stop
        else:
            value = discards.get(action)
        if value is not None:
            values[action] = value
    return values


def prior_row(state: SkipBoState, num_actions: int) -> Any:
    """The prior row (float32, ``num_actions`` long) of :func:`move_values`; see the module."""
    import numpy as np

    row = np.zeros(num_actions, dtype=np.float32)
    values = move_values(state)
    if not values:
        return row
    best = max(values.values())
    for action in state.legal_actions():
        value = values.get(action)
        row[action] = -FLOOR if value is None else max(value - best, -FLOOR)
    return row

"""A fitted value of a Skip-Bo position: the stock cards a side can expect to play soon.

The expert's rollouts stop after a few turns and are scored by the stock race so
far; what each side holds then (a stock top that fits, Skip-Bo cards, the cards to
bridge the gap) is worth stock cards to come that the race does not count. This
module gives that worth as a linear function of a few features of one side, fitted
by ``lab/skipbo_leaf_fit.py`` on positions of ``hard``-vs-``hard`` games (the
stock cards the side played over the next 8 turns). It reads the side's hand, so
it values re-dealt worlds inside a search, never a real position for a seat that
cannot see that hand.
"""

from __future__ import annotations

import math

from ..skipbo.state import SkipBoState

_WILD = 0

FEATURES = (
    "top fits",
    "top gap 1",
    "top gap 2",
    "top gap 3",
    "bridge short 0",
    "bridge short 1",
    "bridge short 2",
    "wilds in hand",
    "wild discard tops",
    "hand size",
    "distinct numbers in hand",
    "empty discard piles",
    "discard cards",
    "stock size",
)


def features(state: SkipBoState, seat: int) -> list[float]:
    """The side's features, in the order of :data:`FEATURES`.

    "bridge short k": over the building piles the stock top is above, the fewest
    cards still missing to bridge the gap with the numbers held (hand and discard
    tops) and the Skip-Bo cards held, is k (a top that fits now is not bridged).
    Whose turn it is is not a feature: the side to move and the other side have
    weights of their own (:data:`MOVER`, :data:`OTHER`).
    """
    hand = state.hands[seat]
    stock = state.stocks[seat]
    tops = [pile[-1] for pile in state.discards[seat] if pile]
    held = {card for card in range(1, 13) if hand[card]} | {t for t in tops if t != _WILD}
    wilds = hand[_WILD] + sum(1 for t in tops if t == _WILD)
    needs = [len(pile) + 1 for pile in state.building]
    gap_hot = [0.0, 0.0, 0.0, 0.0]
    short_hot = [0.0, 0.0, 0.0]
    if stock:
        top = stock[-1]
        gaps = [0] if top == _WILD else [top - need for need in needs if need <= top]
        if gaps:
            gap = min(gaps)
            if gap < 4:
                gap_hot[gap] = 1.0
            if gap > 0:
                short = min(
                    max(0, top - need - len(held & set(range(need, top))) - wilds)
                    for need in needs
                    if need < top
                )
                if short < 3:
                    short_hot[short] = 1.0
    return [
        *gap_hot,
        *short_hot,
        float(min(hand[_WILD], 3)),
        float(sum(1 for t in tops if t == _WILD)),
        float(state.hand_sizes[seat]),
        float(sum(1 for card in range(1, 13) if hand[card])),
        float(sum(1 for pile in state.discards[seat] if not pile)),
        float(sum(len(pile) for pile in state.discards[seat])),
        float(len(stock)),
    ]


# Fitted by `python -m lab skipbo_leaf_fit --games 400 --stock 30 --turns 8`
# (seed 21): intercept, then one weight per feature. Held-out R² 0.16 for the side
# to move and 0.05 for the other (the stock top's gap alone: 0.03 and 0.01).
MOVER = (
    0.0073,
    2.2285,
    -0.0175,
    -0.0273,
    -0.0165,
    2.0652,
    0.5758,
    -0.0689,
    0.4811,
    2.1704,
    0.0366,
    0.1759,
    -0.0887,
    0.0685,
    -0.0062,
)
OTHER = (
    1.9670,
    0.4962,
    -0.3352,
    -0.2001,
    -0.0704,
    1.5771,
    1.0355,
    0.3187,
    0.4950,
    2.0064,
    -0.4231,
    0.1370,
    -0.0896,
    0.0787,
    -0.0030,
)


def stock_cards_to_come(state: SkipBoState, seat: int) -> float:
    """The stock cards ``seat`` can expect to play in the next 8 turns of a 2-player round."""
    weights = MOVER if seat == state.current else OTHER
    value = weights[0]
    for weight, feature in zip(weights[1:], features(state, seat), strict=True):
        value += weight * feature
    return value


WIN_FEATURES = (
    "stock lead",
    "stock lead / sqrt(stocks)",
    "lead to come",
    "lead to come / sqrt(stocks)",
    "1/(own stock + 1) - 1/(their stock + 1)",
    "mover",
    "mover / sqrt(stocks)",
)


def win_features(state: SkipBoState, seat: int) -> list[float]:
    """``seat``'s features of its chance to win a 2-player round, in :data:`WIN_FEATURES` order.

    Each is antisymmetric: the other seat's features are these negated, so the two
    chances add up to one. The "lead" is in stock cards (the opponent's stock size
    minus the seat's), "to come" is :func:`stock_cards_to_come` (own minus the
    opponent's) and "stocks" is the two stock sizes added: a card's lead counts
    for more near the end of the round. "mover" is +1 when the seat is to move.
    """
    other = 1 - seat
    mine = len(state.stocks[seat])
    theirs = len(state.stocks[other])
    scale = math.sqrt(mine + theirs)
    lead = float(theirs - mine)
    to_come = stock_cards_to_come(state, seat) - stock_cards_to_come(state, other)
    mover = 1.0 if state.current == seat else -1.0
    return [
        lead,
        lead / scale,
        to_come,
        to_come / scale,
        1.0 / (mine + 1) - 1.0 / (theirs + 1),
        mover,
        mover / scale,
    ]


# Fitted by `python -m lab skipbo_win_fit --games 2000 --stock 30` (seed 23): one
# weight per win feature, no intercept. Held-out log loss 0.5686 (Brier 0.1956) on
# 42,385 turn starts; the stock sizes alone 0.5687, the advisor's fixed logistic
# 0.5903, a coin 0.6931.
WIN = (-0.1409, 1.9647, -0.1046, 1.6737, -0.3257, -0.0413, 0.5279)


def win_chance(state: SkipBoState, seat: int) -> float:
    """``seat``'s chance to win the 2-player round from ``state``, as fitted on ``hard`` games."""
    logit = sum(w * f for w, f in zip(WIN, win_features(state, seat), strict=True))
    return 1.0 / (1.0 + math.exp(-logit))

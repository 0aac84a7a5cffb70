"""A fitted value of a Skyjo position: the round points each player can expect.

The expert's short rollouts stop when its next turn comes; what each grid is worth
then is a linear function of a few features, fitted by ``lab/skyjo_leaf_fit.py``
on positions of four-``hard`` games (the points each player scored when the round
ended). Everything it reads is face up, so it values any seat's grid from any
seat's view.
"""

from __future__ import annotations

from ..skyjo.state import SkyjoState
from .skyjo_hard import HardBot, grid_value

FEATURES = (
    "hard's value",
    "face-down cards",
    "face-up sum",
    "turns per player",
    "round closed",
    "turns until its move",
)

_HARD = HardBot()


def features(state: SkyjoState, seat: int) -> list[float]:
    """The seat's features, in the order of :data:`FEATURES`."""
    down = (state.down[seat] & state.present[seat]).bit_count()
    return [
        grid_value(state, seat, _HARD),
        float(down),
        float(state.face_up_sum(seat)),
        state.turns / state.n,
        float(state.closer is not None),
        float((seat - state.player) % state.n),
    ]


# Fitted by `python -m lab skyjo_leaf_fit --games 150` (seed 23; 155,252
# positions of four-`hard` games): intercept, then one weight per feature. Held-out
# R² 0.17 (hard's value alone: 0.07). The grid's features are nearly collinear, so
# the single weights mean little; together they say that a face-up point counts
# about 0.6 and a face-down card about 1.7 at the end of the round (both are often
# replaced before it).
WEIGHTS = (-3.7804, 1.2921, -4.9167, -0.7070, 0.6282, 1.7825, 0.2641)


def round_points_to_come(state: SkyjoState, seat: int) -> float:
    """The points ``seat`` can expect to score when the round ends (4 players)."""
    value = WEIGHTS[0]
    for weight, feature in zip(WEIGHTS[1:], features(state, seat), strict=True):
        value += weight * feature
    return value

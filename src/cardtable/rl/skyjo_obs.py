"""Skyjo observations for one seat, built only from ``state.view(seat)``.

Seats are relative: block 0 is always the observing seat, block ``k`` the seat
``k`` places after it in turn order. Face-down cards are hidden from everyone
(their owner included), so a face-down position shows value 0 with its
``grid_down`` flag set; the draw pile shows only its size.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import JSON
from ..skyjo.cards import DECK_COUNTS, HIGHEST, LOWEST, SLOTS
from ..skyjo.rules import MAX_END_SCORE, SkyjoRules
from .layout import Field, Layout

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

PHASES = ("setup", "turn", "drawn", "taken", "over")
VALUES = tuple(range(LOWEST, HIGHEST + 1))  # -2..12, 15 values
GRID_LOW = LOWEST * 5 + -1 * 7  # five -2 and seven -1: the lowest twelve cards
GRID_HIGH = HIGHEST * SLOTS
#: Totals are clipped to this range (a game ends once a total reaches end_score <= 1000,
#: and one round adds at most twice 144; negative totals are unbounded in principle).
TOTAL_LOW = -1000
TOTAL_HIGH = MAX_END_SCORE + 2 * GRID_HIGH


def skyjo_layout(players: int) -> Layout:
    """The observation fields for a table of ``players`` seats."""
    p = players
    return Layout(
        (
            Field("phase", 5, 0, 1, "one-hot: setup, turn, drawn, taken, over"),
            Field("to_move", p, 0, 1, "one-hot relative seat to move (all 0 once over)"),
            Field("held", 1, LOWEST, HIGHEST, "card held after drawing or taking; 0 if none"),
            Field("held_from", 2, 0, 1, "flags: held card came from the draw / discard pile"),
            Field("discard_top", 1, LOWEST, HIGHEST, "top of the discard pile; 0 if empty"),
            Field("discard_empty", 1, 0, 1, "flag: the discard pile is empty"),
            Field(
                "discard_counts",
                len(VALUES),
                0,
                max(DECK_COUNTS.values()),
                "cards of each value -2..12 on the discard pile (all public)",
            ),
            Field("draw_count", 1, 0, sum(DECK_COUNTS.values()), "cards left in the draw pile"),
            Field("reshuffled", 1, 0, 1, "flag: the draw pile was rebuilt this round"),
            Field(
                "grid_values",
                p * SLOTS,
                LOWEST,
                HIGHEST,
                "per relative seat, positions 0..11 row by row: the face-up value, "
                "0 when face down or removed",
            ),
            Field("grid_down", p * SLOTS, 0, 1, "flag: the position is face down (hidden)"),
            Field("grid_removed", p * SLOTS, 0, 1, "flag: the position's line left the grid"),
            Field("face_up_sums", p, GRID_LOW, GRID_HIGH, "sum of each seat's face-up cards"),
            Field(
                "totals",
                p,
                TOTAL_LOW,
                TOTAL_HIGH,
                f"each seat's game total, clipped to {TOTAL_LOW}..{TOTAL_HIGH}",
            ),
            Field(
                "closer",
                p + 1,
                0,
                1,
                "one-hot relative seat that ended the round (last entry: nobody yet)",
            ),
            Field(
                "rules",
                3,
                0,
                MAX_END_SCORE,
                "rows_rule flag, closer_doubling flag, end_score (1..1000)",
            ),
        )
    )


_PHASE_INDEX = {name: index for index, name in enumerate(PHASES)}
_PHASE_ONE_HOT = tuple(
    tuple(1.0 if i == index else 0.0 for i in range(len(PHASES))) for index in range(len(PHASES))
)
_VALUE_INDEX = {value: index for index, value in enumerate(VALUES)}
_IS_DOWN = {"up": 0.0, "down": 1.0, "removed": 0.0}
_IS_REMOVED = {"up": 0.0, "down": 0.0, "removed": 1.0}


class SkyjoEncoder:
    """Turns a Skyjo view into the flat float32 vector of :func:`skyjo_layout`."""

    game = "skyjo"

    def __init__(self, rules: SkyjoRules) -> None:
        self.rules = rules
        self.players = rules.players
        self.layout = skyjo_layout(rules.players)
        self.size = self.layout.size
        self._rules_part = [
            float(rules.rows_rule),
            float(rules.closer_doubling),
            float(rules.end_score),
        ]

    def encode_list(self, view: JSON) -> list[float]:
        """The observation as a list of floats (see :func:`skyjo_layout` for the order)."""
        seat: int = view["seat"]
        n = self.players
        order = [(seat + k) % n for k in range(n)]
        out: list[float] = list(_PHASE_ONE_HOT[_PHASE_INDEX[view["phase"]]])
        to_move = [0.0] * n
        current = view["current_player"]
        if current is not None:
            to_move[(current - seat) % n] = 1.0
        out += to_move
        held = view["hand"]
        source = view["hand_from"]
        out += (
            0.0 if held is None else float(held),
            1.0 if source == "draw" else 0.0,
            1.0 if source == "discard" else 0.0,
        )
        top = view["discard_top"]
        out += (0.0, 1.0) if top is None else (float(top), 0.0)
        counts = [0.0] * len(VALUES)
        index = _VALUE_INDEX
        for card in view["discard"]:
            counts[index[card]] += 1.0
        out += counts
        out += (float(view["draw_count"]), 1.0 if view["reshuffled"] else 0.0)
        grids = view["grids"]
        status = view["status"]
        values: list[int] = []
        down: list[float] = []
        removed: list[float] = []
        for owner in order:
            values += [0 if card is None else card for card in grids[owner]]
            down += [_IS_DOWN[entry] for entry in status[owner]]
            removed += [_IS_REMOVED[entry] for entry in status[owner]]
        out += map(float, values)
        out += down
        out += removed
        sums = view["face_up_sums"]
        out += [float(sums[owner]) for owner in order]
        totals = view["totals"]
        out += [float(min(max(totals[owner], TOTAL_LOW), TOTAL_HIGH)) for owner in order]
        closer = [0.0] * (n + 1)
        who = view["closer"]
        closer[n if who is None else (who - seat) % n] = 1.0
        out += closer
        out += self._rules_part
        return out

    def encode(self, view: JSON) -> NDArray[np.float32]:
        import numpy as np

        return np.fromiter(self.encode_list(view), dtype=np.float32, count=self.size)

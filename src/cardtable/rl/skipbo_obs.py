"""Skip-Bo observations for one seat, built only from ``state.view(seat)``.

Seats are relative: block 0 is always the observing seat, block ``k`` the seat
``k`` places after it in turn order. The observing seat's hand is shown as counts
per card; other hands only by their size. Stock piles show their top card and
size; the cards below are hidden from everyone. The draw order is hidden.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import JSON
from ..skipbo.cards import (
    BUILDING_PILES,
    DECK_SIZE,
    DISCARD_PILES,
    HAND_SIZE,
    HIGHEST,
    WILD_CARDS,
)
from ..skipbo.rules import MAX_STOCK, SkipBoRules
from .layout import Field, Layout

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

CARDS = 13  # 0 = Skip-Bo card, 1..12
#: Cards below the top of each discard pile shown by value (the rest only counted).
DEPTH = 2
#: Scores are clipped to this (a round is worth at most 10000 + 1000 * 30 * 5 points).
SCORE_HIGH = 1_000_000


def skipbo_layout(players: int) -> Layout:
    """The observation fields for a table of ``players`` seats."""
    p = players
    piles = p * DISCARD_PILES
    return Layout(
        (
            Field("to_move", p, 0, 1, "one-hot relative seat to move (all 0 once over)"),
            Field("hand", CARDS, 0, HAND_SIZE, "own hand: count of each card 0 (Skip-Bo), 1..12"),
            Field("hand_sizes", p, 0, HAND_SIZE, "cards in each seat's hand"),
            Field("stock_sizes", p, 0, MAX_STOCK, "cards in each seat's stock pile"),
            Field(
                "stock_tops",
                p * (CARDS + 1),
                0,
                1,
                "per seat, one-hot of the face-up stock top: 0 (Skip-Bo), 1..12, 13 = empty",
            ),
            Field("discard_sizes", piles, 0, DECK_SIZE, "cards in each discard pile (4 per seat)"),
            Field(
                "discard_tops",
                piles * (CARDS + 1),
                0,
                1,
                "per discard pile, one-hot of its top card: 0 (Skip-Bo), 1..12, 13 = empty",
            ),
            Field(
                "discard_below",
                piles * DEPTH,
                -1,
                HIGHEST,
                f"per discard pile, the {DEPTH} cards under the top, nearest first; -1 = none",
            ),
            Field(
                "building_next",
                BUILDING_PILES,
                1,
                HIGHEST,
                "number each building place needs next (1 = the place is empty)",
            ),
            Field("draw_size", 1, 0, DECK_SIZE, "cards in the draw pile"),
            Field("completed_size", 1, 0, DECK_SIZE, "cards in completed piles set aside"),
            Field(
                "seen",
                CARDS,
                0,
                WILD_CARDS,
                "cards of each value the seat can see: own hand, stock tops, discard "
                "piles and building piles",
            ),
            Field("scores", p, 0, SCORE_HIGH, f"match scores, clipped to {SCORE_HIGH}"),
            Field("partner", p, 0, 1, "one-hot relative seat of the partner (team play)"),
            Field("rules", 3, 0, 1, "flags: rounds, teams, discard_to_partner"),
        )
    )


_ONE_HOT = tuple(tuple(1.0 if i == k else 0.0 for i in range(CARDS + 1)) for k in range(CARDS + 1))
_EMPTY = CARDS


class SkipBoEncoder:
    """Turns a Skip-Bo view into the flat float32 vector of :func:`skipbo_layout`."""

    game = "skipbo"

    def __init__(self, rules: SkipBoRules) -> None:
        self.rules = rules
        self.players = rules.players
        self.layout = skipbo_layout(rules.players)
        self.size = self.layout.size
        self._rules_part = [
            float(rules.rounds),
            float(rules.teams),
            float(rules.discard_to_partner),
        ]

    def encode_list(self, view: JSON) -> list[float]:
        """The observation as a list of floats (see :func:`skipbo_layout` for the order)."""
        seat: int = view["seat"]
        n = self.players
        players = view["players"]
        order = [players[(seat + k) % n] for k in range(n)]
        to_move = [0.0] * n
        current = view["current"]
        if current is not None:
            to_move[(current - seat) % n] = 1.0
        out: list[float] = to_move
        hand = [0.0] * CARDS
        seen = [0.0] * CARDS
        for card in view["hand"]:
            hand[card] += 1.0
            seen[card] += 1.0
        out += hand
        out += [float(player["hand_size"]) for player in order]
        out += [float(player["stock_size"]) for player in order]
        for player in order:
            top = player["stock_top"]
            if top is None:
                out += _ONE_HOT[_EMPTY]
            else:
                out += _ONE_HOT[top]
                seen[top] += 1.0
        sizes: list[float] = []
        tops: list[float] = []
        below: list[float] = []
        for player in order:
            for pile in player["discards"]:
                sizes.append(float(len(pile)))
                tops += _ONE_HOT[pile[-1] if pile else _EMPTY]
                for depth in range(2, DEPTH + 2):
                    below.append(float(pile[-depth]) if len(pile) >= depth else -1.0)
                for card in pile:
                    seen[card] += 1.0
        out += sizes
        out += tops
        out += below
        out += [float(number) for number in view["building_next"]]
        for pile in view["building"]:
            for card in pile:
                seen[card] += 1.0
        out += (float(view["draw_size"]), float(view["completed_size"]))
        out += seen
        out += [float(min(player["score"], SCORE_HIGH)) for player in order]
        partner = [0.0] * n
        mate = players[seat]["partner"]
        if mate is not None:
            partner[(mate - seat) % n] = 1.0
        out += partner
        out += self._rules_part
        return out

    def encode(self, view: JSON) -> NDArray[np.float32]:
        import numpy as np

        return np.fromiter(self.encode_list(view), dtype=np.float32, count=self.size)

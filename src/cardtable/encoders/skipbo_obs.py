"""Skip-Bo observations for one seat.

Seats are relative: block 0 is always the observing seat, block ``k`` the seat
``k`` places after it in turn order. The observing seat's hand is shown as counts
per card; other hands only by their size. Stock piles show their top card and
size; the cards below are hidden from everyone. The draw order is hidden.

Two encoders give the same vector: :meth:`SkipBoEncoder.encode` reads
``state.view(seat)`` (the reference); :meth:`SkipBoEncoder.encode_state` (what the
environments use) reads the public fields the view is made of (own hand counts,
hand sizes, stock sizes and tops, discard and building piles, pile sizes, scores)
without building the dict. The tests require them to be equal over many positions
and rule sets, and the vector to be unchanged when hidden cards are re-dealt.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any

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
from ..skipbo.state import SkipBoState
from .layout import Field, Layout

#: The version of this vector's layout: a learned policy's weights name the version
#: they were trained on (cardtable.bots.learned_net refuses another).
ENCODER_VERSION = 1

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

CARDS = 13  # 0 = Skip-Bo card, 1..12
#: Cards below the top of each discard pile shown by value (the rest only counted).
DEPTH = 2  # encode_state reads pile[-2] and pile[-3]: keep it in step
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
_F32 = struct.Struct("<f")


def _float_bytes(values: list[float] | tuple[float, ...]) -> bytes:
    return b"".join(_F32.pack(value) for value in values)


#: float32 bytes of the one-hot of each card 0..12 and of "empty" (13).
_ONE_HOT_BYTES = tuple(_float_bytes(row) for row in _ONE_HOT)


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
        self._init_fast()

    # --- encoding straight from the state (what the environments use) -----------
    def _init_fast(self) -> None:
        import numpy as np

        n = self.players
        piles = n * DISCARD_PILES
        self._np_frombuffer = np.frombuffer
        self._dtype = np.dtype(np.float32)
        self._orders = tuple(tuple((seat + k) % n for k in range(n)) for seat in range(n))
        self._to_move = {
            rel: _float_bytes([float(i == rel) for i in range(n)]) for rel in (*range(n), None)
        }
        # hand (13), hand_sizes (p), stock_sizes (p)
        self._counts = struct.Struct(f"<{CARDS + 2 * n}f")
        self._discard_sizes = struct.Struct(f"<{piles}f")
        # discard_below, building_next, draw_size, completed_size, seen, scores
        self._rest = struct.Struct(f"<{piles * DEPTH + BUILDING_PILES + 2 + CARDS + n}f")
        # partner one-hot + the rules part, per observing seat.
        self._tail = []
        for seat in range(n):
            partner = [0.0] * n
            mate = self.rules.partner(seat)
            if mate is not None:
                partner[(mate - seat) % n] = 1.0
            self._tail.append(_float_bytes(partner + self._rules_part))

    def encode_bytes(self, state: Any, seat: int) -> bytearray:
        """The observation of ``seat`` as the bytes of its float32 vector (little-endian).

        What the environments use (:meth:`encode_state` is ``np.frombuffer`` of these
        bytes; the vector env joins those of every env). Equal to
        ``encode(state.view(seat))`` (tested). Reads no other hand than the seat's own,
        no stock card below the top and nothing of the draw pile but its length.
        """
        assert isinstance(state, SkipBoState)
        n = self.players
        order = self._orders[seat]
        current = state.current_player
        hand = state.hands[seat]
        seen = hand[:]
        hand_sizes = state.hand_sizes
        stocks = state.stocks
        one_hot = _ONE_HOT_BYTES
        stock_sizes: list[int] = []
        stock_tops: list[bytes] = []
        for owner in order:
            stock = stocks[owner]
            stock_sizes.append(len(stock))
            if stock:
                top = stock[-1]
                seen[top] += 1
                stock_tops.append(one_hot[top])
            else:
                stock_tops.append(one_hot[_EMPTY])
        all_discards = state.discards
        sizes: list[int] = []
        tops: list[bytes] = []
        below: list[int] = []
        visible: list[int] = []
        for owner in order:
            for pile in all_discards[owner]:
                size = len(pile)
                sizes.append(size)
                if size >= 3:
                    tops.append(one_hot[pile[-1]])
                    below += (pile[-2], pile[-3])
                    visible += pile
                elif size == 2:
                    tops.append(one_hot[pile[-1]])
                    below += (pile[-2], -1)
                    visible += pile
                elif size == 1:
                    tops.append(one_hot[pile[-1]])
                    below += (-1, -1)
                    visible.append(pile[0])
                else:
                    tops.append(one_hot[_EMPTY])
                    below += (-1, -1)
        building = state.building
        for pile in building:
            visible += pile
        for card in visible:
            seen[card] += 1
        scores = state.scores
        buffer = bytearray(self._to_move[None if current is None else (current - seat) % n])
        buffer += self._counts.pack(*hand, *[hand_sizes[owner] for owner in order], *stock_sizes)
        buffer += b"".join(stock_tops)
        buffer += self._discard_sizes.pack(*sizes)
        buffer += b"".join(tops)
        buffer += self._rest.pack(
            *below,
            *[len(pile) + 1 for pile in building],
            len(state.draw),
            len(state.completed),
            *seen,
            *[min(scores[owner], SCORE_HIGH) for owner in order],
        )
        buffer += self._tail[seat]
        return buffer

    def encode_state(self, state: Any, seat: int) -> NDArray[np.float32]:
        """The observation of ``seat`` from the public fields of ``state`` (a new,
        writable array). Equal to ``encode(state.view(seat))`` (tested)."""
        # encode_bytes returns a new bytearray: the array owns it and is writable.
        return self._np_frombuffer(self.encode_bytes(state, seat), self._dtype)

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

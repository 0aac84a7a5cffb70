"""Skyjo observations for one seat.

Seats are relative: block 0 is always the observing seat, block ``k`` the seat
``k`` places after it in turn order. Face-down cards are hidden from everyone
(their owner included), so a face-down position shows value 0 with its
``grid_down`` flag set; the draw pile shows only its size.

Two encoders give the same vector:

- :meth:`SkyjoEncoder.encode` reads ``state.view(seat)``, the dict the engine gives
  a player: it is the reference;
- :meth:`SkyjoEncoder.encode_state` (what the environments use) reads the fields of
  the state that the view is made of (face-up cards through the ``present``/``down``
  masks, the discard pile, the held card, the draw pile's size, totals, closer)
  without building the dict; face-down values are multiplied by 0 and never reach
  the vector. The tests require it to equal the reference over many positions and
  rule sets, and to be unchanged when hidden cards are re-dealt with
  ``state.determinize``.
"""

from __future__ import annotations

import struct
from operator import itemgetter, mul
from typing import TYPE_CHECKING, Any

from ..core import JSON
from ..skyjo.cards import DECK_COUNTS, FULL, HIGHEST, LOWEST, SLOTS
from ..skyjo.rules import MAX_END_SCORE, SkyjoRules
from ..skyjo.state import DRAWN, OVER, TAKEN, SkyjoState
from .layout import Field, Layout

#: The version of this vector's layout: a learned policy's weights name the version
#: they were trained on (cardtable.bots.learned_net refuses another).
ENCODER_VERSION = 1

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
#: Counts per value kept at index ``card`` (-2 and -1 at the end), read in value order.
_VALUE_ORDER = itemgetter(*(value % len(VALUES) for value in VALUES))
#: How many cards near the top of the discard pile the counts are corrected for.
_TOP_CHANGES = 4
_IS_REMOVED = {"up": 0.0, "down": 0.0, "removed": 1.0}


def _flag_bytes(mask: int) -> bytes:
    """float32 flags (1.0 where the mask has the position) of positions 0..11."""
    return struct.pack(f"<{SLOTS}f", *(float(mask >> pos & 1) for pos in range(SLOTS)))


#: Per 12-bit position mask (4096 entries, built by the first encoder): the bytes of 12
#: float32 flags (grid_down is ``_FLAGS[present & down]``, grid_removed
#: ``_FLAGS[FULL ^ present]``), and 12 ints, 1 where the card is face up (they multiply
#: the raw cards: ``_UP[present ^ down]`` with ``down`` inside ``present``).
_FLAGS: list[bytes] = []
_UP: list[tuple[int, ...]] = []


def _build_tables() -> None:
    if not _FLAGS:
        _UP.extend(tuple(mask >> pos & 1 for pos in range(SLOTS)) for mask in range(FULL + 1))
        _FLAGS.extend(_flag_bytes(mask) for mask in range(FULL + 1))


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
        self._init_fast()

    # --- encoding straight from the state (what the environments use) -----------
    def _init_fast(self) -> None:
        import numpy as np

        _build_tables()
        n = self.players
        f32 = struct.Struct("<f")

        def floats(values: list[float]) -> bytes:
            return b"".join(f32.pack(value) for value in values)

        self._orders = tuple(tuple((seat + k) % n for k in range(n)) for seat in range(n))
        self._totals_of = tuple(itemgetter(*order) for order in self._orders)
        self._np_frombuffer = np.frombuffer
        self._dtype = np.dtype(np.float32)
        # phase one-hot + to_move one-hot, at index phase * (n + 1) + relative seat to
        # move (n: nobody, once the game is over).
        self._head = [
            floats(
                [float(i == phase) for i in range(len(PHASES))]
                + [float(i == rel) for i in range(n)]
            )
            for phase in range(len(PHASES))
            for rel in range(n + 1)
        ]
        # held, held_from (2), discard_top, discard_empty; then the counts (15); then
        # draw_count, reshuffled.
        self._front = struct.Struct("<5f")
        self._counts = struct.Struct(f"<{len(VALUES)}f")
        self._back = struct.Struct("<2f")
        self._row = struct.Struct(f"<{SLOTS}f")
        self._sums = struct.Struct(f"<{n}f")
        # Per seat, the inputs of its last encoded grid and what was made of them:
        # (present, down, cards, values bytes, face-up sum, down bytes, removed bytes).
        self._rows: list[tuple[Any, ...]] = [(-1, -1, None, b"", 0, b"", b"")] * n
        # Per observing seat, the inputs of the last grid section (copies of the state's
        # cards, present and down lists) and its bytes (grid_values, grid_down,
        # grid_removed and face_up_sums, which follow each other in the layout).
        self._sections: list[tuple[Any, ...]] = [(None, None, None, b"")] * n
        # Per observing seat, the last totals and their (clipped) bytes.
        self._totals: list[tuple[Any, bytes]] = [((), b"")] * n
        # The last discard pile seen (a copy), its counts per value (-2 and -1 at the
        # end) and their bytes.
        zeros = [0] * len(VALUES)
        self._discard: tuple[list[int], list[int], bytes] = ([], zeros, self._counts.pack(*zeros))
        # closer one-hot (index n: nobody) + the rules part, per relative closer.
        self._tail = [
            floats([float(i == rel) for i in range(n + 1)]) + floats(self._rules_part)
            for rel in range(n + 1)
        ]

    def encode_bytes(self, state: Any, seat: int) -> bytes:
        """The observation of ``seat`` as the bytes of its float32 vector (little-endian).

        What the environments use: :meth:`encode_state` is ``np.frombuffer`` of these
        bytes, and the vector env joins those of every env into one batch. Read from
        the public fields of ``state``; face-down cards are read only to be multiplied
        by 0 and the draw pile only for its length, so the vector does not depend on
        anything the view hides (tested by re-dealing hidden cards).

        Parts whose inputs are unchanged since the last call are reused: the whole grid
        section while no card, face-down or removed position of any grid has changed
        (every step on which the learner only draws), each grid while its own inputs
        are unchanged, the discard counts while the pile is the same, the totals until
        a round ends. Every cache compares all the inputs of its part, hidden cards
        included, so the bytes are the same as without it.
        """
        assert isinstance(state, SkyjoState)
        n = self.players
        phase = state.phase
        held = state.hand
        discard = state.discard
        last_discard, tally, counts = self._discard
        if discard != last_discard:
            # Between two calls the pile usually changes only near its top (cards taken
            # and discarded), so the counts are corrected for the cards above the part
            # both piles share, when they share all but their last few cards.
            shared = len(last_discard) - _TOP_CHANGES
            if shared > 0 and discard[:shared] == last_discard[:shared]:
                for card in last_discard[shared:]:
                    tally[card] -= 1
                for card in discard[shared:]:
                    tally[card] += 1
            else:
                # counts per value; Python's negative indices put -2, -1 at 13, 14.
                tally = [0] * len(VALUES)
                for card in discard:
                    tally[card] += 1
            counts = self._counts.pack(*_VALUE_ORDER(tally))
            self._discard = (discard[:], tally, counts)
        presents = state.present
        downs = state.down
        cards = state.cards
        section = self._sections[seat]
        if section[0] != cards or section[1] != presents or section[2] != downs:
            section = self._sections[seat] = (
                cards[:],
                presents[:],
                downs[:],
                self._grid_section(cards, presents, downs, seat),
            )
        totals = self._totals_of[seat](state.totals)
        last_totals, totals_bytes = self._totals[seat]
        if totals != last_totals:
            clipped = totals
            if min(totals) < TOTAL_LOW or max(totals) > TOTAL_HIGH:
                clipped = tuple(min(max(total, TOTAL_LOW), TOTAL_HIGH) for total in totals)
            totals_bytes = self._sums.pack(*clipped)
            self._totals[seat] = (totals, totals_bytes)
        closer = state.closer
        return b"".join(
            (
                self._head[phase * (n + 1) + (n if phase == OVER else (state.player - seat) % n)],
                self._front.pack(
                    0 if held is None else held,
                    phase == DRAWN,
                    phase == TAKEN,
                    discard[-1] if discard else 0,
                    not discard,
                ),
                counts,
                self._back.pack(len(state.draw), state.reshuffled),
                section[3],
                totals_bytes,
                self._tail[n if closer is None else (closer - seat) % n],
            )
        )

    def _grid_section(
        self, cards: list[int], presents: list[int], downs: list[int], seat: int
    ) -> bytes:
        """grid_values, grid_down, grid_removed and face_up_sums of ``seat``'s view."""
        rows = self._rows
        grid_values: list[bytes] = []
        sums: list[int] = []
        down_bytes: list[bytes] = []
        removed_bytes: list[bytes] = []
        for owner in self._orders[seat]:
            present = presents[owner]
            down = downs[owner] & present
            base = owner * SLOTS
            part = cards[base : base + SLOTS]
            row = rows[owner]
            # A grid that has not changed since it was last encoded reuses its bytes.
            if row[0] != present or row[1] != down or row[2] != part:
                # The owner's 12 cards, face-down ones (and removed ones) multiplied by 0.
                up_values = list(map(mul, part, _UP[present ^ down]))
                row = rows[owner] = (
                    present,
                    down,
                    part,
                    self._row.pack(*up_values),
                    sum(up_values),
                    _FLAGS[down],
                    _FLAGS[FULL ^ present],
                )
            grid_values.append(row[3])
            sums.append(row[4])
            down_bytes.append(row[5])
            removed_bytes.append(row[6])
        return b"".join((*grid_values, *down_bytes, *removed_bytes, self._sums.pack(*sums)))

    def encode_state(self, state: Any, seat: int) -> NDArray[np.float32]:
        """The observation of ``seat`` from the public fields of ``state`` (a new,
        writable array). Equal to ``encode(state.view(seat))`` (tested)."""
        return self._np_frombuffer(bytearray(self.encode_bytes(state, seat)), self._dtype)

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

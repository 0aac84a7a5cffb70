"""What a Skyjo position holds: the fields of :class:`~cardtable.skyjo.state.SkyjoState`.

The grid of every seat lives in one flat list ``cards`` (12 entries per seat)
plus two bitmasks per seat: ``present`` (positions still holding a card; a
removed column or row clears its bits) and ``down`` (positions still face down).
Piles are lists with their top at the end. The card a player holds after
drawing or taking the discard is ``hand``.

The view (:mod:`.view`) and the snapshot (:mod:`.snapshot`) read and fill these fields;
the state (:mod:`.state`) adds the rules that change them and uses both, so the three
import in one direction: state, then view and snapshot, then this module.
"""

from __future__ import annotations

from ..core import GameState, Rng, RoundResult
from . import cards as layout
from .moves import Move
from .rules import SkyjoRules

SETUP, TURN, DRAWN, TAKEN, OVER = range(5)
PHASES = ("setup", "turn", "drawn", "taken", "over")


class SkyjoPosition(GameState[Move]):
    """The fields of a Skyjo game in progress; :class:`SkyjoState` plays it."""

    rules: SkyjoRules
    rng: Rng
    n: int
    round: int
    phase: int
    player: int
    starter: int | None
    closer: int | None
    cards: list[int]
    present: list[int]
    down: list[int]
    draw: list[int]
    discard: list[int]
    hand: int | None
    totals: list[int]
    finished: list[RoundResult]
    closers: list[int | None]
    doubled: list[bool]
    turns: int
    reshuffled: bool

    def face_up_sum(self, seat: int) -> int:
        """Sum of the face-up cards of ``seat``."""
        base = seat * layout.SLOTS
        cards = self.cards
        up = self.present[seat] & ~self.down[seat]
        return sum(cards[base + p] for p in layout.MASK_POSITIONS[up])

    def grid_sum(self, seat: int) -> int:
        """Sum of every card still in the grid of ``seat``, face up or down."""
        base = seat * layout.SLOTS
        cards = self.cards
        return sum(cards[base + p] for p in layout.MASK_POSITIONS[self.present[seat]])

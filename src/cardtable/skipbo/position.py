"""What a Skip-Bo position holds: the fields of :class:`~cardtable.skipbo.state.SkipBoState`.

The view (:mod:`.view`) and the snapshot reader (:mod:`.snapshot`) read and fill these
fields; the state (:mod:`.state`) adds the rules that change them and uses both, so the
three import in one direction: state, then view and snapshot, then this module.
"""

from __future__ import annotations

from ..core import GameState, Result, Rng, RoundResult
from .moves import Move
from .rules import SkipBoRules


class SkipBoPosition(GameState[Move]):
    """The fields of a Skip-Bo game in progress; :class:`SkipBoState` plays it."""

    # Attribute declarations for the type checker; instances are made by the state's blank.
    rules: SkipBoRules
    rng: Rng
    n: int
    partners: tuple[int | None, ...]
    hands: list[list[int]]
    hand_sizes: list[int]
    stocks: list[list[int]]
    discards: list[list[list[int]]]
    building: list[list[int]]
    draw: list[int]
    completed: list[int]
    current: int
    round_index: int
    starter: int
    turns: int
    idle: int
    built: bool
    scores: list[int]
    round_log: list[RoundResult]
    final: Result | None
    #: Sheet 003's draw for the deal: each pass a list of (seat, card), the highest card
    #: of the last pass dealing (:func:`cardtable.skipbo.state.dealer_of`); empty unless
    #: ``high_card_deal``.
    cut: list[list[tuple[int, int]]]

    def hand_cards(self, seat: int) -> list[int]:
        """The cards in ``seat``'s hand, ascending (Skip-Bo cards first)."""
        return [card for card, count in enumerate(self.hands[seat]) for _ in range(count)]

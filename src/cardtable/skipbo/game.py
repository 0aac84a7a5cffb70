"""The Skip-Bo :class:`~cardtable.core.Game`: rules type, action encoding, constructors."""

from __future__ import annotations

from collections import Counter
from typing import ClassVar

from ..core import Game, RulesBase
from . import moves
from .cards import deck_counts
from .moves import Move
from .rules import SkipBoRules
from .state import SkipBoState


class SkipBoGame(Game[Move]):
    name: ClassVar[str] = "skipbo"
    title: ClassVar[str] = "Skip-Bo"
    rules_type: ClassVar[type[RulesBase]] = SkipBoRules

    @property
    def num_actions(self) -> int:
        return moves.NUM_ACTIONS

    def encode(self, move: Move) -> int:
        return moves.encode(move)

    def decode(self, action: int) -> Move:
        return moves.decode(action)

    def new_state(self, rules: RulesBase, seed: int) -> SkipBoState:
        if not isinstance(rules, SkipBoRules):
            raise TypeError(f"Skip-Bo needs SkipBoRules, got {type(rules).__name__}")
        return SkipBoState.new(rules, seed)

    def state_from_json(self, data: object) -> SkipBoState:
        return SkipBoState.from_json(data)

    def move_from_json(self, data: object) -> Move:
        return moves.move_from_json(data)

    def deck(self, rules: RulesBase) -> Counter[int]:
        return deck_counts()


GAME = SkipBoGame()
SkipBoState.game = GAME

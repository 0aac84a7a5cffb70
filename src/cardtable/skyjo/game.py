"""The Skyjo game object: rules type, action encoding and constructors."""

from __future__ import annotations

from collections import Counter
from typing import ClassVar

from ..core import JSON, Game, RulesBase, SerializationError
from . import cards, moves
from .moves import Move
from .rules import SkyjoRules
from .snapshot import state_from_json
from .state import SkyjoState


def _rules(rules: RulesBase) -> SkyjoRules:
    if not isinstance(rules, SkyjoRules):
        raise TypeError(f"Skyjo needs SkyjoRules, got {type(rules).__name__}")
    return rules


class SkyjoGame(Game[Move]):
    """Skyjo: 2 to 8 players, 150 cards, lowest total wins."""

    name: ClassVar[str] = "skyjo"
    title: ClassVar[str] = "Skyjo"
    rules_type: ClassVar[type[RulesBase]] = SkyjoRules

    @property
    def num_actions(self) -> int:
        return moves.NUM_ACTIONS

    def encode(self, move: Move) -> int:
        return moves.encode(move)

    def decode(self, action: int) -> Move:
        return moves.decode(action)

    def new_state(self, rules: RulesBase, seed: int) -> SkyjoState:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an int, got {type(seed).__name__}")
        return SkyjoState.new(_rules(rules), seed)

    def state_from_json(self, data: JSON) -> SkyjoState:
        return state_from_json(SkyjoState.blank, data)

    def move_from_json(self, data: object) -> Move:
        return moves.move_from_json(data)

    def deck(self, rules: RulesBase) -> Counter[int]:
        _rules(rules)
        return cards.deck()

    def rules_from_json(self, data: object) -> SkyjoRules:
        try:
            return SkyjoRules.from_json(data)
        except TypeError as error:  # pragma: no cover - from_json names unknown keys first
            raise SerializationError(str(error)) from error


GAME = SkyjoGame()
SkyjoState.game = GAME

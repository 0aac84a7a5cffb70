"""Skip-Bo rules engine: pure, standard library only, no I/O.

>>> from cardtable.skipbo import GAME, SkipBoRules
>>> state = GAME.new_state(SkipBoRules(players=2, stock_size=10), seed=7)
>>> len(state.hand_cards(state.current_player))
5
"""

from .cards import SKIP_BO, card_name
from .events import (
    Built,
    Discarded,
    Drew,
    GameEnded,
    PileCompleted,
    Reshuffled,
    RoundDealt,
    RoundEnded,
    StockEmptied,
    StockRevealed,
    TurnPassed,
    TurnStarted,
)
from .game import GAME, SkipBoGame
from .moves import (
    NUM_ACTIONS,
    Discard,
    EndTurn,
    Move,
    PlayFromDiscard,
    PlayFromHand,
    PlayFromStock,
)
from .rules import SkipBoRules
from .state import SkipBoState

__all__ = [
    "GAME",
    "NUM_ACTIONS",
    "SKIP_BO",
    "Built",
    "Discard",
    "Discarded",
    "Drew",
    "EndTurn",
    "GameEnded",
    "Move",
    "PileCompleted",
    "PlayFromDiscard",
    "PlayFromHand",
    "PlayFromStock",
    "Reshuffled",
    "RoundDealt",
    "RoundEnded",
    "SkipBoGame",
    "SkipBoRules",
    "SkipBoState",
    "StockEmptied",
    "StockRevealed",
    "TurnPassed",
    "TurnStarted",
    "card_name",
]

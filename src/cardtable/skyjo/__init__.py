"""Skyjo: an exact rules engine on the cardtable core.

``GAME`` is the :class:`SkyjoGame`; ``GAME.new_state(SkyjoRules(players=4), seed)``
starts a game. See docs/rules/skyjo.md for every reading of the rule sheet.
"""

from .cards import COLS, DECK_COUNTS, DECK_SIZE, ROWS, SLOTS, deck, position_name
from .events import (
    CardRevealed,
    ColumnRemoved,
    Discarded,
    Drew,
    Exchanged,
    FinalTurns,
    GameEnded,
    Reshuffled,
    RoundDealt,
    RoundEnded,
    RowRemoved,
    StarterChosen,
    TookDiscard,
    TurnLimitReached,
)
from .game import GAME, SkyjoGame
from .moves import (
    NUM_ACTIONS,
    DiscardAndReveal,
    DrawFromDeck,
    Exchange,
    Move,
    Reveal,
    TakeDiscard,
)
from .rules import SkyjoRules
from .state import SkyjoState

__all__ = [
    "COLS",
    "DECK_COUNTS",
    "DECK_SIZE",
    "GAME",
    "NUM_ACTIONS",
    "ROWS",
    "SLOTS",
    "CardRevealed",
    "ColumnRemoved",
    "DiscardAndReveal",
    "Discarded",
    "DrawFromDeck",
    "Drew",
    "Exchange",
    "Exchanged",
    "FinalTurns",
    "GameEnded",
    "Move",
    "Reshuffled",
    "Reveal",
    "RoundDealt",
    "RoundEnded",
    "RowRemoved",
    "SkyjoGame",
    "SkyjoRules",
    "SkyjoState",
    "StarterChosen",
    "TakeDiscard",
    "TookDiscard",
    "TurnLimitReached",
    "deck",
    "position_name",
]

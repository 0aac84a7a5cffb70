"""The protocol every game implements, on the standard library alone."""

from .conformance import ConformanceError, ConformanceReport, check_game, check_state
from .errors import (
    ActionCodeError,
    CardtableError,
    IllegalMoveError,
    OptionError,
    SerializationError,
)
from .game import JSON, Event, Game, GameState, Outcome, Result, RoundResult, require_keys
from .options import (
    ALLOWED,
    Option,
    OptionField,
    Requirement,
    RulesBase,
    check_bool,
    check_int,
    check_optional_int,
    option,
    option_error,
    option_fields,
)
from .playout import play_random
from .refusal import Refusal, fill_refusal
from .rng import Rng

__all__ = [
    "ALLOWED",
    "JSON",
    "ActionCodeError",
    "CardtableError",
    "ConformanceError",
    "ConformanceReport",
    "Event",
    "Game",
    "GameState",
    "IllegalMoveError",
    "Option",
    "OptionError",
    "OptionField",
    "Outcome",
    "Refusal",
    "Requirement",
    "Result",
    "Rng",
    "RoundResult",
    "RulesBase",
    "SerializationError",
    "check_bool",
    "check_game",
    "check_int",
    "check_optional_int",
    "check_state",
    "fill_refusal",
    "option",
    "option_error",
    "option_fields",
    "play_random",
    "require_keys",
]

"""Skip-Bo moves as small immutable values, and their fixed integer encoding.

Hand cards are named by their value, not their slot: two 7s in a hand are the
same move. Piles are 0-based in fields and 1-based in text.

Action layout (``NUM_ACTIONS`` = 197, the same for every rules object)::

    0..51     PlayFromHand(card, pile)              card * 4 + pile
    52..59    PlayFromStock(pile, partner)          52 + partner * 4 + pile
    60..91    PlayFromDiscard(discard, pile, partner)  60 + partner * 16 + discard * 4 + pile
    92..195   Discard(card, discard, partner)       92 + partner * 52 + card * 4 + discard
    196       EndTurn()
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..core import ActionCodeError, SerializationError
from .cards import BUILDING_PILES, DISCARD_PILES, VALUES, card_name

HAND_BASE = 0
STOCK_BASE = 52
DISCARD_PLAY_BASE = 60
DISCARD_BASE = 92
END_TURN = 196
NUM_ACTIONS = 197


def _check(field: str, value: object, size: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < size:
        raise ValueError(f"{field} must be an integer from 0 to {size - 1}, got {value!r}")


def _owner(partner: bool) -> str:
    return "partner's " if partner else ""


@dataclasses.dataclass(frozen=True, slots=True)
class PlayFromHand:
    card: int
    pile: int

    def __post_init__(self) -> None:
        _check("card", self.card, len(VALUES))
        _check("pile", self.pile, BUILDING_PILES)

    def __str__(self) -> str:
        return f"play {card_name(self.card)} from hand to building pile {self.pile + 1}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "play_hand", "card": self.card, "pile": self.pile}


@dataclasses.dataclass(frozen=True, slots=True)
class PlayFromStock:
    pile: int
    partner: bool = False

    def __post_init__(self) -> None:
        _check("pile", self.pile, BUILDING_PILES)

    def __str__(self) -> str:
        return f"play {_owner(self.partner)}stock to building pile {self.pile + 1}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "play_stock", "pile": self.pile, "partner": self.partner}


@dataclasses.dataclass(frozen=True, slots=True)
class PlayFromDiscard:
    discard: int
    pile: int
    partner: bool = False

    def __post_init__(self) -> None:
        _check("discard", self.discard, DISCARD_PILES)
        _check("pile", self.pile, BUILDING_PILES)

    def __str__(self) -> str:
        return (
            f"play {_owner(self.partner)}discard pile {self.discard + 1}"
            f" to building pile {self.pile + 1}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "play_discard",
            "discard": self.discard,
            "pile": self.pile,
            "partner": self.partner,
        }


@dataclasses.dataclass(frozen=True, slots=True)
class Discard:
    card: int
    discard: int
    partner: bool = False

    def __post_init__(self) -> None:
        _check("card", self.card, len(VALUES))
        _check("discard", self.discard, DISCARD_PILES)

    def __str__(self) -> str:
        return (
            f"discard {card_name(self.card)} to {_owner(self.partner)}"
            f"discard pile {self.discard + 1}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "discard",
            "card": self.card,
            "discard": self.discard,
            "partner": self.partner,
        }


@dataclasses.dataclass(frozen=True, slots=True)
class EndTurn:
    """Ends a turn without discarding: only when the hand is empty and nothing is left to draw."""

    def __str__(self) -> str:
        return "end turn"

    def to_json(self) -> dict[str, Any]:
        return {"type": "end_turn"}


Move = PlayFromHand | PlayFromStock | PlayFromDiscard | Discard | EndTurn


def _build_table() -> list[Move]:
    table: list[Move] = []
    table += [PlayFromHand(card, pile) for card in VALUES for pile in range(BUILDING_PILES)]
    table += [PlayFromStock(pile, partner) for partner in (False, True) for pile in range(4)]
    table += [
        PlayFromDiscard(discard, pile, partner)
        for partner in (False, True)
        for discard in range(DISCARD_PILES)
        for pile in range(BUILDING_PILES)
    ]
    table += [
        Discard(card, discard, partner)
        for partner in (False, True)
        for card in VALUES
        for discard in range(DISCARD_PILES)
    ]
    table.append(EndTurn())
    return table


MOVES: tuple[Move, ...] = tuple(_build_table())
"""Every move, indexed by its action code."""

_CODES: dict[Move, int] = {move: code for code, move in enumerate(MOVES)}
assert len(MOVES) == NUM_ACTIONS and _CODES[EndTurn()] == END_TURN


def encode(move: Move) -> int:
    try:
        return _CODES[move]
    except (KeyError, TypeError):
        raise ActionCodeError(f"not a Skip-Bo move: {move!r}") from None


def decode(action: int) -> Move:
    if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < NUM_ACTIONS:
        raise ActionCodeError(f"Skip-Bo action codes run from 0 to {NUM_ACTIONS - 1}: {action!r}")
    return MOVES[action]


_PARSERS: dict[str, tuple[type[Any], tuple[str, ...]]] = {
    "play_hand": (PlayFromHand, ("card", "pile")),
    "play_stock": (PlayFromStock, ("pile", "partner")),
    "play_discard": (PlayFromDiscard, ("discard", "pile", "partner")),
    "discard": (Discard, ("card", "discard", "partner")),
    "end_turn": (EndTurn, ()),
}


def move_from_json(data: object) -> Move:
    """Parse the JSON form written by ``to_json``; raises :class:`SerializationError`."""
    if not isinstance(data, dict) or data.get("type") not in _PARSERS:
        kinds = ", ".join(_PARSERS)
        raise SerializationError(f"a Skip-Bo move is an object with type one of: {kinds}")
    cls, fields = _PARSERS[data["type"]]
    unknown = set(data) - {"type", *fields}
    if unknown:
        raise SerializationError(f"unknown move field(s): {', '.join(sorted(unknown))}")
    args = {name: data[name] for name in fields if name in data}
    if "partner" in args and not isinstance(args["partner"], bool):
        raise SerializationError("partner must be true or false")
    try:
        move: Move = cls(**args)
    except (TypeError, ValueError) as error:
        raise SerializationError(f"bad {data['type']} move: {error}") from None
    return move

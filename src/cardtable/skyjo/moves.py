"""Skyjo moves and their fixed integer encoding.

The encoding is the same for every rules object (``NUM_ACTIONS`` = 38):

====================  ================  =======================================
codes                 move              meaning
====================  ================  =======================================
0                     DrawFromDeck      draw the top card of the draw pile
1                     TakeDiscard       take the top card of the discard pile
2 + pos (2..13)       Exchange          put the held card at ``pos``; that card is discarded
14 + pos (14..25)     Reveal            set-up: turn the face-down card at ``pos`` face up
26 + pos (26..37)     DiscardAndReveal  discard the drawn card, turn ``pos`` face up
====================  ================  =======================================

Positions ``pos`` run 0..11 row by row (row ``pos // 4``, column ``pos % 4``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..core import JSON, ActionCodeError, SerializationError
from .cards import SLOTS, position_name

DRAW = 0
TAKE_DISCARD = 1
EXCHANGE = 2
REVEAL = EXCHANGE + SLOTS
DISCARD_AND_REVEAL = REVEAL + SLOTS
NUM_ACTIONS = DISCARD_AND_REVEAL + SLOTS


@dataclasses.dataclass(frozen=True, slots=True)
class DrawFromDeck:
    """Draw the top card of the draw pile; it is shown to everyone."""

    def __str__(self) -> str:
        return "draw from the draw pile"

    def to_json(self) -> JSON:
        return {"type": "draw"}


@dataclasses.dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take the top card of the discard pile; an exchange must follow."""

    def __str__(self) -> str:
        return "take the top of the discard pile"

    def to_json(self) -> JSON:
        return {"type": "take_discard"}


@dataclasses.dataclass(frozen=True, slots=True)
class Exchange:
    """Put the held card face up at ``pos``; the card that was there is discarded face up."""

    pos: int

    def __str__(self) -> str:
        return f"exchange with the card at {position_name(self.pos)}"

    def to_json(self) -> JSON:
        return {"type": "exchange", "pos": self.pos}


@dataclasses.dataclass(frozen=True, slots=True)
class Reveal:
    """Set-up move: turn the face-down card at ``pos`` face up."""

    pos: int

    def __str__(self) -> str:
        return f"turn up the card at {position_name(self.pos)}"

    def to_json(self) -> JSON:
        return {"type": "reveal", "pos": self.pos}


@dataclasses.dataclass(frozen=True, slots=True)
class DiscardAndReveal:
    """Discard the drawn card and turn the face-down card at ``pos`` face up."""

    pos: int

    def __str__(self) -> str:
        return f"discard the drawn card and turn up the card at {position_name(self.pos)}"

    def to_json(self) -> JSON:
        return {"type": "discard_and_reveal", "pos": self.pos}


Move = DrawFromDeck | TakeDiscard | Exchange | Reveal | DiscardAndReveal

#: Every move, indexed by its action code (singletons: decode is a list lookup).
MOVES: tuple[Move, ...] = (
    DrawFromDeck(),
    TakeDiscard(),
    *(Exchange(pos) for pos in range(SLOTS)),
    *(Reveal(pos) for pos in range(SLOTS)),
    *(DiscardAndReveal(pos) for pos in range(SLOTS)),
)
CODES: dict[Move, int] = {move: code for code, move in enumerate(MOVES)}
assert len(MOVES) == NUM_ACTIONS

_POSITIONED: dict[str, type[Exchange] | type[Reveal] | type[DiscardAndReveal]] = {
    "exchange": Exchange,
    "reveal": Reveal,
    "discard_and_reveal": DiscardAndReveal,
}


def encode(move: object) -> int:
    code: int | None = None
    if isinstance(move, DrawFromDeck | TakeDiscard | Exchange | Reveal | DiscardAndReveal):
        code = CODES.get(move)
    if code is None:
        raise ActionCodeError(f"not a Skyjo move: {move!r}")
    return code


def decode(action: int) -> Move:
    if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < NUM_ACTIONS:
        raise ActionCodeError(f"action {action!r} outside 0..{NUM_ACTIONS - 1}")
    return MOVES[action]


def move_from_json(data: object) -> Move:
    """Parse ``{"type": "exchange", "pos": 5}`` and the like."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise SerializationError("a Skyjo move is a JSON object with a string 'type'")
    kind: str = data["type"]
    if kind == "draw":
        return MOVES[DRAW]
    if kind == "take_discard":
        return MOVES[TAKE_DISCARD]
    cls = _POSITIONED.get(kind)
    if cls is None:
        known = ", ".join(["draw", "take_discard", *_POSITIONED])
        raise SerializationError(f"unknown Skyjo move type {kind!r}; known: {known}")
    pos: Any = data.get("pos")
    if not isinstance(pos, int) or isinstance(pos, bool) or not 0 <= pos < SLOTS:
        raise SerializationError(f"move {kind!r} needs 'pos', an integer from 0 to {SLOTS - 1}")
    return MOVES[CODES[cls(pos)]]

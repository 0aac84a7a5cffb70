"""What happened after a Skip-Bo move. Events carry public information only:
a draw says how many cards, never which."""

from __future__ import annotations

import dataclasses

from ..core import Event


@dataclasses.dataclass(frozen=True, slots=True)
class RoundDealt(Event):
    round: int
    starter: int
    stock_tops: tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    seat: int
    turn: int


@dataclasses.dataclass(frozen=True, slots=True)
class Drew(Event):
    seat: int
    count: int


@dataclasses.dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    """The completed building piles became the new draw pile."""

    count: int


@dataclasses.dataclass(frozen=True, slots=True)
class Built(Event):
    """A card went onto a building pile, where it counts as ``value``."""

    seat: int
    source: str  # "hand", "stock" or "discard"
    owner: int  # whose stock or discard pile it came from
    card: int
    pile: int
    value: int


@dataclasses.dataclass(frozen=True, slots=True)
class PileCompleted(Event):
    pile: int


@dataclasses.dataclass(frozen=True, slots=True)
class StockRevealed(Event):
    """The next stock card of ``owner`` was turned face up."""

    owner: int
    card: int
    remaining: int


@dataclasses.dataclass(frozen=True, slots=True)
class StockEmptied(Event):
    owner: int


@dataclasses.dataclass(frozen=True, slots=True)
class Discarded(Event):
    seat: int
    owner: int
    card: int
    discard: int


@dataclasses.dataclass(frozen=True, slots=True)
class TurnPassed(Event):
    """The turn ended without a discard: the hand was empty and nothing was left to draw."""

    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    round: int
    winners: tuple[int, ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]
    blocked: bool
    #: "stock emptied"; blocked: "no card fits", "idle limit", "turn limit", or
    #: "no progress" (edition 1: one idle turn per seat)
    reason: str


@dataclasses.dataclass(frozen=True, slots=True)
class GameEnded(Event):
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    blocked: bool


#: Events that show the mover only cards it could already see: a card played or
#: discarded was in its view, the next player's draw stays hidden from it.
_SHOWS_NOTHING_HIDDEN = (TurnStarted, Built, PileCompleted, Discarded, TurnPassed)


def shows_hidden_card(event: Event, mover: int) -> bool:
    """Whether ``event``, following a move of ``mover``, showed ``mover`` a card it could
    not see before the move: new hand cards of its own, a stock card turned up, a new
    deal or draw pile. Undoing such a move would let ``mover`` know what comes next, so
    a take-back (the server's practice coach) refuses it. Any event not known to show
    nothing hidden counts as showing something."""
    if isinstance(event, Drew):
        return event.seat == mover
    return not isinstance(event, _SHOWS_NOTHING_HIDDEN)

"""Public events of Skyjo. None of them carries a card that is still face down."""

from __future__ import annotations

import dataclasses

from ..core import Event


@dataclasses.dataclass(frozen=True, slots=True)
class RoundDealt(Event):
    """A round was dealt: 12 face-down cards each, ``discard`` turned up to start the pile."""

    round: int
    discard: int
    draw_count: int


@dataclasses.dataclass(frozen=True, slots=True)
class CardRevealed(Event):
    """The card at ``pos`` of ``seat``'s grid was turned face up."""

    seat: int
    pos: int
    card: int


@dataclasses.dataclass(frozen=True, slots=True)
class StarterChosen(Event):
    """``seat`` starts the round; ``sums`` are the face-up sums that decided it."""

    seat: int
    sums: tuple[int, ...]
    reason: str


@dataclasses.dataclass(frozen=True, slots=True)
class Drew(Event):
    """``seat`` drew ``card`` from the draw pile and showed it."""

    seat: int
    card: int


@dataclasses.dataclass(frozen=True, slots=True)
class TookDiscard(Event):
    """``seat`` took ``card`` from the top of the discard pile."""

    seat: int
    card: int


@dataclasses.dataclass(frozen=True, slots=True)
class Exchanged(Event):
    """``seat`` put ``card`` at ``pos``; ``replaced`` (now shown) went onto the discard pile."""

    seat: int
    pos: int
    card: int
    replaced: int
    was_face_up: bool


@dataclasses.dataclass(frozen=True, slots=True)
class Discarded(Event):
    """``seat`` discarded the drawn ``card``."""

    seat: int
    card: int


@dataclasses.dataclass(frozen=True, slots=True)
class ColumnRemoved(Event):
    """Three face-up ``card`` values filled column ``col`` of ``seat``: discarded, column gone."""

    seat: int
    col: int
    card: int


@dataclasses.dataclass(frozen=True, slots=True)
class RowRemoved(Event):
    """Four face-up ``card`` values filled row ``row`` of ``seat`` (rows option): discarded."""

    seat: int
    row: int
    card: int


@dataclasses.dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    """The draw pile ran out: the discard pile but its top became a new draw pile of ``count``."""

    count: int


@dataclasses.dataclass(frozen=True, slots=True)
class FinalTurns(Event):
    """``closer`` has no face-down card left: every other player gets one last turn."""

    closer: int


@dataclasses.dataclass(frozen=True, slots=True)
class TurnLimitReached(Event):
    """Round ``round`` reached the ``turn_limit`` option after ``turns`` turns: it ends at
    once, as if its final turns were over, and counts as blocked (nobody is doubled)."""

    round: int
    turns: int


@dataclasses.dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """Round ``round`` was scored: ``points`` after doubling, new ``totals``.

    ``closer`` is None only in a round ended by the turn limit before anyone went out.
    """

    round: int
    closer: int | None
    points: tuple[int, ...]
    totals: tuple[int, ...]
    doubled: bool


@dataclasses.dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The game is over: lowest ``totals`` win, ``winners`` share the win."""

    winners: tuple[int, ...]
    totals: tuple[int, ...]


#: Events that show the mover only cards it could already see (a card taken from the
#: discard pile, lines of face-up cards removed, the closer's last turns announced).
_SHOWS_NOTHING_HIDDEN = (TookDiscard, Discarded, ColumnRemoved, RowRemoved, FinalTurns)


def shows_hidden_card(event: Event, mover: int) -> bool:
    """Whether ``event``, following a move of ``mover``, showed ``mover`` a card it could
    not see before the move: a card drawn from the draw pile, a face-down card turned or
    exchanged, a round scored or dealt. Undoing such a move would let ``mover`` know a
    hidden card, so a take-back (the server's practice coach) refuses it. Any event not
    known to show nothing hidden counts as showing something."""
    if isinstance(event, Exchanged):
        return not event.was_face_up
    return not isinstance(event, _SHOWS_NOTHING_HIDDEN)

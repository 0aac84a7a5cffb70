"""The protocol every game implements.

A :class:`Game` knows a game's rules type, its fixed integer action encoding and
how to start, replay and load states. A :class:`GameState` is one position: whose
turn it is, the legal moves, applying a move, the result, views per seat, cheap
clones, JSON snapshots and determinization for search bots.

Moves are applied three ways: :meth:`GameState.apply` / :meth:`GameState.apply_action`
validate and return an :class:`Outcome` (the public record: who moved, what, and the
events that followed); :meth:`GameState.apply_unchecked` skips the validation; and
:meth:`GameState.advance` also skips the record, for callers that do not read events:
RL steps, rollouts, tournaments. All three reach the same state.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from typing import Any, ClassVar, Generic, Self, TypeVar

from .errors import ActionCodeError, IllegalMoveError, SerializationError
from .options import RulesBase
from .refusal import Refusal
from .rng import Rng

MoveT = TypeVar("MoveT", bound=Hashable)
JSON = dict[str, Any]


@dataclasses.dataclass(frozen=True, slots=True)
class Event:
    """Something public that happened; subclasses add fields. Never carries a hidden card."""

    def to_json(self) -> JSON:
        data: JSON = {"type": type(self).__name__}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            data[field.name] = list(value) if isinstance(value, tuple) else value
        return data


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome(Generic[MoveT]):
    """The record of one applied move: who moved, what, and what followed from it."""

    seat: int
    move: MoveT
    action: int
    events: tuple[Event, ...]

    def to_json(self) -> JSON:
        move_json = getattr(self.move, "to_json", None)
        return {
            "seat": self.seat,
            "action": self.action,
            "move": move_json() if callable(move_json) else repr(self.move),
            "events": [event.to_json() for event in self.events],
        }


@dataclasses.dataclass(frozen=True, slots=True)
class Result:
    """The end of a game: the winning seats (several on a shared win) and final scores."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    blocked: bool = False

    def to_json(self) -> JSON:
        return {"winners": list(self.winners), "scores": list(self.scores), "blocked": self.blocked}


@dataclasses.dataclass(frozen=True, slots=True)
class RoundResult:
    """One finished round: points each seat scored in it, its winners, and its length."""

    points: tuple[int, ...]
    winners: tuple[int, ...]
    turns: int
    blocked: bool = False

    def to_json(self) -> JSON:
        return {
            "points": list(self.points),
            "winners": list(self.winners),
            "turns": self.turns,
            "blocked": self.blocked,
        }


class Game(ABC, Generic[MoveT]):
    """A game's static description: rules type, action encoding, constructors."""

    name: ClassVar[str]
    title: ClassVar[str]
    rules_type: ClassVar[type[RulesBase]]

    @property
    @abstractmethod
    def num_actions(self) -> int:
        """Size of the fixed action encoding (the same for every rules object)."""

    @abstractmethod
    def encode(self, move: MoveT) -> int: ...

    @abstractmethod
    def decode(self, action: int) -> MoveT: ...

    @abstractmethod
    def new_state(self, rules: RulesBase, seed: int) -> GameState[MoveT]: ...

    @abstractmethod
    def state_from_json(self, data: JSON) -> GameState[MoveT]: ...

    @abstractmethod
    def move_from_json(self, data: object) -> MoveT:
        """Parse a move from its JSON form (raises :class:`SerializationError`)."""

    @abstractmethod
    def deck(self, rules: RulesBase) -> Counter[int]:
        """Every card of the game with its count; a state's census must always equal it."""

    def rules_from_json(self, data: object) -> RulesBase:
        return self.rules_type.from_json(data)

    def rules_from_record(self, data: object) -> RulesBase:
        """Rules of a stored game (see :meth:`RulesBase.from_record`)."""
        return self.rules_type.from_record(data)

    def check_action(self, action: int) -> None:
        if not isinstance(action, int) or isinstance(action, bool):
            raise ActionCodeError(f"action must be an int, got {type(action).__name__}")
        if not 0 <= action < self.num_actions:
            raise ActionCodeError(f"action {action} outside 0..{self.num_actions - 1}")

    def replay(self, rules: RulesBase, seed: int, actions: Iterable[int]) -> GameState[MoveT]:
        """The state reached from a fresh deal by applying ``actions`` in order."""
        state = self.new_state(rules, seed)
        for action in actions:
            state.require_legal(action)
            state.advance(action)
        return state


class GameState(ABC, Generic[MoveT]):
    """One position of a game. Mutable; :meth:`clone` is cheap."""

    game: ClassVar[Game[Any]]
    rules: RulesBase
    seed: int
    history: list[int]

    # --- turn and moves -------------------------------------------------
    @property
    @abstractmethod
    def num_players(self) -> int: ...

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat to move, or None once the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Action codes of the legal moves, ascending."""

    @abstractmethod
    def apply_unchecked(self, action: int) -> Outcome[MoveT]:
        """Apply a known-legal action and return its :class:`Outcome`, without validation.

        The action must come from :meth:`legal_actions` or pass :meth:`is_legal_action`
        (an illegal one leaves the state undefined). :meth:`apply_action` is
        :meth:`require_legal` then this; callers that already know the move is legal
        (benchmarks, search bots replaying their own choices) call it directly. Each
        engine implements it."""

    def advance(self, action: int) -> None:
        """Apply a known-legal action like :meth:`apply_unchecked`, without any move record.

        The fast move path, for callers that do not read events: RL steps, rollouts,
        tournaments. No validation (the action must come from :meth:`legal_actions`
        or pass :meth:`is_legal_action`), no :class:`Outcome`, no :class:`Event`: the
        state reached is exactly the one :meth:`apply_unchecked` reaches, history included
        (the conformance checker compares the two after every move). Engines override it
        with their rules run without building events; this default drops the Outcome.
        """
        self.apply_unchecked(action)

    @abstractmethod
    def explain_illegal(self, move: MoveT) -> str:
        """Why ``move`` is not legal now, in plain words."""

    def explain_illegal_parts(self, move: MoveT) -> Refusal | None:
        """:meth:`explain_illegal` as a catalog key and parameters (see
        :mod:`cardtable.core.refusal`), or None for a game without catalog wording."""
        return None

    def illegal_move_error(self, move: MoveT) -> IllegalMoveError:
        """The error refusing ``move``: its English reason and its :class:`Refusal`."""
        return IllegalMoveError(self.explain_illegal(move), self.explain_illegal_parts(move))

    def legal_moves(self) -> list[MoveT]:
        decode = self.game.decode
        return [decode(action) for action in self.legal_actions()]

    def action_mask(self) -> list[int]:
        mask = [0] * self.game.num_actions
        for action in self.legal_actions():
            mask[action] = 1
        return mask

    def is_legal_action(self, action: int) -> bool:
        """Whether the (in-range) action code is legal now; games override it with a cheap test."""
        return action in self.legal_actions()

    def is_legal(self, move: MoveT) -> bool:
        try:
            action = self.game.encode(move)
        except ActionCodeError:
            return False
        return self.is_legal_action(action)

    def apply(self, move: MoveT) -> Outcome[MoveT]:
        """Play ``move``; raise :class:`IllegalMoveError` (state unchanged) if it is illegal."""
        try:
            action = self.game.encode(move)
        except ActionCodeError as error:
            raise IllegalMoveError(f"not a move of {self.game.title}: {move!r}") from error
        if not self.is_legal_action(action):
            raise self.illegal_move_error(move)
        return self.apply_unchecked(action)

    def apply_action(self, action: int) -> Outcome[MoveT]:
        """Play the move with this action code; illegal codes raise and change nothing."""
        self.require_legal(action)
        return self.apply_unchecked(action)

    def require_legal(self, action: int) -> None:
        """Raise unless ``action`` is a legal code now: :class:`ActionCodeError` for a
        code outside the encoding, :class:`IllegalMoveError` (with its reason) for an
        illegal move. Changes nothing. ``require_legal`` then :meth:`advance` is
        :meth:`apply_action` without the Outcome."""
        self.game.check_action(action)
        if not self.is_legal_action(action):
            raise self.illegal_move_error(self.game.decode(action))

    # --- end ------------------------------------------------------------
    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def result(self) -> Result | None:
        """The result once the game is over, else None."""

    @abstractmethod
    def rounds(self) -> list[RoundResult]:
        """The finished rounds so far, oldest first (public information)."""

    # --- copies and snapshots ---------------------------------------------
    @abstractmethod
    def clone(self) -> Self: ...

    @abstractmethod
    def to_json(self) -> JSON:
        """Full snapshot including hidden cards: for storage, never for a player."""

    @abstractmethod
    def view(self, seat: int | None) -> JSON:
        """What ``seat`` may see (None: a spectator), JSON-safe."""

    def views(self, seats: Iterable[int | None]) -> dict[int | None, JSON]:
        """``view(seat)`` for each of ``seats``, for a message to every seat at once.

        Engines build what all seats see once: the views may share those values, so
        they are read-only (serialized, never changed).
        """
        return {seat: self.view(seat) for seat in seats}

    @abstractmethod
    def determinize(self, seat: int | None, rng: Rng) -> Self:
        """A full state that ``seat`` cannot tell from this one, hidden cards re-dealt."""

    @abstractmethod
    def census(self) -> Counter[int]:
        """Count of every card in every place; equals :meth:`Game.deck` at all times."""

    def replayed(self) -> GameState[MoveT]:
        """This game replayed from its rules, seed and history."""
        return self.game.replay(self.rules, self.seed, self.history)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, GameState)
        return bool(self.to_json() == other.to_json())

    __hash__ = None  # type: ignore[assignment]


def require_keys(data: object, keys: Sequence[str], what: str) -> JSON:
    """Check that ``data`` is a JSON object holding ``keys``; used by ``from_json`` readers."""
    if not isinstance(data, dict):
        raise SerializationError(f"{what}: expected a JSON object")
    missing = [key for key in keys if key not in data]
    if missing:
        raise SerializationError(f"{what}: missing {', '.join(missing)}")
    return data

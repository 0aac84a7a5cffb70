"""Reading a Skip-Bo state back from its JSON snapshot, rejecting malformed ones."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from ..core import OptionError, Result, Rng, RoundResult, SerializationError, require_keys
from .cards import BUILDING_PILES, DISCARD_PILES, deck_counts
from .position import SkipBoPosition
from .rules import SkipBoRules

Position = TypeVar("Position", bound=SkipBoPosition)

_KEYS = [
    "game",
    "rules",
    "seed",
    "rng",
    "history",
    "round",
    "starter",
    "current",
    "turns",
    "idle",
    "built",
    "hands",
    "stocks",
    "discards",
    "building",
    "draw",
    "completed",
    "scores",
    "round_log",
    "result",
]


def _ints(value: object, what: str) -> list[int]:
    if not isinstance(value, list) or not all(
        isinstance(item, int) and not isinstance(item, bool) for item in value
    ):
        raise SerializationError(f"{what} must be a list of integers")
    return list(value)


def _cards(value: object, what: str) -> list[int]:
    cards = _ints(value, what)
    if any(not 0 <= card <= 12 for card in cards):
        raise SerializationError(f"{what} holds a card outside 0..12")
    return cards


def _nested(value: object, size: int, what: str) -> list[object]:
    if not isinstance(value, list) or len(value) != size:
        raise SerializationError(f"{what} must be a list of {size}")
    return value


def _cut(value: object, players: int) -> list[list[tuple[int, int]]]:
    if not isinstance(value, list):
        raise SerializationError("cut must be a list of passes")
    passes = []
    for draws in value:
        if not isinstance(draws, list):
            raise SerializationError("each pass of the cut is a list of [seat, card]")
        entries = []
        for entry in draws:
            pair = _cards(entry, "cut entry")
            if len(pair) != 2 or pair[0] >= players:
                raise SerializationError("a cut entry is [seat, card] for a seat of the game")
            entries.append((pair[0], pair[1]))
        passes.append(entries)
    return passes


def state_from_json(blank: Callable[[SkipBoRules, int], Position], data: object) -> Position:
    """The position a snapshot holds, filled into ``blank(rules, seed)`` (the state's
    :meth:`~cardtable.skipbo.state.SkipBoState.blank`)."""
    snap = require_keys(data, _KEYS, "Skip-Bo snapshot")
    if snap["game"] != "skipbo":
        raise SerializationError(f"not a Skip-Bo snapshot: game={snap['game']!r}")
    try:
        rules = SkipBoRules.from_record(snap["rules"])
    except (OptionError, TypeError) as error:
        raise SerializationError(f"bad rules in snapshot: {error}") from None
    seed = snap["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SerializationError("seed must be an integer")
    state = blank(rules, seed)
    n = rules.players
    try:
        state.rng = Rng.from_state(int(snap["rng"]))
    except (TypeError, ValueError):
        raise SerializationError("rng must be an integer in a string") from None
    state.history = _ints(snap["history"], "history")
    for name in ("round", "starter", "current", "turns", "idle"):
        value = snap[name]
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise SerializationError(f"{name} must be a non-negative integer")
        setattr(state, "round_index" if name == "round" else name, value)
    if state.current >= n or state.starter >= n:
        raise SerializationError("current and starter must be seats of the game")
    if not isinstance(snap["built"], bool):
        raise SerializationError("built must be true or false")
    state.built = snap["built"]
    hands = [_ints(hand, "hand") for hand in _nested(snap["hands"], n, "hands")]
    if any(len(hand) != 13 or min(hand) < 0 for hand in hands):
        raise SerializationError("each hand is 13 non-negative counts (Skip-Bo, 1..12)")
    state.hands = hands
    state.hand_sizes = [sum(hand) for hand in hands]
    state.stocks = [_cards(stock, "stock") for stock in _nested(snap["stocks"], n, "stocks")]
    state.discards = [
        [_cards(pile, "discard pile") for pile in _nested(piles, DISCARD_PILES, "discard piles")]
        for piles in _nested(snap["discards"], n, "discards")
    ]
    state.building = [
        _cards(pile, "building pile")
        for pile in _nested(snap["building"], BUILDING_PILES, "building")
    ]
    if any(len(pile) >= 12 for pile in state.building):
        raise SerializationError("a building pile holds at most 11 cards")
    state.draw = _cards(snap["draw"], "draw")
    state.completed = _cards(snap["completed"], "completed")
    state.scores = _ints(snap["scores"], "scores")
    if len(state.scores) != n:
        raise SerializationError(f"scores must hold {n} integers")
    try:
        state.round_log = [
            RoundResult(
                tuple(entry["points"]), tuple(entry["winners"]), entry["turns"], entry["blocked"]
            )
            for entry in snap["round_log"]
        ]
        result = snap["result"]
        state.final = (
            None
            if result is None
            else Result(tuple(result["winners"]), tuple(result["scores"]), result["blocked"])
        )
    except (KeyError, TypeError) as error:
        raise SerializationError(f"bad round log or result: {error}") from None
    state.cut = _cut(snap.get("cut", []), n)  # absent from snapshots before the option
    if state.census() != deck_counts():
        raise SerializationError("the snapshot does not hold exactly the 162 Skip-Bo cards")
    return state

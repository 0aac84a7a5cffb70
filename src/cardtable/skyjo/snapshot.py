"""Full JSON snapshots of a Skyjo state (hidden cards included: storage only).

Layout::

    {"game": "skyjo", "rules": {...}, "seed": 7, "rng": <int>, "history": [...],
     "round": 1, "phase": "turn", "player": 2, "starter": 2, "closer": null,
     "grids": [[card or null (removed), ... 12], ...],
     "face_up": [[bool, ... 12], ...],
     "draw": [...bottom..top], "discard": [...bottom..top], "hand": null,
     "totals": [...], "turns": 5, "reshuffled": false,
     "rounds": [{"points", "winners", "turns", "blocked", "closer", "doubled"}, ...]}
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ..core import JSON, Rng, RoundResult, SerializationError, require_keys
from . import cards as layout
from .position import PHASES, SkyjoPosition
from .rules import SkyjoRules

Position = TypeVar("Position", bound=SkyjoPosition)

KEYS = (
    "rules",
    "seed",
    "rng",
    "history",
    "round",
    "phase",
    "player",
    "starter",
    "closer",
    "grids",
    "face_up",
    "draw",
    "discard",
    "hand",
    "totals",
    "turns",
    "reshuffled",
    "rounds",
)


def state_to_json(state: SkyjoPosition) -> JSON:
    grids: list[list[int | None]] = []
    face_up: list[list[bool]] = []
    for seat in range(state.n):
        present, down, base = state.present[seat], state.down[seat], seat * layout.SLOTS
        grids.append(
            [state.cards[base + p] if present >> p & 1 else None for p in range(layout.SLOTS)]
        )
        face_up.append([bool(present >> p & 1 and not down >> p & 1) for p in range(layout.SLOTS)])
    return {
        "game": "skyjo",
        "rules": state.rules.to_json(),
        "seed": state.seed,
        "rng": state.rng.state,
        "history": state.history[:],
        "round": state.round,
        "phase": PHASES[state.phase],
        "player": state.current_player,
        "starter": state.starter,
        "closer": state.closer,
        "grids": grids,
        "face_up": face_up,
        "draw": state.draw[:],
        "discard": state.discard[:],
        "hand": state.hand,
        "totals": state.totals[:],
        "turns": state.turns,
        "reshuffled": state.reshuffled,
        "rounds": [
            {**result.to_json(), "closer": closer, "doubled": doubled}
            for result, closer, doubled in zip(
                state.finished, state.closers, state.doubled, strict=True
            )
        ],
    }


def _int(value: object, what: str, low: int | None = None, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise SerializationError(f"skyjo state: {what} must be an integer")
    if (low is not None and value < low) or (high is not None and value > high):
        raise SerializationError(f"skyjo state: {what} out of range")
    return value


def _card(value: object, what: str) -> int:
    return _int(value, what, layout.LOWEST, layout.HIGHEST)


def _seat_or_none(value: object, what: str, n: int) -> int | None:
    return None if value is None else _int(value, what, 0, n - 1)


def _list(value: object, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise SerializationError(f"skyjo state: {what} must be a list")
    return value


def state_from_json(blank: Callable[[SkyjoRules, int], Position], data: object) -> Position:
    """The position a snapshot holds, filled into ``blank(rules, seed)`` (the state's
    :meth:`~cardtable.skyjo.state.SkyjoState.blank`)."""
    obj = require_keys(data, KEYS, "skyjo state")
    if obj.get("game", "skyjo") != "skyjo":
        raise SerializationError("skyjo state: 'game' is not skyjo")
    try:
        rules = SkyjoRules.from_json(obj["rules"])
    except (TypeError, ValueError) as error:
        raise SerializationError(f"skyjo state: bad rules: {error}") from error
    n = rules.players
    state = blank(rules, _int(obj["seed"], "seed"))
    state.rng = Rng.from_state(_int(obj["rng"], "rng", 0))
    state.history = [_int(a, "history entry", 0) for a in _list(obj["history"], "history")]
    state.round = _int(obj["round"], "round", 1)
    phase = obj["phase"]
    if phase not in PHASES:
        raise SerializationError(f"skyjo state: unknown phase {phase!r}")
    state.phase = PHASES.index(phase)
    player = _seat_or_none(obj["player"], "player", n)
    if (player is None) != (phase == "over"):
        raise SerializationError("skyjo state: 'player' is null exactly when the game is over")
    state.player = 0 if player is None else player
    state.starter = _seat_or_none(obj["starter"], "starter", n)
    state.closer = _seat_or_none(obj["closer"], "closer", n)
    grids = _list(obj["grids"], "grids")
    face_up = _list(obj["face_up"], "face_up")
    if len(grids) != n or len(face_up) != n:
        raise SerializationError(f"skyjo state: need {n} grids")
    state.cards = []
    state.present = []
    state.down = []
    for seat in range(n):
        row = _list(grids[seat], "grid")
        ups = _list(face_up[seat], "face_up")
        if len(row) != layout.SLOTS or len(ups) != layout.SLOTS:
            raise SerializationError(f"skyjo state: a grid has {layout.SLOTS} positions")
        present = down = 0
        for pos, (card, up) in enumerate(zip(row, ups, strict=True)):
            if not isinstance(up, bool):
                raise SerializationError("skyjo state: face_up entries are booleans")
            if card is None:
                if up:
                    raise SerializationError("skyjo state: a removed position cannot be face up")
                state.cards.append(0)
                continue
            state.cards.append(_card(card, "grid card"))
            present |= 1 << pos
            if not up:
                down |= 1 << pos
        state.present.append(present)
        state.down.append(down)
    state.draw = [_card(c, "draw card") for c in _list(obj["draw"], "draw")]
    state.discard = [_card(c, "discard card") for c in _list(obj["discard"], "discard")]
    state.hand = None if obj["hand"] is None else _card(obj["hand"], "hand")
    if (state.hand is not None) != (phase in ("drawn", "taken")):
        raise SerializationError("skyjo state: a card is held exactly in the drawn/taken phases")
    totals = _list(obj["totals"], "totals")
    if len(totals) != n:
        raise SerializationError(f"skyjo state: need {n} totals")
    state.totals = [_int(t, "total") for t in totals]
    state.turns = _int(obj["turns"], "turns", 0)
    if phase != "over" and state.turns >= rules.turn_limit:
        raise SerializationError("skyjo state: a round in play is below the turn limit")
    reshuffled = obj["reshuffled"]
    if not isinstance(reshuffled, bool):
        raise SerializationError("skyjo state: 'reshuffled' is a boolean")
    state.reshuffled = reshuffled
    state.finished = []
    state.closers = []
    state.doubled = []
    for entry in _list(obj["rounds"], "rounds"):
        item = require_keys(entry, ("points", "winners", "turns", "closer", "doubled"), "round")
        points = tuple(_int(p, "round points") for p in _list(item["points"], "points"))
        winners = tuple(_int(w, "round winner", 0, n - 1) for w in _list(item["winners"], "w"))
        if len(points) != n:
            raise SerializationError(f"skyjo state: need {n} round points")
        # "blocked" (a round ended by the turn limit) is absent from older snapshots.
        blocked = item.get("blocked", False)
        if not isinstance(blocked, bool):
            raise SerializationError("skyjo state: a round's 'blocked' is a boolean")
        turns = _int(item["turns"], "round turns", 0)
        state.finished.append(RoundResult(points, winners, turns, blocked))
        closer = _seat_or_none(item["closer"], "round closer", n)
        if closer is None and not blocked:
            raise SerializationError("skyjo state: only a blocked round may have no closer")
        state.closers.append(closer)
        if not isinstance(item["doubled"], bool):
            raise SerializationError("skyjo state: 'doubled' is a boolean")
        if item["doubled"] and blocked:
            raise SerializationError("skyjo state: nobody is doubled in a blocked round")
        state.doubled.append(item["doubled"])
    if state.census() != layout.deck():
        raise SerializationError("skyjo state: cards are not the 150 cards of the deck")
    return state

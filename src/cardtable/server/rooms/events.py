"""Versioned room events and how each is shown to one recipient.

A room keeps :class:`EventRecord` objects holding public facts only: a room summary,
the start of a game, or a move's public ``Outcome.to_json()``. What a recipient gets
adds the view of its own seat (``state.view(seat)``, spectators ``None``) at that
point of the game; nothing else about the state ever leaves the server.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from ...core import JSON, Game, GameState, RulesBase

ROOM = "room"
START = "start"
MOVE = "move"


@dataclasses.dataclass(frozen=True, slots=True)
class EventRecord:
    version: int
    kind: str
    #: Moves played in the current game when the event happened (start and move events).
    position: int | None
    payload: JSON


def render(record: EventRecord, game_no: int, view: JSON | None) -> JSON:
    """The message for one recipient; ``view`` is that recipient's view at the event."""
    data: JSON = {"type": "event", "version": record.version, "kind": record.kind}
    if record.kind == ROOM:
        data["room"] = record.payload
    elif record.kind == START:
        data["game_no"] = game_no
        data["view"] = view
    else:
        data["game_no"] = game_no
        data["index"] = (record.position or 0) - 1
        data["outcome"] = record.payload
        data["view"] = view
    return data


def views_at(
    game: Game[Any],
    rules: RulesBase,
    seed: int,
    history: Sequence[int],
    positions: Sequence[int],
    seat: int | None,
) -> dict[int, JSON]:
    """The views of ``seat`` after each of ``positions`` moves, by replaying the game once."""
    wanted = sorted(set(positions))
    views: dict[int, JSON] = {}
    if not wanted:
        return views
    state: GameState[Any] = game.new_state(rules, seed)
    done = 0
    for position in wanted:
        while done < position:
            state.apply_action(history[done])
            done += 1
        views[position] = state.view(seat)
    return views

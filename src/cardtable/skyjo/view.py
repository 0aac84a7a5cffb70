"""What one seat may see of a Skyjo state.

Everything face up is public: face-up grid cards, the whole discard pile (every
card on it went there face up), the card held after drawing or taking the
discard, totals and past rounds. Face-down cards are unknown to everyone,
their owner included, and appear as ``null``; only the size of the draw pile
is shown.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from ..core import JSON
from . import cards as layout
from .position import DRAWN, PHASES, TAKEN, SkyjoPosition
from .rules import SkyjoRules


@functools.lru_cache(maxsize=64)
def _rules_json(rules: SkyjoRules) -> dict[str, Any]:
    return rules.to_json()


def rules_json(rules: SkyjoRules) -> dict[str, Any]:
    """``rules.to_json()`` (a fresh dict each time), computed once per rules object."""
    return dict(_rules_json(rules))


def _status(present: int, down: int, pos: int) -> str:
    if not present >> pos & 1:
        return "removed"
    return "down" if down >> pos & 1 else "up"


#: The 12 statuses of a grid per ``(present, down)``, filled on first use (views are
#: built at every move, so the per-position work is done once per pair of masks).
_STATUSES: dict[tuple[int, int], tuple[str, ...]] = {}
_STATUSES_LIMIT = 1 << 15


def _statuses(present: int, down: int) -> tuple[str, ...]:
    key = (present, down)
    row = _STATUSES.get(key)
    if row is None:
        if len(_STATUSES) >= _STATUSES_LIMIT:
            _STATUSES.clear()
        row = _STATUSES[key] = tuple(_status(present, down, p) for p in range(layout.SLOTS))
    return row


def seat_view(state: SkyjoPosition, seat: int | None) -> JSON:
    """The view of ``seat`` (None: a spectator); JSON-safe."""
    return seat_views(state, (seat,))[seat]


def seat_views(state: SkyjoPosition, seats: Iterable[int | None]) -> dict[int | None, JSON]:
    """The view of each of ``seats``. Every seat sees the same cards in Skyjo: the views
    differ only in whose they are and in the mover's legal moves, so the rest is built
    once and shared (read-only) by the views."""
    public = _public_view(state)
    current = state.current_player
    views: dict[int | None, JSON] = {}
    for seat in seats:
        view = dict(public)
        view["seat"] = seat
        if seat is not None and seat == current:
            view["legal_actions"] = state.legal_actions()
        views[seat] = view
    return views


def _public_view(state: SkyjoPosition) -> JSON:
    """What every seat sees, as a spectator's view."""
    n = state.n
    slots = layout.SLOTS
    positions = layout.MASK_POSITIONS
    full = layout.FULL
    cards = state.cards
    grids: list[list[int | None]] = []
    status: list[list[str]] = []
    for owner in range(n):
        present, down, base = state.present[owner], state.down[owner], owner * slots
        grid: list[int | None] = list(cards[base : base + slots])
        for p in positions[full & ~(present & ~down)]:  # face down or removed
            grid[p] = None
        grids.append(grid)
        status.append(list(_statuses(present, down)))
    current = state.current_player
    held_from = {DRAWN: "draw", TAKEN: "discard"}.get(state.phase)
    return {
        "game": "skyjo",
        "seat": None,
        "players": n,
        "rules": rules_json(state.rules),
        "round": state.round,
        "phase": PHASES[state.phase],
        "current_player": current,
        "starter": state.starter,
        "grids": grids,
        "status": status,
        "face_up_sums": [state.face_up_sum(owner) for owner in range(n)],
        "discard": state.discard[:],
        "discard_top": state.discard[-1] if state.discard else None,
        "draw_count": len(state.draw),
        "reshuffled": state.reshuffled,
        "hand": state.hand,
        "hand_from": held_from,
        "closer": state.closer,
        "final_turns": state.closer is not None,
        "turns": state.turns,
        "totals": state.totals[:],
        "rounds": [
            {**result.to_json(), "closer": closer, "doubled": doubled}
            for result, closer, doubled in zip(
                state.finished, state.closers, state.doubled, strict=True
            )
        ],
        "legal_actions": [],
        "result": None if (result := state.result()) is None else result.to_json(),
    }

"""What one seat may see of a Skyjo state.

Everything face up is public: face-up grid cards, the whole discard pile (every
card on it went there face up), the card held after drawing or taking the
discard, totals and past rounds. Face-down cards are unknown to everyone,
their owner included, and appear as ``null``; only the size of the draw pile
is shown.
"""

from __future__ import annotations

from ..core import JSON
from . import cards as layout
from .state import DRAWN, PHASES, TAKEN, SkyjoState


def _status(present: int, down: int, pos: int) -> str:
    if not present >> pos & 1:
        return "removed"
    return "down" if down >> pos & 1 else "up"


def seat_view(state: SkyjoState, seat: int | None) -> JSON:
    """The view of ``seat`` (None: a spectator); JSON-safe."""
    n = state.n
    grids: list[list[int | None]] = []
    status: list[list[str]] = []
    for owner in range(n):
        present, down, base = state.present[owner], state.down[owner], owner * layout.SLOTS
        up = present & ~down
        grids.append([state.cards[base + p] if up >> p & 1 else None for p in range(layout.SLOTS)])
        status.append([_status(present, down, p) for p in range(layout.SLOTS)])
    current = state.current_player
    held_from = {DRAWN: "draw", TAKEN: "discard"}.get(state.phase)
    return {
        "game": "skyjo",
        "seat": seat,
        "players": n,
        "rules": state.rules.to_json(),
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
        "legal_actions": state.legal_actions() if seat is not None and seat == current else [],
        "result": None if (result := state.result()) is None else result.to_json(),
    }

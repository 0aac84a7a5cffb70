"""What one seat may see of a Skip-Bo game.

Visible to all: every stock's top card and size, every discard pile in full, the
building piles, hand sizes, the sizes of the draw pile and of the completed
piles, scores. Visible to its owner only: the hand. Visible to nobody: stock
cards below the top and the draw order.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from ..core import JSON
from .position import SkipBoPosition
from .rules import SkipBoRules


@functools.lru_cache(maxsize=64)
def _rules_json(rules: SkipBoRules) -> dict[str, Any]:
    return rules.to_json()


def rules_json(rules: SkipBoRules) -> dict[str, Any]:
    """``rules.to_json()`` (a fresh dict each time), computed once per rules object."""
    return dict(_rules_json(rules))


def build_view(state: SkipBoPosition, seat: int | None) -> JSON:
    return build_views(state, (seat,))[seat]


def build_views(state: SkipBoPosition, seats: Iterable[int | None]) -> dict[int | None, JSON]:
    """The view of each of ``seats``: what all see is built once and shared (read-only)
    by the views; each seat's own hand is added to its own."""
    seats = list(seats)
    for seat in seats:
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < state.n):
            raise ValueError(f"seat must be None or 0..{state.n - 1}, got {seat!r}")
    public = _public_view(state)
    views: dict[int | None, JSON] = {}
    for seat in seats:
        view = dict(public)
        view["seat"] = seat
        if seat is not None:
            view["hand"] = state.hand_cards(seat)
            view["legal_actions"] = state.legal_actions() if seat == state.current_player else []
        views[seat] = view
    return views


def _public_view(state: SkipBoPosition) -> JSON:
    """What every seat sees, as a spectator's view."""
    rules = state.rules
    n = state.n
    teams = rules.teams
    partners, hand_sizes, scores = state.partners, state.hand_sizes, state.scores
    players = []
    for owner, (stock, piles) in enumerate(zip(state.stocks, state.discards, strict=True)):
        players.append(
            {
                "seat": owner,
                "team": owner % (n // 2) if teams else None,
                "partner": partners[owner],
                "hand_size": hand_sizes[owner],
                "stock_size": len(stock),
                "stock_top": stock[-1] if stock else None,
                "discards": [pile[:] for pile in piles],
                "score": scores[owner],
            }
        )
    result = state.result()
    view: JSON = {
        "game": "skipbo",
        "seat": None,
        "rules": rules_json(rules),
        "round": state.round_index + 1,
        "turn": state.turns,
        "current": state.current_player,
        "players": players,
        "building": [pile[:] for pile in state.building],
        "building_next": [len(pile) + 1 for pile in state.building],
        "draw_size": len(state.draw),
        "completed_size": len(state.completed),
        "moves_played": len(state.history),
        # Turns in a row without a card built while nothing is left to draw (the
        # idle_limit house rule counts them; public: every build is seen by all).
        "idle_turns": state.idle,
        "dealer": (state.starter - 1) % n if rules.high_card_deal else None,
        "cut": [[list(entry) for entry in draws] for draws in state.cut],
        "rounds": [entry.to_json() for entry in state.round_log],
        "result": None if result is None else result.to_json(),
    }
    return view

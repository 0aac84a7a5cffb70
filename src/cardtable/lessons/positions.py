"""Lesson positions as full engine snapshots, from the few cards a step is about.

A step says what the learner must see (hands, stocks, piles, grids) and which cards
come next off the draw pile; the rest of the deck is shuffled below them with the
step's seed, so the snapshot holds exactly the game's cards. The snapshot is then read
back by the engine's own reader (``state_from_json``), which refuses any position that
is not a position of the game: a lesson cannot teach from an impossible table.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..core import JSON, Rng
from ..skipbo import GAME as SKIPBO
from ..skipbo import SkipBoRules
from ..skipbo.cards import BUILDING_PILES, DISCARD_PILES, deck_counts
from ..skyjo import GAME as SKYJO
from ..skyjo import SkyjoRules
from ..skyjo.cards import SLOTS, deck


@dataclasses.dataclass(frozen=True)
class Down:
    """A face-down Skyjo card of a lesson grid."""

    card: int


#: A Skyjo grid cell: a face-up card, a face-down one, or None (its column was removed).
Cell = int | Down | None


def _rest(full: Counter[int], used: Counter[int], seed: int) -> list[int]:
    missing = used - full
    if missing:
        raise ValueError(f"a lesson position uses more cards than the deck holds: {missing}")
    rest = sorted((full - used).elements())
    Rng(seed).shuffle(rest)
    return rest


def skipbo_snapshot(
    *,
    rules: dict[str, Any],
    hands: Sequence[Sequence[int]],
    stocks: Sequence[Sequence[int]],
    building: Sequence[Sequence[int]] = (),
    discards: Sequence[Sequence[Sequence[int]]] = (),
    draw_next: Sequence[int] = (),
    scores: Sequence[int] = (),
    current: int = 0,
    seed: int = 1,
) -> JSON:
    """A Skip-Bo snapshot: ``stocks`` bottom to top, ``building`` and ``discards`` likewise
    (missing piles are empty), ``draw_next`` the cards drawn next, first drawn first."""
    parsed = SkipBoRules.from_json(rules)
    base = SKIPBO.new_state(parsed, seed).to_json()
    n = parsed.players
    piles = [list(pile) for pile in building] + [[] for _ in range(BUILDING_PILES - len(building))]
    own = [[list(pile) for pile in seat] for seat in discards]
    own += [[] for _ in range(n - len(own))]
    own = [seat + [[] for _ in range(DISCARD_PILES - len(seat))] for seat in own]
    used = Counter(card for cards in (*hands, *stocks, *piles, draw_next) for card in cards)
    used += Counter(card for seat in own for pile in seat for card in pile)
    rest = _rest(deck_counts(), used, seed)
    counts = []
    for hand in hands:
        tally = Counter(hand)
        counts.append([tally[card] for card in range(13)])
    return {
        **base,
        "history": [],
        "current": current,
        "starter": current,
        "turns": 1,
        "idle": 0,
        "built": False,
        "hands": counts,
        "stocks": [list(stock) for stock in stocks],
        "discards": own,
        "building": piles,
        "draw": rest + list(reversed(draw_next)),
        "completed": [],
        "scores": list(scores) or [0] * n,
        "round_log": [],
        "result": None,
        "cut": [],
    }


def skyjo_snapshot(
    *,
    rules: dict[str, Any],
    grids: Sequence[Sequence[Cell]],
    discard: Sequence[int],
    draw_next: Sequence[int] = (),
    phase: str = "turn",
    player: int = 0,
    starter: int | None = 0,
    closer: int | None = None,
    totals: Sequence[int] = (),
    turns: int = 0,
    seed: int = 1,
) -> JSON:
    """A Skyjo snapshot: each grid's 12 cells row by row, ``discard`` bottom to top,
    ``draw_next`` the cards drawn next, first drawn first."""
    parsed = SkyjoRules.from_json(rules)
    base = SKYJO.new_state(parsed, seed).to_json()
    if any(len(grid) != SLOTS for grid in grids):
        raise ValueError(f"a Skyjo grid has {SLOTS} cells")
    cards = [[_card_of(cell) for cell in grid] for grid in grids]
    used = Counter(card for grid in cards for card in grid if card is not None)
    used += Counter(discard) + Counter(draw_next)
    rest = _rest(deck(), used, seed)
    return {
        **base,
        "history": [],
        "round": 1,
        "phase": phase,
        "player": player,
        "starter": starter,
        "closer": closer,
        "grids": cards,
        "face_up": [[isinstance(cell, int) for cell in grid] for grid in grids],
        "draw": rest + list(reversed(draw_next)),
        "discard": list(discard),
        "hand": None,
        "totals": list(totals) or [0] * parsed.players,
        "turns": turns,
        "reshuffled": False,
        "rounds": [],
    }


def _card_of(cell: Cell) -> int | None:
    return cell.card if isinstance(cell, Down) else cell

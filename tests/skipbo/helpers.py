"""Build Skip-Bo positions for scenario tests.

Every card not placed explicitly goes to the draw pile; when the draw pile is
given, to the completed piles; when both are given, under the last seat's stock.
So positions always hold exactly the 162 cards.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardtable.core import Rng, play_random
from cardtable.skipbo import GAME, SKIP_BO, SkipBoRules, SkipBoState
from cardtable.skipbo.cards import new_deck

SB = SKIP_BO


def position(
    rules: SkipBoRules | None = None,
    *,
    current: int = 0,
    hands: dict[int, list[int]] | None = None,
    stocks: dict[int, list[int]] | None = None,
    discards: dict[int, list[list[int]]] | None = None,
    building: list[list[int]] | None = None,
    draw: list[int] | None = None,
    completed: list[int] | None = None,
    seed: int = 1,
    **fields: Any,
) -> SkipBoState:
    """A position where ``current`` is to move; piles list their cards bottom to top."""
    rules = rules or SkipBoRules()
    n = rules.players
    hands = hands or {}
    stocks = stocks or {}
    discards = discards or {}
    building = building or [[], [], [], []]
    placed: list[int] = []
    hand_counts = []
    for seat in range(n):
        counts = [0] * 13
        for card in hands.get(seat, []):
            counts[card] += 1
        hand_counts.append(counts)
        placed += hands.get(seat, [])
    stock_lists = [list(stocks.get(seat, [])) for seat in range(n)]
    discard_lists = [
        [list(pile) for pile in discards.get(seat, [[], [], [], []])] for seat in range(n)
    ]
    for seat in range(n):
        placed += stock_lists[seat]
        for pile in discard_lists[seat]:
            placed += pile
    for pile in building:
        placed += pile
    placed += draw or []
    placed += completed or []
    left = Counter(new_deck())
    left.subtract(placed)
    if any(count < 0 for count in left.values()):
        raise ValueError(f"position uses too many cards: {-left}")
    rest = sorted(left.elements())
    if draw is None:
        draw, completed = rest, completed or []
    elif completed is None:
        completed = rest
    else:
        # Both given: the spare cards wait under the last seat's stock, out of play.
        stock_lists[-1][:0] = rest
    snapshot = GAME.new_state(rules, seed).to_json()
    snapshot.update(
        current=current,
        hands=hand_counts,
        stocks=stock_lists,
        discards=discard_lists,
        building=[list(pile) for pile in building],
        draw=list(draw),
        completed=list(completed),
        history=[],
        turns=1,
        idle=0,
        built=False,
    )
    snapshot.update(fields)
    return GAME.state_from_json(snapshot)


def filler(count: int) -> list[int]:
    """``count`` ordinary cards (5 to 10 in turn) for piles whose content does not matter."""
    return [5 + i % 6 for i in range(count)]


def random_play(rules: SkipBoRules, seed: int, moves: int) -> SkipBoState:
    """The position after up to ``moves`` random moves of a game dealt from ``seed``."""
    state = GAME.new_state(rules, seed)
    play_random(state, Rng(seed), moves)
    return state

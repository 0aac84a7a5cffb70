"""Skip-Bo cards as small ints: 1..12 are numbers, 0 is the Skip-Bo wild card."""

from __future__ import annotations

from collections import Counter

SKIP_BO = 0
"""The wild card: counts as whatever number the building pile needs next."""

VALUES = range(13)
"""Every card identity: 0 (Skip-Bo) and 1..12."""

HIGHEST = 12
"""A building pile that reaches this number is complete."""

COPIES_PER_NUMBER = 12
WILD_CARDS = 18
DECK_SIZE = COPIES_PER_NUMBER * HIGHEST + WILD_CARDS  # 162

HAND_SIZE = 5
BUILDING_PILES = 4
DISCARD_PILES = 4


def deck_counts() -> Counter[int]:
    counts: Counter[int] = Counter({number: COPIES_PER_NUMBER for number in range(1, 13)})
    counts[SKIP_BO] = WILD_CARDS
    return counts


_ORDERED_DECK = (SKIP_BO,) * WILD_CARDS + tuple(
    n for n in range(1, 13) for _ in range(COPIES_PER_NUMBER)
)


def new_deck() -> list[int]:
    """The 162 cards in a fixed order (to be shuffled with the state's RNG); a new list."""
    return list(_ORDERED_DECK)


def card_name(card: int) -> str:
    return "Skip-Bo" if card == SKIP_BO else str(card)


def with_article(card: int) -> str:
    """'a 7', 'an 8', 'an 11', 'a Skip-Bo card'."""
    name = card_name(card)
    if card == SKIP_BO:
        return "a Skip-Bo card"
    return f"an {name}" if card in (8, 11) else f"a {name}"

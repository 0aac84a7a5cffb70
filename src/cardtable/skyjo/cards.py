"""The Skyjo deck and the geometry of a player's grid.

Cards are plain ints from -2 to 12. A grid has 12 positions numbered row by
row: position ``pos`` sits in row ``pos // 4`` and column ``pos % 4``.
"""

from __future__ import annotations

from collections import Counter

#: Published card counts: five -2, ten -1, fifteen 0 and ten each of 1..12 (150 cards).
DECK_COUNTS: dict[int, int] = {-2: 5, -1: 10, 0: 15, **{value: 10 for value in range(1, 13)}}
DECK_SIZE = sum(DECK_COUNTS.values())
LOWEST = -2
HIGHEST = 12

ROWS = 3
COLS = 4
SLOTS = ROWS * COLS
FULL = (1 << SLOTS) - 1  # bitmask with every position set

#: Positions of each column, top to bottom, and of each row, left to right.
COLUMN_POSITIONS: tuple[tuple[int, ...], ...] = tuple(
    tuple(row * COLS + col for row in range(ROWS)) for col in range(COLS)
)
ROW_POSITIONS: tuple[tuple[int, ...], ...] = tuple(
    tuple(row * COLS + col for col in range(COLS)) for row in range(ROWS)
)
COLUMN_MASKS: tuple[int, ...] = tuple(sum(1 << p for p in ps) for ps in COLUMN_POSITIONS)
ROW_MASKS: tuple[int, ...] = tuple(sum(1 << p for p in ps) for ps in ROW_POSITIONS)

#: For each bitmask of positions, the positions set in it, ascending.
MASK_POSITIONS: tuple[tuple[int, ...], ...] = tuple(
    tuple(p for p in range(SLOTS) if mask >> p & 1) for mask in range(1 << SLOTS)
)


def deck() -> Counter[int]:
    """Every card with its count."""
    return Counter(DECK_COUNTS)


_SORTED_DECK = tuple(value for value, count in sorted(DECK_COUNTS.items()) for _ in range(count))


def new_deck() -> list[int]:
    """The 150 cards in a fixed (sorted) order, ready to shuffle (a new list each time)."""
    return list(_SORTED_DECK)


def position_name(pos: int) -> str:
    """A position for humans: ``row 2, column 3`` (both counted from 1)."""
    return f"row {pos // COLS + 1}, column {pos % COLS + 1}"

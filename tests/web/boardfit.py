"""Measuring a table as drawn: where every card, pile place and hand count of the board
lies, in which player's place (or the middle, or the hand), and what is wrong with it.

``measure(page)`` runs MEASURE in the page and returns the board's items with their
rectangles, the violations by name (a card or an empty pile place outside its place,
outside the screen, over another pile; places over each other; a sideways scroll), the
smallest card and how much of the board's height the cards span. Both games are
measured the same way: a Skip-Bo discard pile counts with its fanned cards and its "+N"
marker, a Skyjo grid cell is a card of its player's grid."""

from __future__ import annotations

from pathlib import Path
from typing import Any

MEASURE = (Path(__file__).parent / "boardfit.js").read_text(encoding="utf-8")


def measure(
    page: Any, first_screen: list[str] | None = None, whole_page: bool = False
) -> dict[str, Any]:
    """The board's items and violations. ``first_screen``: on a phone, the id prefixes of
    what must be on the first screen (the rest may be below it, never beside it); None:
    everything must be on screen. ``whole_page``: the page must not scroll at all."""
    found: dict[str, Any] = page.evaluate(
        MEASURE, {"firstScreen": first_screen, "wholePage": whole_page}
    )
    return found

"""Skyjo rules options: each field's default, meaning, label and range, declared once."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from ..core import RulesBase, option

MIN_PLAYERS = 2
MAX_PLAYERS = 8
MIN_END_SCORE = 1
MAX_END_SCORE = 1000
MIN_TURN_LIMIT = 100
MAX_TURN_LIMIT = 1_000_000


@dataclasses.dataclass(frozen=True)
class SkyjoRules(RulesBase):
    """Options of a Skyjo game; see docs/rules/skyjo.md for each reading."""

    game: ClassVar[str] = "skyjo"

    players: int = option(
        4,
        meaning="Seats at the table.",
        label="option.skyjo.players",
        low=MIN_PLAYERS,
        high=MAX_PLAYERS,
    )
    end_score: int = option(
        100,
        meaning="The game ends after a round in which a total reaches it.",
        label="option.skyjo.end_score",
        low=MIN_END_SCORE,
        high=MAX_END_SCORE,
    )
    rows_rule: bool = option(
        False,
        meaning="Four equal face-up cards in a row also leave the grid (a later variant).",
        label="option.skyjo.rows_rule",
    )
    closer_starts_next: bool = option(
        False,
        meaning="The player who ended a round starts the next one (the published rule) "
        "instead of the highest sum of the two first face-up cards.",
        label="option.skyjo.closer_starts_next",
    )
    closer_doubling: bool = option(
        True,
        meaning="The closer's positive round score is doubled unless strictly the lowest.",
        label="option.skyjo.closer_doubling",
    )
    turn_limit: int = option(
        1000,
        meaning="Safeguard: a round that reaches this many turns ends at once, scored as "
        "usual but with no doubling, and counts as blocked.",
        label="option.skyjo.turn_limit",
        low=MIN_TURN_LIMIT,
        high=MAX_TURN_LIMIT,
    )

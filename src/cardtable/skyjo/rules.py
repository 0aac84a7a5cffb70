"""Skyjo rules options."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from ..core import RulesBase, check_bool, check_int

MIN_PLAYERS = 2
MAX_PLAYERS = 8
MIN_END_SCORE = 1
MAX_END_SCORE = 1000
MIN_TURN_LIMIT = 100
MAX_TURN_LIMIT = 1_000_000


@dataclasses.dataclass(frozen=True)
class SkyjoRules(RulesBase):
    """Options of a Skyjo game; see docs/rules/skyjo.md for each reading.

    - ``players``: 2 to 8 seats (default 4).
    - ``end_score``: the game ends after a round in which a total reaches it (default 100).
    - ``rows_rule``: four equal face-up cards in a row also leave the grid (default off).
    - ``closer_starts_next``: the player who ended a round starts the next one instead of
      the highest sum of the two first face-up cards (default off).
    - ``closer_doubling``: the closer's positive round score is doubled unless strictly
      the lowest (default on).
    - ``turn_limit``: safeguard: a round that reaches this many turns ends at once, scored
      as usual but with no doubling, and counts as blocked (default 1000).
    """

    game: ClassVar[str] = "skyjo"

    players: int = 4
    end_score: int = 100
    rows_rule: bool = False
    closer_starts_next: bool = False
    closer_doubling: bool = True
    turn_limit: int = 1000

    def validate(self) -> None:
        check_int("players", self.players, MIN_PLAYERS, MAX_PLAYERS)
        check_int("end_score", self.end_score, MIN_END_SCORE, MAX_END_SCORE)
        check_bool("rows_rule", self.rows_rule)
        check_bool("closer_starts_next", self.closer_starts_next)
        check_bool("closer_doubling", self.closer_doubling)
        check_int("turn_limit", self.turn_limit, MIN_TURN_LIMIT, MAX_TURN_LIMIT)

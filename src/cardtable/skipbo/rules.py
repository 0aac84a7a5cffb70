"""Skip-Bo rules options: each field's default, meaning, label and range, declared once
(validated on construction; see docs/rules/skipbo.md)."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from ..core import Requirement, RulesBase, option
from .cards import DECK_SIZE, HAND_SIZE

MIN_PLAYERS = 2
MAX_PLAYERS = 6
MIN_STOCK = 5
MAX_STOCK = 30


def default_stock(players: int) -> int:
    """30 cards each for 2 to 4 players, 20 for 5 or 6 (all four sheets agree)."""
    return 30 if players <= 4 else 20


def max_stock(players: int) -> int:
    """The largest stock that still leaves every player a first hand of five."""
    return min(MAX_STOCK, (DECK_SIZE - HAND_SIZE * players) // players)


@dataclasses.dataclass(frozen=True)
class SkipBoRules(RulesBase):
    """Options of a Skip-Bo game. Defaults follow the rule sheets."""

    game: ClassVar[str] = "skipbo"

    players: int = option(
        2,
        meaning="Seats at the table.",
        label="option.skipbo.players",
        low=MIN_PLAYERS,
        high=MAX_PLAYERS,
    )
    stock_size: int | None = option(
        None,
        meaning="Cards in each stock pile; None means 30 for 2-4 players and 20 for 5-6.",
        label="option.skipbo.stock_size",
        low=MIN_STOCK,
        high=lambda rules: max_stock(rules.players),
    )
    teams: bool = option(
        False,
        meaning="Team play: 4 or 6 players, partners sit opposite each other.",
        label="option.skipbo.teams",
        requires=(Requirement("allowed.teams_players", lambda rules: rules.players in (4, 6)),),
    )
    discard_to_partner: bool = option(
        False,
        meaning="Team play only: a player may also end the turn on the partner's discard piles.",
        label="option.skipbo.discard_to_partner",
        requires=(Requirement("allowed.needs_teams", lambda rules: rules.teams),),
    )
    rounds: bool = option(
        False,
        meaning="Multi-round scoring: rounds are played until a player or team reaches ``target``.",
        label="option.skipbo.rounds",
    )
    target: int = option(
        500,
        meaning="Points that win a multi-round match.",
        label="option.skipbo.target",
        low=1,
        high=100_000,
    )
    round_bonus: int = option(
        25,
        meaning="Points for winning a round.",
        label="option.skipbo.round_bonus",
        low=0,
        high=10_000,
    )
    points_per_card: int = option(
        5,
        meaning="Points per card left in the opponents' stocks (sheet 003 says 1, the others 5).",
        label="option.skipbo.points_per_card",
        low=0,
        high=1_000,
    )
    first_player: int | None = option(
        None,
        meaning="Seat that starts round 1; None lets the seed choose (stands in for 'the "
        "youngest').",
        label="option.skipbo.first_player",
        low=0,
        high=lambda rules: rules.players - 1,
    )
    turn_limit: int = option(
        5000,
        meaning="Safeguard: a round still running after this many turns ends as blocked.",
        label="option.skipbo.turn_limit",
        low=100,
        high=1_000_000,
    )

    @property
    def stock(self) -> int:
        """The stock size in force."""
        return default_stock(self.players) if self.stock_size is None else self.stock_size

    def partner(self, seat: int) -> int | None:
        """The seat opposite ``seat`` in team play, else None."""
        return (seat + self.players // 2) % self.players if self.teams else None

    def team(self, seat: int) -> tuple[int, ...]:
        """The seats that win together with ``seat``."""
        partner = self.partner(seat)
        return (seat,) if partner is None else tuple(sorted((seat, partner)))

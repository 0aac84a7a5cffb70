"""Skip-Bo rules options: each field's default, meaning, label and range, declared once
(validated on construction; see docs/rules/skipbo.md)."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from ..core import Requirement, RulesBase, option
from .cards import DECK_SIZE, HAND_SIZE

MIN_PLAYERS = 2
MAX_PLAYERS = 6
MIN_STOCK = 5
MAX_STOCK = 30
#: The rules edition this release plays. Edition 1 is the ruling before 2026-12 (a round
#: was blocked after one idle turn per seat), kept to replay games recorded under it.
EDITION = 2
MAX_IDLE_LIMIT = 100_000


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
    # Records written before the edition field existed were played under edition 1.
    recorded_defaults: ClassVar[dict[str, Any]] = {"edition": 1}

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
        requires=(
            Requirement(
                "allowed.teams_players",
                "team play needs 4 or 6 players",
                lambda rules: rules.players in (4, 6),
            ),
        ),
    )
    discard_to_partner: bool = option(
        False,
        meaning="Team play only: a player may also end the turn on the partner's discard piles.",
        label="option.skipbo.discard_to_partner",
        requires=(
            Requirement("allowed.needs_teams", "only with teams=true", lambda rules: rules.teams),
        ),
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
        # A match is won on points: some must be scored.
        requires=(
            Requirement(
                "allowed.match_points",
                "at least 1 when round_bonus is 0 in a match (rounds=true)",
                lambda rules: (
                    not (rules.rounds and rules.round_bonus == 0) or rules.points_per_card > 0
                ),
            ),
        ),
    )
    first_player: int | None = option(
        None,
        meaning="Seat that starts round 1; None lets the seed choose (stands in for 'the "
        "youngest').",
        label="option.skipbo.first_player",
        low=0,
        high=lambda rules: rules.players - 1,
    )
    high_card_deal: bool = option(
        False,
        meaning="Sheet 003: each player turns up a card, the highest deals, the player left "
        "of the dealer starts, and the deal moves clockwise each round (only with "
        "first_player None).",
        label="option.skipbo.high_card_deal",
        requires=(
            Requirement(
                "allowed.needs_no_seat",
                "only with first_player=null",
                lambda rules: rules.first_player is None,
            ),
        ),
    )
    idle_limit: int = option(
        200,
        meaning="House rule: a round with nothing left to draw ends as blocked after this "
        "many turns in a row without a card built.",
        label="option.skipbo.idle_limit",
        low=1,
        high=MAX_IDLE_LIMIT,
    )
    turn_limit: int = option(
        5000,
        meaning="House rule: a round still running after this many turns ends as blocked.",
        label="option.skipbo.turn_limit",
        low=100,
        high=1_000_000,
    )
    blocked_limit: int = option(
        3,
        meaning="House rule for matches: after this many blocked rounds in a row the match "
        "ends on the points so far.",
        label="option.skipbo.blocked_limit",
        low=1,
        high=100,
    )
    edition: int = option(
        EDITION,
        meaning="Rules edition: 2, or 1 to replay a game recorded before blocked rounds were "
        "ruled anew (a round was then blocked after one idle turn per seat).",
        label="option.skipbo.edition",
        low=1,
        high=EDITION,
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

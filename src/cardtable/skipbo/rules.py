"""Skip-Bo rules options, validated on construction (see docs/rules/skipbo.md)."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from ..core import RulesBase, check_bool, check_int, check_optional_int, option_error
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

    players: int = 2
    """Seats at the table, 2 to 6."""
    stock_size: int | None = None
    """Cards in each stock pile; None means 30 for 2-4 players and 20 for 5-6."""
    teams: bool = False
    """Team play: 4 or 6 players, partners sit opposite each other."""
    discard_to_partner: bool = False
    """Team play only: a player may also end the turn on the partner's discard piles."""
    rounds: bool = False
    """Multi-round scoring: rounds are played until a player or team reaches ``target``."""
    target: int = 500
    """Points that win a multi-round match."""
    round_bonus: int = 25
    """Points for winning a round."""
    points_per_card: int = 5
    """Points per card left in the opponents' stocks (sheet 003 says 1, the others 5)."""
    first_player: int | None = None
    """Seat that starts round 1; None lets the seed choose (stands in for 'the youngest')."""
    high_card_deal: bool = False
    """Sheet 003: each player turns up a card, the highest deals, the player left of the
    dealer starts, and the deal moves clockwise each round (only with first_player None)."""
    idle_limit: int = 200
    """House rule: a round with nothing left to draw ends as blocked after this many turns
    in a row without a card built."""
    turn_limit: int = 5000
    """House rule: a round still running after this many turns ends as blocked."""
    blocked_limit: int = 3
    """House rule for matches: after this many blocked rounds in a row the match ends on
    the points so far."""
    edition: int = EDITION
    """Rules edition: 2, or 1 to replay a game recorded before blocked rounds were ruled
    anew (a round was then blocked after one idle turn per seat)."""

    def validate(self) -> None:
        check_int("players", self.players, MIN_PLAYERS, MAX_PLAYERS)
        top = max_stock(self.players)
        check_optional_int("stock_size", self.stock_size, MIN_STOCK, top)
        check_bool("teams", self.teams)
        if self.teams and self.players not in (4, 6):
            raise option_error("teams", self.teams, "allowed.teams_players")
        check_bool("discard_to_partner", self.discard_to_partner)
        if self.discard_to_partner and not self.teams:
            raise option_error("discard_to_partner", self.discard_to_partner, "allowed.needs_teams")
        check_bool("rounds", self.rounds)
        check_int("target", self.target, 1, 100_000)
        check_int("round_bonus", self.round_bonus, 0, 10_000)
        check_int("points_per_card", self.points_per_card, 0, 1_000)
        if self.rounds and self.round_bonus == 0 and self.points_per_card == 0:
            raise option_error("points_per_card", self.points_per_card, "allowed.match_points")
        check_optional_int("first_player", self.first_player, 0, self.players - 1)
        check_bool("high_card_deal", self.high_card_deal)
        if self.high_card_deal and self.first_player is not None:
            raise option_error("high_card_deal", self.high_card_deal, "allowed.needs_no_seat")
        check_int("idle_limit", self.idle_limit, 1, MAX_IDLE_LIMIT)
        check_int("turn_limit", self.turn_limit, 100, 1_000_000)
        check_int("blocked_limit", self.blocked_limit, 1, 100)
        check_int("edition", self.edition, 1, EDITION)

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

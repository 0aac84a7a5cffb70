"""Rated games: which finished game is rated on which ladder, and how it moves ratings
(openskill's Plackett-Luce model; docs/players.md#ratings).

Everything here is pure: :mod:`cardtable.server.storage.ratings` reads a finished game and
its claims, asks :func:`verdict` whether and where it is rated, and applies :func:`rate` in
the transaction that records the game as rated.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from enum import StrEnum
from typing import Any

from openskill.models import PlackettLuce

from ..bots.levels import LEVELS
from ..core import JSON
from ..games import get_game
from ..statuses import SeatKind


class Ladder(StrEnum):
    """A ladder: one rating per player on each, for one game under its standard rules.
    Members are the strings the protocol sends (``"skipbo-teams"``), as
    :mod:`cardtable.statuses` does for a room's status."""

    SKYJO = "skyjo"
    SKIPBO = "skipbo"
    SKIPBO_TEAMS = "skipbo-teams"


class Unrated(StrEnum):
    """Why a finished game is not rated: the ``reason`` of the ``rated`` message and of a
    profile's game (docs/players.md#ratings), stored with the game's verdict."""

    COACHED = "coached"  # a practice game: the coach spoke, moves were taken back
    NON_STANDARD_RULES = "non_standard_rules"
    BLOCKED = "blocked"  # nobody won
    UNRATED_BOT = "unrated_bot"  # a bot with no level on the ladders
    GUEST_SEAT = "guest_seat"  # a person's seat no account claimed
    NO_ACCOUNT = "no_account"  # bots only
    SAME_PLAYER = "same_player"  # one account in two seats
    # Until issue 47: a bot played too many moves for a person (now rated last, see
    # abandoned); kept for the games judged before.
    TAKEN_OVER = "taken_over"
    HINTED = "hinted"  # a player asked the move advisor for a hint during the game


#: The ladders, in the order the leaderboards list them.
LADDERS = tuple(Ladder)
#: A human seat a bot played more moves for than this makes the game unrated.
MAX_STAND_IN_MOVES = 5
#: Rated games a player needs to be listed on a leaderboard, and to be established on
#: a ladder: an account with fewer is provisional (see :func:`is_provisional`).
MIN_GAMES = 5

MU = 25.0
SIGMA = MU / 3
BETA = MU / 6
TAU = MU / 300
#: Displayed points per unit of mu: a difference means what as many Elo points mean.
SCALE = 400 / (math.log(10) * math.sqrt(2) * BETA)
#: The displayed rating of mu = MU (a new player, the medium bot).
CENTER = 1500
#: A bot level's sigma when its rating is first made (about 59 displayed points a side).
BOT_SIGMA = 1.0

#: Each bot level's seed on each ladder, in displayed points (docs/players.md#ratings:
#: the Elo difference of the win rates docs/bots.md measured, medium at 1,500).
BOT_SEEDS: dict[str, dict[str, int]] = {
    Ladder.SKIPBO: {"easy": 1064, "medium": 1500, "hard": 1743, "expert": 1815},
    Ladder.SKIPBO_TEAMS: {"easy": 1064, "medium": 1500, "hard": 1743, "expert": 1815},
    Ladder.SKYJO: {"easy": 1132, "medium": 1500, "hard": 1701, "expert": 1745},
}
# Only a level with a seed on every ladder is rated (``learned`` is not yet).
_LEVEL_OF_BOT = {
    bot: level
    for level, bot in LEVELS.items()
    if all(level in seeds for seeds in BOT_SEEDS.values())
}

MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


def user_player(user_id: int) -> str:
    return f"user:{user_id}"


def bot_player(level: str) -> str:
    return f"bot:{level}"


def level_of_bot(bot: str | None) -> str | None:
    """The level a bot plays at (``greedy`` -> ``medium``), or None for another bot."""
    return _LEVEL_OF_BOT.get(str(bot))


def seat_player(seat: Mapping[str, Any], claim: int | None) -> str | None:
    """Who sits in a seat as the ladders know them: a bot's level (``bot:hard``), the
    account that claimed a person's seat (``user:7``; ``claim``: its id), else None (a
    bot without a level, a guest)."""
    if seat.get("kind") == SeatKind.BOT:
        level = level_of_bot(seat.get("bot"))
        return None if level is None else bot_player(level)
    return None if claim is None else user_player(claim)


def is_provisional(player: str, games: int) -> bool:
    """Whether a player with ``games`` rated games on a ladder is provisional there: an
    account with fewer than :data:`MIN_GAMES`. A bot level never is (it is seeded from
    the tournaments). A provisional player's games move no established player's rating
    (:func:`rate`): a throwaway account cannot feed anyone points."""
    return player.startswith("user:") and games < MIN_GAMES


def displayed(mu: float, sigma: float) -> tuple[int, int]:
    """The rating and its ± (about 95%) as shown: ``1500 + F (mu - 25)``, ``2 F sigma``."""
    return round(CENTER + SCALE * (mu - MU)), round(2 * SCALE * sigma)


def score(mu: float, sigma: float) -> float:
    """What leaderboards rank by: the low end of the shown interval."""
    return mu - 2 * sigma


def seed(ladder: str, player: str) -> tuple[float, float]:
    """(mu, sigma) of a player's first rated game: a bot level's seed, else the default."""
    if player.startswith("bot:"):
        points = BOT_SEEDS[ladder][player.removeprefix("bot:")]
        return MU + (points - CENTER) / SCALE, BOT_SIGMA
    return MU, SIGMA


@dataclasses.dataclass(frozen=True)
class Verdict:
    """A finished game's judgement: its ladder and, per seat, its player (rated), or
    why it is not (``reason``)."""

    ladder: Ladder | None
    players: tuple[str, ...] = ()
    reason: Unrated | None = None


def _unrated(reason: Unrated) -> Verdict:
    return Verdict(None, (), reason)


def ladder_of(game: str, rules: Mapping[str, Any]) -> Ladder | None:
    """The ladder of a game with these rules (a stored rules JSON), or None."""
    try:
        parsed = get_game(game).rules_from_record(dict(rules))
    except (KeyError, ValueError, TypeError):
        return None
    teams = bool(getattr(parsed, "teams", False))
    chosen: dict[str, Any] = {"players": getattr(parsed, "players", None)}
    if teams:
        chosen["teams"] = True
    try:
        standard = type(parsed)(**chosen)
    except (ValueError, TypeError):
        return None
    if parsed != standard:
        return None
    if game == "skipbo":
        return Ladder.SKIPBO_TEAMS if teams else Ladder.SKIPBO
    return Ladder.SKYJO if game == "skyjo" else None


def verdict(
    game: str,
    rules: Mapping[str, Any],
    seats: Sequence[JSON],
    result: Mapping[str, Any],
    claims: Mapping[int, int],
) -> Verdict:
    """Is this finished game rated, on which ladder, with which player in each seat?

    ``seats``: the game's stored seats; ``result``: its stored result (with
    ``stand_in_moves``, the moves bots played for human seats, and ``coached`` when
    the practice coach was on); ``claims``: seat ->
    the account that claimed it."""
    if result.get("hinted"):
        return _unrated(Unrated.HINTED)  # the move advisor helped: nobody's own game
    if result.get("coached"):
        return _unrated(Unrated.COACHED)
    ladder = ladder_of(game, rules)
    if ladder is None:
        return _unrated(Unrated.NON_STANDARD_RULES)
    if result.get("blocked") or not result.get("winners"):
        return _unrated(Unrated.BLOCKED)
    # A seat left to a bot is not unrated: its player is rated last (see _ranks).
    return _seated(ladder, seats, claims, frozenset())


def _seated(
    ladder: Ladder, seats: Sequence[JSON], claims: Mapping[int, int], waiting: Collection[int]
) -> Verdict:
    """The part of the verdict its seats decide. ``waiting``: free seats, counted as
    the accounts that will take them (before the start only)."""
    players: list[str] = []
    for index, seat in enumerate(seats):
        player = f"waiting:{index}" if index in waiting else seat_player(seat, claims.get(index))
        if player is None:
            bot = seat.get("kind") == SeatKind.BOT
            return _unrated(Unrated.UNRATED_BOT if bot else Unrated.GUEST_SEAT)
        players.append(player)
    people = [player for player in players if not player.startswith("bot:")]
    if not people:
        return _unrated(Unrated.NO_ACCOUNT)
    if len(set(people)) < len(people):
        return _unrated(Unrated.SAME_PLAYER)
    return Verdict(ladder, tuple(players))


def expected_verdict(
    game: str,
    rules: Mapping[str, Any],
    seats: Sequence[JSON],
    claims: Mapping[int, int],
    *,
    coached: bool,
) -> Verdict:
    """Before the start: would the game be rated as the table stands now? The same
    rules as :func:`verdict`, with what is known before a result: the rules, the
    coach, the bots, and who claimed the taken seats (``seats``: the room's seat
    records; a free human seat counts as the account that will take and claim it).
    A game that will be rated can still end unrated: blocked, or hinted."""
    if coached:
        return _unrated(Unrated.COACHED)
    ladder = ladder_of(game, rules)
    if ladder is None:
        return _unrated(Unrated.NON_STANDARD_RULES)
    waiting = frozenset(
        index
        for index, seat in enumerate(seats)
        if seat.get("kind") == SeatKind.HUMAN and not seat.get("token_hash")
    )
    return _seated(ladder, seats, claims, waiting)


def abandoned(result: Mapping[str, Any]) -> frozenset[int]:
    """The seats whose player left the game: a bot played more than
    :data:`MAX_STAND_IN_MOVES` of their moves (away past the grace period, or out of
    time). A shorter absence, a dropped connection, is forgiven."""
    stand_ins = result.get("stand_in_moves") or {}
    return frozenset(
        int(seat) for seat, count in stand_ins.items() if int(count) > MAX_STAND_IN_MOVES
    )


def _sides(ladder: str, seats: int) -> list[list[int]]:
    """The seats of each side: a team (partners sit opposite) or each seat alone."""
    if ladder != Ladder.SKIPBO_TEAMS:
        return [[seat] for seat in range(seats)]
    half = seats // 2
    return [[seat, seat + half] for seat in range(half)]


def _ranks(ladder: str, sides: list[list[int]], result: Mapping[str, Any]) -> list[float]:
    """Each side's place (lower is better; ties share one): Skyjo by score, lowest
    first; Skip-Bo the winners, then everyone else. A side one of whose players left
    the game (:func:`abandoned`) comes last whatever the bot made of its hand, as an
    abandoned game counts on chess and card sites: leaving never beats losing, and the
    others move by their own places."""
    winners = set(result.get("winners") or ())
    if ladder == Ladder.SKYJO:
        scores = list(result.get("scores") or ())
        ranks = [float(min(scores[seat] for seat in side)) for side in sides]
    else:
        ranks = [0.0 if winners & set(side) else 1.0 for side in sides]
    left = abandoned(result)
    last = max(ranks, default=0.0) + 1.0
    return [last if left & set(side) else rank for side, rank in zip(sides, ranks, strict=True)]


def rate(
    ladder: str,
    players: Sequence[str],
    result: Mapping[str, Any],
    before: Mapping[str, tuple[float, float]],
    provisional: Collection[str] = frozenset(),
) -> dict[str, tuple[float, float]]:
    """Each player's (mu, sigma) after the game, from ``before`` (every player's).

    ``provisional``: the players who were provisional before the game
    (:func:`is_provisional`; docs/players.md#ratings). A side (a seat, or a team in
    team play) is established when none of its players is. A provisional player is
    rated on the whole game; an established side's players are rated on the game
    among the established sides alone, as if the provisional sides had not sat at the
    table, so losing throwaway accounts feed nobody points. An established player with
    no established side to be rated against (alone among provisional opponents, or
    partnered with a provisional account) keeps their rating.

    A player in several seats (two ``medium`` bots at one table) is rated once per seat,
    each seat from the same rating before the game, and the seats' updates are combined
    (docs/players.md#ratings): mu moves by the sum of the seats' changes, and the
    variance shrinks by the product of the seats' shrink factors, so the result does
    not depend on the seat order and a seat's update is never lost."""
    sides = _sides(ladder, len(players))
    ranks = _ranks(ladder, sides, result)
    established = [
        index
        for index, side in enumerate(sides)
        if not any(players[seat] in provisional for seat in side)
    ]
    whole = _seat_updates(players, sides, ranks, before, range(len(sides)))
    # One established side alone has nobody to be rated against: it keeps its rating.
    among_established = (
        _seat_updates(players, sides, ranks, before, established) if len(established) > 1 else {}
    )
    updates: dict[str, list[tuple[float, float]]] = {player: [] for player in players}
    for seat, player in enumerate(players):
        if player in provisional:
            updates[player].append(whole[seat])
        elif seat in among_established:
            updates[player].append(among_established[seat])
    return {player: _combined(before[player], seats) for player, seats in updates.items()}


def _seat_updates(
    players: Sequence[str],
    sides: Sequence[Sequence[int]],
    ranks: Sequence[float],
    before: Mapping[str, tuple[float, float]],
    chosen: Iterable[int],
) -> dict[int, tuple[float, float]]:
    """Each seat's (mu, sigma) after the game among the sides ``chosen`` (indexes of
    ``sides``), every seat starting from its player's rating ``before``."""
    indexes = list(chosen)
    picked = [sides[index] for index in indexes]
    teams = [[MODEL.rating(*before[players[seat]]) for seat in side] for side in picked]
    rated = MODEL.rate(teams, ranks=[ranks[index] for index in indexes])
    return {
        seat: (float(rating.mu), float(rating.sigma))
        for side, team in zip(picked, rated, strict=True)
        for seat, rating in zip(side, team, strict=True)
    }


def _combined(
    before: tuple[float, float], updates: Sequence[tuple[float, float]]
) -> tuple[float, float]:
    """One player's rating after the per-seat updates ``updates`` of one game."""
    if not updates:
        return before
    if len(updates) == 1:
        return updates[0]
    mu, sigma = before
    # The model widens sigma by tau before each update; every seat started from that.
    prior = sigma * sigma + TAU * TAU
    variance = prior
    for _, seat_sigma in updates:
        variance *= seat_sigma * seat_sigma / prior
    return mu + sum(seat_mu - mu for seat_mu, _ in updates), math.sqrt(variance)

"""A player's profile, put together from the stored games and ratings
(docs/players.md#profiles): games and wins per game and variant, Skyjo's points per
round, each ladder's rating with its history, the recent games; and the verdict of one
finished game told seat by seat (docs/protocol.md, the ``rated`` message).

Everything here is pure: :mod:`cardtable.server.players.profile_route` reads the rows and
answers with these. Results are read as the engine stored them (winners, scores, rounds); no
rule is worked out here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...core import JSON
from ...statuses import SeatKind
from ..ladder import Ladder, displayed, is_provisional, ladder_of, seat_player
from ..storage.profiles import DETAILED_GAMES, LadderRating, PlayedGame

#: Recent games listed on a profile (those read with their seats), and rating history
#: points kept per ladder.
RECENT_GAMES = DETAILED_GAMES
HISTORY_POINTS = 200

#: A ladder's variant as a profile names it: the standard rules of a ladder.
_LADDER_VARIANT = {
    Ladder.SKYJO: "standard",
    Ladder.SKIPBO: "standard",
    Ladder.SKIPBO_TEAMS: "teams",
}
#: Any other rules.
CUSTOM = "custom"


def variant(game: str, rules: Mapping[str, Any]) -> str:
    """``standard`` (a ladder's rules), ``teams`` (Skip-Bo's team ladder) or ``custom``."""
    ladder = ladder_of(game, rules)
    return CUSTOM if ladder is None else _LADDER_VARIANT[ladder]


class _Variants:
    """Each game's variant, worked out once per rules: the games read for one profile
    share their rules objects (:meth:`ProfileRows.played_games` decodes each distinct
    rules once), and judging the rules builds the engine's rules object."""

    def __init__(self) -> None:
        self._known: dict[tuple[int, str], tuple[Mapping[str, Any], str]] = {}

    def __call__(self, game: PlayedGame) -> str:
        key = (id(game.rules), game.game)
        known = self._known.get(key)
        if known is None or known[0] is not game.rules:
            known = self._known[key] = (game.rules, variant(game.game, game.rules))
        return known[1]


def _rounds(result: Mapping[str, Any]) -> int | None:
    """The rounds a game had, as stored with its result (games stored before the count
    was kept have none)."""
    rounds = result.get("rounds")
    return rounds if isinstance(rounds, int) and rounds > 0 else None


def _won(game: PlayedGame) -> bool:
    return game.seat in (game.result.get("winners") or ())


def _score(game: PlayedGame) -> int | None:
    scores = game.result.get("scores") or ()
    return int(scores[game.seat]) if game.seat < len(scores) else None


@dataclasses.dataclass
class _Tally:
    played: int = 0
    won: int = 0
    points: int = 0
    rounds: int = 0


def game_counts(played: Iterable[PlayedGame]) -> list[JSON]:
    """Games played and won per game and variant; for Skyjo the average points per
    round (the seat's final score over the game's rounds, of the games that stored
    their count of rounds)."""
    tallies: dict[tuple[str, str], _Tally] = {}
    variant_of = _Variants()
    for game in played:
        tally = tallies.setdefault((game.game, variant_of(game)), _Tally())
        tally.played += 1
        tally.won += _won(game)
        rounds, score = _rounds(game.result), _score(game)
        if game.game == "skyjo" and rounds is not None and score is not None:
            tally.points += score
            tally.rounds += rounds
    counts = []
    for (name, kind), tally in sorted(tallies.items()):
        entry: JSON = {"game": name, "variant": kind, "played": tally.played, "won": tally.won}
        if name == "skyjo":
            average = tally.points / tally.rounds if tally.rounds else None
            entry["rounds"] = tally.rounds
            entry["points_per_round"] = None if average is None else round(average, 1)
        counts.append(entry)
    return counts


def _change_of(game: PlayedGame, player: str) -> JSON | None:
    for change in game.changes:
        if change.get("player") == player:
            return change
    return None


def _shown(pair: Sequence[float]) -> JSON:
    rating, plus_minus = displayed(float(pair[0]), float(pair[1]))
    return {"rating": rating, "plus_minus": plus_minus}


def rating_history(played: Sequence[PlayedGame], ladder: str, player: str) -> list[JSON]:
    """One point per rated game of the ladder, oldest first, after the rating the first
    of them started from (at most :data:`HISTORY_POINTS`, the latest)."""
    points: list[JSON] = []
    for game in reversed(played):  # played is newest first
        change = _change_of(game, player) if game.ladder == ladder else None
        if change is None:
            continue
        if not points:
            points.append({"at": None, **_shown(change["before"])})
        points.append({"at": game.finished_at, **_shown(change["after"])})
    return points[-HISTORY_POINTS:]


def ladder_ratings(
    rows: Iterable[LadderRating],
    played: Sequence[PlayedGame],
    player: str,
    ranks: Mapping[str, int],
) -> list[JSON]:
    """Each ladder's rating as the leaderboard shows it, whether it is still
    provisional there (its games move no established player's rating), its rank once
    listed, and its history."""
    return [
        {
            "ladder": row.ladder,
            **_shown((row.mu, row.sigma)),
            "games": row.games,
            "wins": row.wins,
            "provisional": is_provisional(player, row.games),
            "rank": ranks.get(row.ladder),
            "history": rating_history(played, row.ladder, player),
        }
        for row in rows
    ]


def _seat_entry(seat: JSON, index: int, mine: int, account: str | None) -> JSON:
    kind = seat.get("kind")
    return {
        "name": seat.get("name"),
        "kind": kind,
        "bot": seat.get("bot") if kind == SeatKind.BOT else None,
        "you": index == mine,
        "profile": account,
    }


def _outcome(game: PlayedGame) -> str:
    if _won(game):
        return "won"
    return "blocked" if game.result.get("blocked") and not game.result.get("winners") else "lost"


def recent_games(
    played: Sequence[PlayedGame],
    player: str,
    owner: bool,
    accounts: Mapping[tuple[str, int], str],
) -> list[JSON]:
    """The latest games: result, seats (with the account that claimed each, from
    ``accounts``: (room, seat) -> name), verdict, rating change, and where to replay
    them (``replay`` None while a private table is open, unless the reader is the
    player)."""
    recent = []
    for game in played[:RECENT_GAMES]:
        change = _change_of(game, player)
        rating_change = None
        if change is not None:
            before = displayed(*map(float, change["before"]))[0]
            rating_change = displayed(*map(float, change["after"]))[0] - before
        replay = None
        if game.code_public or owner:
            replay = {"code": game.room_code, "game_no": game.game_no}
        recent.append(
            {
                "game": game.game,
                "variant": variant(game.game, game.rules),
                "finished_at": game.finished_at,
                "result": _outcome(game),
                "score": _score(game),
                "seats": [
                    _seat_entry(seat, i, game.seat, accounts.get((game.room_code, i)))
                    for i, seat in enumerate(game.seats)
                ],
                "rated": game.ladder is not None,
                "ladder": game.ladder,
                "unrated_reason": game.reason if game.judged else None,
                "rating_change": rating_change,
                "replay": replay,
            }
        )
    return recent


def seat_verdicts(
    verdict: Mapping[str, Any], seats: Sequence[JSON], claims: Mapping[int, int]
) -> list[JSON]:
    """Each rated seat's rating after the game and its change (empty when unrated): a
    bot's seat by its level, a person's by the account that claimed it."""
    changes = {change["player"]: change for change in verdict.get("changes") or ()}
    told = []
    for index, seat in enumerate(seats):
        player = seat_player(seat, claims.get(index))
        change = changes.get(player) if player is not None else None
        if change is None:
            continue
        before = _shown(change["before"])
        after = _shown(change["after"])
        told.append({"seat": index, **after, "change": after["rating"] - before["rating"]})
    return told


def rated_message(game_no: int, verdict: Mapping[str, Any], seats: list[JSON]) -> JSON:
    """The ``rated`` message of a judged game (docs/protocol.md#server--client)."""
    ladder = verdict.get("ladder")
    return {
        "type": "rated",
        "game_no": game_no,
        "rated": ladder is not None,
        "ladder": ladder,
        "reason": verdict.get("reason"),
        "seats": seats,
    }

"""Where "Play now" seats a player, decided from data alone (docs/protocol.md#quick-match):
which open public rooms fit, the best of them first, and the bot level to offer.

Pure: :mod:`cardtable.server.lobby.quick_match` reads the rooms and the ratings, asks
here, and seats the player (trying the next room when one filled meanwhile).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ...core import JSON
from ...statuses import SeatKind
from ..ladder import CENTER
from ..storage.public_rooms import PublicRoom

#: (room code, seat) -> the displayed rating of who sits there (missing or None: none).
SeatRatings = Mapping[tuple[str, int], int | None]


def _is_free(seat: JSON) -> bool:
    return seat.get("kind") == SeatKind.HUMAN and seat.get("token_hash") is None


def seats_free(room: PublicRoom) -> int:
    """The human seats of a room nobody has taken."""
    return sum(1 for seat in room.seats if _is_free(seat))


def open_rooms(rooms: Iterable[PublicRoom], players: int) -> list[PublicRoom]:
    """The rooms a player can join for a game of ``players``: a free seat, that size."""
    return [room for room in rooms if seats_free(room) > 0 and room.rules.get("players") == players]


def ranked(rooms: Iterable[PublicRoom], ratings: SeatRatings, rating: int) -> list[PublicRoom]:
    """The rooms, the best for a player of ``rating`` first: a room where somebody sits
    before an empty one (people come to play with people); then the closest average
    rating of those seated (one without a rating counts as a newcomer's, 1,500); then
    the fullest (the nearest to starting); then the oldest."""

    def key(room: PublicRoom) -> tuple[int, float, int, float]:
        seated = [i for i, seat in enumerate(room.seats) if seat.get("token_hash")]
        if not seated:
            return (1, 0.0, seats_free(room), room.created_at)
        values = [ratings.get((room.code, i)) or CENTER for i in seated]
        distance = abs(sum(values) / len(values) - rating)
        return (0, distance, seats_free(room), room.created_at)

    return sorted(rooms, key=key)


def closest_level(shown: Mapping[str, int], rating: int) -> str:
    """The bot level whose displayed rating (``shown``: level -> rating, one level at
    least) is the closest to ``rating``, the weaker of two as close."""
    return min(shown, key=lambda level: (abs(shown[level] - rating), shown[level]))

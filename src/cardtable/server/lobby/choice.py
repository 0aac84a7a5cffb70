"""Where "Play now" seats a player, decided from data alone (docs/protocol.md#quick-match):
which open public rooms fit, the best of them first, and the bot level to offer.

Pure: :mod:`cardtable.server.lobby.quick_match` reads the rooms and the ratings, asks
here, and seats the player (trying the next room when one filled meanwhile).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ...core import JSON
from ...statuses import SeatKind
from ..ladder import CENTER, Ladder, ladder_of
from ..storage.public_rooms import PublicRoom

#: (room code, seat) -> the displayed rating of who sits there (missing or None: none).
SeatRatings = Mapping[tuple[str, int], int | None]
#: The player's displayed rating on each ladder (missing: the first rating, 1,500).
PlayerRatings = Mapping[Ladder, int]


def _is_free(seat: JSON) -> bool:
    return seat.get("kind") == SeatKind.HUMAN and seat.get("token_hash") is None


def seats_free(room: PublicRoom) -> int:
    """The human seats of a room nobody has taken."""
    return sum(1 for seat in room.seats if _is_free(seat))


def open_rooms(rooms: Iterable[PublicRoom], players: int) -> list[PublicRoom]:
    """The rooms a player can join for a game of ``players``: a free seat, that size."""
    return [room for room in rooms if seats_free(room) > 0 and room.rules.get("players") == players]


def room_ladder(room: PublicRoom) -> Ladder | None:
    """The ladder a room's rules are rated on; None for house rules (unrated)."""
    return ladder_of(room.game, room.rules)


def ranked(
    rooms: Iterable[PublicRoom], ratings: SeatRatings, player: PlayerRatings
) -> list[PublicRoom]:
    """The rooms, the best for a player of these ratings (``player``) first: a room
    where somebody sits before an empty one (people come to play with people); then a
    rated room (a ladder's rules) before a house-rules one, which no rating can match
    and whose game moves none; then, in a rated room, the closest average rating of
    those seated to the player's on that room's ladder (one without a rating counts
    as a newcomer's, 1,500); then the fullest (the nearest to starting); then the
    oldest."""

    def key(room: PublicRoom) -> tuple[int, int, float, int, float]:
        ladder = room_ladder(room)
        unrated = int(ladder is None)
        seated = [i for i, seat in enumerate(room.seats) if seat.get("token_hash")]
        if not seated:
            return (1, unrated, 0.0, seats_free(room), room.created_at)
        distance = 0.0
        if ladder is not None:
            values = [ratings.get((room.code, i)) or CENTER for i in seated]
            distance = abs(sum(values) / len(values) - player.get(ladder, CENTER))
        return (0, unrated, distance, seats_free(room), room.created_at)

    return sorted(rooms, key=key)


def closest_level(shown: Mapping[str, int], rating: int) -> str:
    """The bot level whose displayed rating (``shown``: level -> rating, one level at
    least) is the closest to ``rating``, the weaker of two as close."""
    return min(shown, key=lambda level: (abs(shown[level] - rating), shown[level]))

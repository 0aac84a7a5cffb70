"""The move advisor at the table: ``hint`` during a game and ``review`` after it.

Both run in the bot pool, never on the event loop, one at a time per room; the
advisor only ever sees what the asking seat may see (a determinization for a hint,
re-deals inside :mod:`cardtable.bots.review` for a review).
"""

from __future__ import annotations

import logging

from ...bots.review import review_message, table_review_seed
from ...core import JSON, Rng
from ..errors import RoomError
from ..ladder import ladder_of
from ..tokens import new_seed
from .bot_seats import ADVICE_MEASURE
from .parts import RoomServices
from .seats import FINISHED

log = logging.getLogger("cardtable.server")

#: Ranked moves sent in answer to a ``hint``.
HINT_MOVES = 5


class Advisor:
    """Hints and reviews of one room, and the reviews already worked out."""

    def __init__(self, room: RoomServices) -> None:
        self.room = room
        self._hinting = False
        self._reviewing = False
        #: Reviews already worked out, by (game number, seat): asking again costs nothing.
        self.reviews: dict[tuple[int, int], JSON] = {}

    def forget(self) -> None:
        """A new game: the reviews of the last one are no longer offered."""
        self.reviews.clear()

    def _unrate(self, seat: int) -> None:
        """A hint at a table whose rules a ladder rates: the game is no longer rated
        (its result says ``hinted``), and everybody is told at the first one."""
        room = self.room
        if room.hinted_game == room.game_no or room.table_options.coach:
            return  # told already; a coached game is unrated anyway
        if ladder_of(room.game.name, room.rules.to_json()) is None:
            return
        room.hinted_game = room.game_no
        room.broadcast_raw(
            {"type": "notice", "code": "hinted", "seat": seat, "version": room.version}
        )

    async def hint(self, seat: int, token: str, version: int) -> JSON:
        """The move advisor's best moves for the seat to move, from what that seat sees.

        The advisor is given a determinization for ``seat`` (every card the seat
        cannot see re-dealt at random), never the real state: it plays moves on the
        state it gets, and a move played on the real one could reveal a hidden card.
        One hint at a time per room, in the bot pool, with a small time budget.
        """
        room = self.room
        room.check_seat_token(seat, token)
        async with room.lock:
            state = room.turn_of(seat, version)
            if self._hinting:
                raise RoomError("hint_busy", "a hint is being computed; try again in a moment")
            world = state.determinize(seat, Rng(new_seed()))
            self._hinting = True
        try:
            advice = await room.table.bots.advise(
                world, seat, room.table.config.hint_milliseconds, new_seed()
            )
        except Exception:
            log.exception("room %s: the move advisor failed", room.code, extra=room.log_fields())
            raise RoomError("no_hint", "the move advisor could not answer") from None
        finally:
            self._hinting = False
        self._unrate(seat)
        game = room.game
        return {
            "type": "hint",
            "version": version,
            "measure": ADVICE_MEASURE.get(game.name),
            "moves": [
                {
                    "action": item.action,
                    "move": game.decode(item.action).to_json(),
                    "value": item.value,
                    "reason": item.reason,
                    "reason_parts": [part.to_json() for part in item.reason_parts],
                }
                for item in advice[:HINT_MOVES]
            ],
        }

    async def review(self, seat: int, token: str) -> JSON:
        """The move advisor's review of ``seat``'s moves in the game just finished.

        Once the game is over, for the seat's own player only. The review replays the
        game and gives the advisor, at each decision of the seat, a re-deal of what the
        seat could not see (see :mod:`cardtable.bots.review`). It runs in the bot pool
        with a fixed number of re-deals and decisions, one at a time per room and at
        most ``review_workers`` on the server; the answer is kept for the next asker.
        """
        room = self.room
        room.check_seat_token(seat, token)
        table = room.table
        config = table.config
        async with room.lock:
            if room.state is None or room.status != FINISHED or room.seed is None:
                raise RoomError("not_finished", "a review is offered once the game is over")
            key = (room.game_no, seat)
            done = self.reviews.get(key)
            if done is not None:
                return done
            if self._reviewing or table.reviews_running >= config.review_workers:
                raise RoomError("review_busy", "a review is being worked out; try again soon")
            rules, seed, actions = room.rules, room.seed, room.state.history[:]
            self._reviewing = True
            table.reviews_running += 1
        try:
            review = await table.bots.review(
                room.game,
                rules,
                seed,
                actions,
                seat,
                max_decisions=config.review_decisions,
                rng_seed=table_review_seed(seed, seat),
            )
        except Exception:
            log.exception("room %s: the review failed", room.code, extra=room.log_fields())
            raise RoomError("no_review", "the move advisor could not review this game") from None
        finally:
            self._reviewing = False
            table.reviews_running -= 1
        message = review_message(room.game, review, key[0])
        if room.game_no == key[0]:
            self.reviews[key] = message
        return message

"""The practice coach: a table option (``coach``) for one person playing bots.

After each move the coached player makes with a real choice, the move advisor judges
it as the post-game review does (:func:`cardtable.bots.review.review_position`: the
best move and the played one compared on re-deals of what the player could not see
before the move, never on the real cards). When the played move is clearly worse, the
player's connections alone get a ``coach`` message: what the move cost, the better
move and its reason, in the review's words. The player may then take that move back,
once per decision (see :meth:`Coach.take_back`).

While the advisor judges the player's last move, and while a take-back of it is on
offer, the bots wait: a take-back is only ever of the last move of the game, before
anybody moved after it. The player ends an offer by taking the move back, by keeping
it (``keep_move``) or by moving again; an offer unanswered for ``COACH_WAIT_SECONDS``
lapses, and a player gone away (see :mod:`.grace`) holds nobody up.

A move that showed the player a card they could not see before (a draw, a card turned
up, new hand cards; see ``shows_hidden_card`` of each engine's events) is never taken
back: replaying that decision would let them know what comes next. The coach's line
then says why. A take-back removes the move from the stored log, so the log is always
the moves that stand and the game replays from its rules, seed and moves.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Sequence
from typing import Any

from ...bots.coaching import (
    OVER,
    PLAYED_ON,
    REVEALED,
    USED,
    WHY_NOT,
    clearly_worse,
    reveals_hidden,
    verdict_fields,
)
from ...bots.review import MEASURES, ReviewedMove, has_choice
from ...core import JSON, Event, GameState, Rng
from ...statuses import SeatKind
from ..errors import RoomError
from ..tokens import new_seed
from .parts import RoomServices
from .seats import PLAYING, Seat

log = logging.getLogger("cardtable.server")

#: The longest the bots wait for the player's answer to an offer of a take-back: a
#: person reading the line has time, and a client that cannot answer (an older page)
#: holds the table up for this long only. The judgement itself (its counts, the
#: threshold, which moves may be taken back) is :mod:`cardtable.bots.coaching`'s.
COACH_WAIT_SECONDS = 120.0


def coach_refusal(seats: Sequence[Seat]) -> RoomError | None:
    """Why the coach may not be on at a table with these seats, or None: it is for one
    person playing bots (every other seat a bot), so a second person is refused."""
    humans = sum(1 for seat in seats if seat.kind == SeatKind.HUMAN)
    if humans == 1:
        return None
    return RoomError(
        "bad_table_options",
        "the coach is for practice against bots: exactly one seat may be a person",
        {
            "field": "coach",
            "allowed": "one person, with a bot in every other seat",
            "allowed_key": "allowed.coach_seats",
            "allowed_params": {},
        },
    )


@dataclasses.dataclass
class _Line:
    """The coach's last line: the move it speaks of and whether it may be taken back."""

    game_no: int
    seat: int
    index: int
    #: The room's version just after the move: the offer stands while nothing followed.
    version: int
    before: GameState[Any]
    message: JSON
    no_take_back: str | None
    #: When the line was sent (the table's clock): the bots wait for an answer from then.
    offered_at: float = 0.0


class Coach:
    """The coach of one room: its verdicts, its offer of a take-back, the take-backs."""

    def __init__(self, room: RoomServices) -> None:
        self.room = room
        #: (game number, move index) of the move being judged; the bots wait meanwhile.
        self.judging: tuple[int, int] | None = None
        self.line: _Line | None = None
        #: (game number, move index) of each decision taken back once already.
        self.used: set[tuple[int, int]] = set()
        self.task: asyncio.Task[None] | None = None

    def on(self) -> bool:
        return self.room.table_options.coach

    def _offer(self) -> _Line | None:
        """The line whose take-back is still on offer, if any."""
        room, line = self.room, self.line
        if line is None or line.no_take_back is not None:
            return None
        if line.game_no != room.game_no or line.version != room.version:
            return None
        return line

    def holds_bots(self) -> bool:
        """Whether the bots wait: the player's last move is being judged, or may still
        be taken back (unless the player went away)."""
        room = self.room
        if not self.on() or room.status != PLAYING:
            return False
        if self.judging is not None and self.judging[0] == room.game_no:
            return True
        line = self._offer()
        if line is None or line.seat in room.away:
            return False
        return room.table.clock() - line.offered_at < COACH_WAIT_SECONDS

    def after_move(
        self, seat: int, before: GameState[Any], action: int, events: Sequence[Event]
    ) -> None:
        """A person's move was committed (the caller holds the room's lock): judge it in
        the bot pool if the coach is on and the move was a real choice."""
        room = self.room
        if not self.on() or room.seats[seat].kind != SeatKind.HUMAN or not has_choice(before, seat):
            return
        index = len(before.history)
        self.judging = (room.game_no, index)
        # The advisor gets a re-deal of what the player could not see, never the real
        # cards: it plays moves on what it is given.
        world = before.determinize(seat, Rng(new_seed()))
        no_take_back = REVEALED if reveals_hidden(room.game.name, events, seat) else None
        if (room.game_no, index) in self.used:
            no_take_back = USED
        line = _Line(room.game_no, seat, index, room.version, before, {}, no_take_back)
        if self.task is not None:
            self.task.cancel()  # its verdict, on a move played on from, would be dropped
        self.task = asyncio.create_task(self._judge(line, world, action))

    async def _judge(self, line: _Line, world: GameState[Any], action: int) -> None:
        room = self.room
        try:
            verdict = await room.table.bots.judge(world, line.seat, action, new_seed())
        except Exception:
            log.exception("room %s: the coach failed", room.code, extra=room.log_fields())
            verdict = None
        async with room.lock:
            # The coach speaks of the player's last move only: a verdict on a move the
            # player has played on from (a newer one is judged or spoken of) is dropped.
            newer = self.judging != (line.game_no, line.index) or (
                self.line is not None
                and self.line.game_no == line.game_no
                and self.line.index > line.index
            )
            if self.judging == (line.game_no, line.index):
                self.judging = None
            measure = MEASURES.get(room.game.name, "value")
            if (
                verdict is not None
                and not newer
                and line.game_no == room.game_no
                and not room.closed
                and clearly_worse(measure, verdict)
            ):
                if line.no_take_back is None and room.status != PLAYING:
                    line.no_take_back = OVER
                elif line.no_take_back is None and line.version != room.version:
                    line.no_take_back = PLAYED_ON
                line.message = self._message(line, measure, verdict)
                line.offered_at = room.table.clock()
                self.line = line
                room.push_to_seat(line.seat, line.message)
                if line.no_take_back is None:
                    # Unanswered, the offer lapses and the bots play on.
                    asyncio.get_running_loop().call_later(COACH_WAIT_SECONDS, self._lapse)
            room.bots.schedule()

    def _lapse(self) -> None:
        if not self.room.closed:
            self.room.bots.schedule()

    def _message(self, line: _Line, measure: str, verdict: ReviewedMove) -> JSON:
        fields = verdict_fields(self.room.game, measure, verdict, line.no_take_back)
        return {"version": line.version, "game_no": line.game_no, "index": line.index, **fields}

    def line_for(self, seat: int | None) -> JSON | None:
        """The coach's line still on offer for ``seat`` (sent again to a reconnected page)."""
        line = self._offer()
        return None if line is None or seat != line.seat else line.message

    async def keep(self, seat: int, token: str, version: int) -> None:
        """The player keeps the move the coach spoke of: the bots play on."""
        room = self.room
        room.check_seat_token(seat, token)
        async with room.lock:
            line = self._checked_offer(seat, version)
            line.no_take_back = PLAYED_ON
            room.bots.schedule()

    def _checked_offer(self, seat: int, version: int) -> _Line:
        room = self.room
        if not self.on():
            raise RoomError("no_coach", "take-backs are for practice games with the coach on")
        if room.state is None or room.status != PLAYING:
            raise RoomError("not_playing", "no game is being played")
        if version != room.version:
            raise RoomError(
                "stale_version", f"the room is at version {room.version}, not {version}"
            )
        line = self.line
        if line is None or line.seat != seat or line.game_no != room.game_no:
            raise RoomError("no_take_back", "the coach offers no move of yours to take back")
        if line.version != room.version and line.no_take_back is None:
            line.no_take_back = PLAYED_ON
        if line.no_take_back is not None:
            raise RoomError(
                "no_take_back",
                f"this move cannot be taken back: {WHY_NOT[line.no_take_back]}",
                {"no_take_back": line.no_take_back},
            )
        return line

    async def take_back(self, seat: int, token: str, version: int) -> None:
        """Undo the player's last move, which the coach called clearly worse.

        Only the coached seat's own last move, at the version right after it (nobody
        moved since), once per decision, and never a move that showed a hidden card.
        The move leaves the stored log (so a replay and a restart of the room give the
        state that stands) in one fenced write that also bumps the room's version; then
        every connection gets a ``took_back`` notice and a full ``sync``.
        """
        room = self.room
        room.check_seat_token(seat, token)
        async with room.lock:
            line = self._checked_offer(seat, version)
            assert room.state is not None and room.seed is not None
            if len(room.state.history) != line.index + 1:  # the offer's version says so
                raise RoomError("no_take_back", "the coach offers no move of yours to take back")
            new_version = room.version + 1
            await room.fenced(
                room.table.storage.take_back_move(
                    room.code, room.game_no, line.index, new_version, room.epoch
                )
            )
            room.state, room.version = line.before, new_version
            line.no_take_back = USED
            self.used.add((line.game_no, line.index))
            log.info(
                "room %s: move %d taken back",
                room.code,
                line.index,
                extra=room.log_fields(game_no=room.game_no, version=new_version, seat=seat),
            )
            room.resync_all(
                {"type": "took_back", "version": new_version, "seat": seat, "index": line.index}
            )
            room.touch()
            room.clock.update()
            room.bots.schedule()

    def take_task(self) -> asyncio.Task[None] | None:
        task, self.task = self.task, None
        if task is not None:
            task.cancel()
        return task

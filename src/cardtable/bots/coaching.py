"""The practice coach's judgement, shared by every table that coaches: the table server
(:mod:`cardtable.server.rooms.coach`, online rooms) and the terminal's local games
(:class:`cardtable.tui.source.LocalGame`). One verdict, one threshold, one reading of
which moves may be taken back, so a move gets the same word wherever it is played.

The verdict is the post-game review's (:func:`.review.review_position`) on one decision,
worked out on a re-deal of what the player could not see before the move. The coach
speaks when that verdict is *clearly worse* (:func:`clearly_worse`); a move that showed
the player a hidden card is never taken back (:func:`reveals_hidden`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..core import JSON, Event, Game, GameState, Rng
from ..skipbo import events as skipbo_events
from ..skyjo import events as skyjo_events
from .review import MEASURES, ReviewedMove, review_position

#: Advisor re-deals ranking every move, then comparing the best and the played move
#: again: counts, so the same position gets the same verdict on every table. Twice the
#: table review's (one decision to judge, not two dozen): a verdict takes tens of
#: milliseconds.
COACH_ITERATIONS = 4
COACH_CONFIRM = 16
#: "Clearly worse": a loss the review counts (its mean above two standard errors of
#: the paired re-deals) and at least this large, per measure: 5 points of the chance
#: to win a Skip-Bo round, 2 points of a Skyjo round. Smaller losses are left unsaid,
#: so a learner hears of the moves that matter.
CLEARLY_WORSE = {"win_chance": 0.05, "round_points": 2.0}
#: Why a move the coach speaks of cannot be taken back (``no_take_back`` of the line).
REVEALED = "revealed"
USED = "used"
PLAYED_ON = "played_on"
OVER = "over"
WHY_NOT = {
    REVEALED: "it showed you a card you could not see before",
    USED: "you already took back a move at this point of the game once",
    PLAYED_ON: "the game went on after it",
    OVER: "the game is over",
}
_REVEALS: dict[str, Callable[[Event, int], bool]] = {
    "skipbo": skipbo_events.shows_hidden_card,
    "skyjo": skyjo_events.shows_hidden_card,
}


def reveals_hidden(game: str, events: Sequence[Event], mover: int) -> bool:
    """Whether a move of ``mover`` with these events showed them a card hidden before."""
    shows = _REVEALS.get(game)
    return shows is None or any(shows(event, mover) for event in events)


def clearly_worse(measure: str, verdict: ReviewedMove) -> bool:
    """Whether the review's verdict on a move is a loss the coach speaks of."""
    return verdict.cost > 0.0 and verdict.cost >= CLEARLY_WORSE.get(measure, float("inf"))


def judge(
    before: GameState[Any], seat: int, action: int, seed: int
) -> tuple[str, ReviewedMove | None]:
    """The measure and the verdict on ``seat`` playing ``action`` in ``before`` (not
    changed), judged on a re-deal of what the seat could not see: the advisor plays
    moves on what it is given, so it never gets the real cards. Blocking (tens of
    milliseconds): call it off the event loop."""
    world = before.determinize(seat, Rng(seed))
    measure = MEASURES.get(before.game.name, "value")
    return measure, review_position(world, seat, action, COACH_ITERATIONS, seed, COACH_CONFIRM)


def verdict_fields(game: Game[Any], measure: str, verdict: ReviewedMove, why: str | None) -> JSON:
    """The ``coach`` line's words (docs/protocol.md): the cost, the played and the better
    move with their reasons, and whether it may be taken back (``why`` not, if not)."""
    return {
        "type": "coach",
        "measure": measure,
        "cost": verdict.cost,
        "played": verdict.played,
        "played_move": game.decode(verdict.action).to_json(),
        "played_reason": verdict.played_reason,
        "played_reason_parts": [part.to_json() for part in verdict.played_reason_parts],
        "best": verdict.best,
        "best_move": game.decode(verdict.best_action).to_json(),
        "reason": verdict.reason,
        "reason_parts": [part.to_json() for part in verdict.reason_parts],
        "take_back": why is None,
        "no_take_back": why,
        "no_take_back_reason": None if why is None else WHY_NOT[why],
    }

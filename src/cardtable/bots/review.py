"""Post-game review: what each of one seat's decisions cost, by the move advisor.

``review_game(game, rules, seed, actions, seat)`` replays a game from its record
and, at every decision ``seat`` made with a real choice, asks
:func:`~cardtable.bots.advisor.advise` about the position just before the move.
The advisor values every legal move, the one played included, so a decision's
*cost* is the gap between the best move's value and the played move's value:

- Skip-Bo: win-probability points lost (0.05 is "about 5%");
- Skyjo: expected points of the seat in this round lost (lower points are better).

Which decisions are reviewed: the seat was to move and had more than one move
the advisor tells apart. Skip-Bo plays of the same card onto piles needing the
same number are one move, so a decision between them is skipped; the Skyjo
setup (turning up two of twelve unknown cards) is skipped too.

Hidden information: each position is re-dealt for the seat
(``state.determinize(seat, rng)``) before the advisor sees it, and the advisor
re-deals again itself, so a review of seat ``s`` depends only on what ``s`` saw
at that moment: two games that looked the same to ``s`` get the same review.
The texts are the engine's move texts and the advisor's reasons, which only
name cards the seat could see. The reasons come twice: in English
(``reason``, ``played_reason``) and as catalog keys with parameters
(``reason_parts``, ``played_reason_parts``; see :class:`~cardtable.bots.advisor.ReasonPart`)
for clients that word them in their player's language.

Cost and determinism: a review is a pure function of the record, the seat, the
iterations per decision (a count, not a time, so results are reproducible) and
the generator passed in. Each decision's seed is derived from its move number,
so a decision gets the same figures whether or not ``max_decisions`` leaves
others out. The advisor's values are Monte-Carlo estimates: a cost is reported
only when the best and played moves, compared again on fresh re-deals, differ by
more than twice the standard error of that comparison; with few re-deals a small
real loss goes unreported rather than noise being reported as a mistake.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core import JSON, Game, GameState, Rng, RulesBase
from ..skipbo.state import SkipBoState
from ..skyjo.state import SETUP, SkyjoState
from .advisor import Advice, Reason, advise, distinct_moves
from .montecarlo import Budget

#: What a value measures, per game: a chance to win (higher is better) or round points (lower).
MEASURES = {"skipbo": "win_chance", "skyjo": "round_points"}
#: Iterations (re-deals) of the advisor per reviewed decision when none are given.
DEFAULT_ITERATIONS = 8
#: Moves listed as the worst ones by default.
WORST = 5
#: A loss is reported only when it is this many standard errors above zero.
CLEAR = 2.0
#: The most decisions a review at a table reviews (the web server and the terminal
#: client; the precise judge, :mod:`cardtable.sim.judge`, sets its re-deals): a count,
#: not a time, so a game's review is the same everywhere.
TABLE_DECISIONS = 24


PositionJudge = Callable[[GameState[Any], int, int, int], "ReviewedMove | None"]
"""``judge(state, seat, action, seed)``: the verdict on one decision (None: no choice)."""


def table_review_seed(seed: int, seat: int) -> int:
    """The random seed of a table review of ``seat`` in the game dealt from ``seed``."""
    return seed * 17 + seat


_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


@dataclass(frozen=True, slots=True)
class ReviewedMove:
    """One decision of the reviewed seat, with the advisor's verdict."""

    number: int
    """The move's number in the game (1 is the first move of the game)."""
    round: int
    """The round it was played in (1-based)."""
    action: int
    played: str
    played_value: float
    played_reason: str
    best_action: int
    best: str
    best_value: float
    reason: str
    """The advisor's reason for the best move."""
    cost: float
    """What the played move lost against the best one, never negative (0 for the best move)."""
    choices: int
    """Distinct moves the seat had."""
    samples: int
    """Re-deals behind the values."""
    played_reason_parts: Reason = ()
    """``played_reason`` as catalog keys and parameters."""
    reason_parts: Reason = ()
    """``reason`` as catalog keys and parameters."""

    def to_json(self) -> JSON:
        return {
            "number": self.number,
            "round": self.round,
            "action": self.action,
            "played": self.played,
            "played_value": self.played_value,
            "played_reason": self.played_reason,
            "played_reason_parts": [part.to_json() for part in self.played_reason_parts],
            "best_action": self.best_action,
            "best": self.best,
            "best_value": self.best_value,
            "reason": self.reason,
            "reason_parts": [part.to_json() for part in self.reason_parts],
            "cost": self.cost,
            "choices": self.choices,
            "samples": self.samples,
        }


@dataclass(frozen=True, slots=True)
class Review:
    """The reviewed decisions of one seat in one game, in game order, and a summary."""

    game: str
    seat: int
    measure: str
    """``win_chance`` (Skip-Bo; costs are win-probability points) or ``round_points`` (Skyjo)."""
    iterations: int
    """Advisor iterations per decision (ranking every move)."""
    confirm: int
    """Advisor iterations comparing the best and the played move again."""
    decisions: int
    """Decisions of the seat with a real choice; ``len(moves)`` of them were reviewed."""
    moves: tuple[ReviewedMove, ...]

    @property
    def reviewed(self) -> int:
        return len(self.moves)

    @property
    def total_cost(self) -> float:
        return sum(move.cost for move in self.moves)

    @property
    def average_cost(self) -> float:
        return self.total_cost / len(self.moves) if self.moves else 0.0

    @property
    def best_moves(self) -> int:
        """Reviewed decisions where the seat played a move the advisor valued best."""
        return sum(1 for move in self.moves if move.cost == 0.0)

    def worst(self, count: int = WORST) -> tuple[ReviewedMove, ...]:
        """The costliest moves (cost above 0), costliest first, earliest first on ties."""
        costly = sorted((m for m in self.moves if m.cost > 0.0), key=lambda m: (-m.cost, m.number))
        return tuple(costly[:count])

    def to_json(self, worst: int = WORST) -> JSON:
        return {
            "game": self.game,
            "seat": self.seat,
            "measure": self.measure,
            "iterations": self.iterations,
            "confirm": self.confirm,
            "decisions": self.decisions,
            "reviewed": self.reviewed,
            "best_moves": self.best_moves,
            "total_cost": self.total_cost,
            "average_cost": self.average_cost,
            "worst": [move.number for move in self.worst(worst)],
            "moves": [move.to_json() for move in self.moves],
        }


def has_choice(state: GameState[Any], seat: int) -> bool:
    """Whether ``seat`` is to move with more than one move worth telling apart."""
    if state.current_player != seat:
        return False
    if isinstance(state, SkyjoState) and state.phase == SETUP:
        return False  # twelve unknown cards: nothing to tell them apart by
    return distinct_moves(state) > 1


def review_position(
    state: GameState[Any],
    seat: int,
    action: int,
    iterations: int,
    seed: int,
    confirm: int | None = None,
) -> ReviewedMove | None:
    """The verdict on ``seat`` playing ``action`` in ``state``; None without a real choice.

    Two steps, so that the cost is not inflated by luck: the advisor first ranks
    every legal move on ``iterations`` re-deals; picking the highest of many noisy
    estimates favours a move that was lucky, so the best move and the played one
    are then compared again, alone, on ``confirm`` fresh re-deals (default
    ``4 * iterations``), each re-deal playing both, and the cost and both values
    come from that comparison. The cost is counted only when it is clear: its mean
    more than ``CLEAR`` (2) standard errors of the paired differences above 0. A
    played move the first step values as high as the best costs 0, and so does one
    whose loss is not clear; the best move shown is then the played one.

    ``state`` is not changed. The advisor sees only a re-deal of what ``seat``
    cannot see, so the answer is the same for every state that looks the same to
    ``seat``.
    """
    if iterations < 1:
        raise ValueError(f"iterations must be at least 1, got {iterations}")
    confirm = 4 * iterations if confirm is None else confirm
    if confirm < 1:
        raise ValueError(f"confirm must be at least 1, got {confirm}")
    if not state.is_legal_action(action):
        raise ValueError(f"action {action} is not legal for seat {seat} here")
    if not has_choice(state, seat):
        return None
    rng = Rng(seed)
    world = state.determinize(seat, rng.spawn())
    ranked = advise(world, seat, Budget(iterations=iterations, milliseconds=None), rng.next64())
    best = ranked[0]
    played = next((item for item in ranked if item.action == action), None)
    if played is None:  # the advisor values every legal move; this would be a bug
        raise RuntimeError(f"the advisor gave no value to the played action {action}")
    win_chance = isinstance(state, SkipBoState)
    cost = 0.0
    if played.value == best.value:
        best = played  # as good as the first choice: the played move is shown as best
    else:
        best, played, cost = _compare(world, seat, best, played, confirm, rng, win_chance)
    return ReviewedMove(
        number=len(state.history) + 1,
        round=len(state.rounds()) + 1,
        action=action,
        played=played.move,
        played_value=played.value,
        played_reason=played.reason,
        best_action=best.action,
        best=best.move,
        best_value=best.value,
        reason=best.reason,
        cost=cost,
        choices=distinct_moves(state),
        samples=played.samples,
        played_reason_parts=played.reason_parts,
        reason_parts=best.reason_parts,
    )


def _compare(
    world: GameState[Any],
    seat: int,
    best: Advice,
    played: Advice,
    confirm: int,
    rng: Rng,
    win_chance: bool,
) -> tuple[Advice, Advice, float]:
    """The best and played moves valued again on ``confirm`` fresh re-deals, each
    re-deal playing both (paired), and the loss if it is clear, else 0.

    A loss is clear when its mean is above ``CLEAR`` standard errors of the paired
    differences; otherwise the played move is reported as good as the best.
    """
    differences = []
    totals = {best.action: 0.0, played.action: 0.0}
    latest: dict[int, Advice] = {}
    one = Budget(iterations=1, milliseconds=None)
    for _ in range(confirm):
        pair = advise(world, seat, one, rng.next64(), moves=(best.action, played.action))
        latest = {item.action: item for item in pair}
        first, mine = latest[best.action].value, latest[played.action].value
        totals[best.action] += first
        totals[played.action] += mine
        differences.append(first - mine if win_chance else mine - first)
    mean = sum(differences) / confirm
    stderr = (
        math.sqrt(sum((d - mean) ** 2 for d in differences) / (confirm - 1) / confirm)
        if confirm > 1
        else 0.0
    )
    again_best, again_played = (
        dataclasses.replace(latest[action], value=totals[action] / confirm, samples=confirm)
        for action in (best.action, played.action)
    )
    if mean > 0.0 and mean > CLEAR * stderr:
        return again_best, again_played, mean
    return again_played, again_played, 0.0  # no clear loss: the played move is as good


def decision_indices(
    game: Game[Any], rules: RulesBase, seed: int, actions: Sequence[int], seat: int
) -> list[int]:
    """Positions in ``actions`` where ``seat`` moved with a real choice (replays the game)."""
    state = game.new_state(rules, seed)
    _check_seat(state, seat)
    found = []
    for index, action in enumerate(actions):
        if has_choice(state, seat):
            found.append(index)
        state.apply_action(action)
    return found


def spread(indices: Sequence[int], count: int | None) -> list[int]:
    """At most ``count`` of ``indices``, evenly spread from the first to the last."""
    if count is None or len(indices) <= count:
        return list(indices)
    if count < 1:
        return []
    if count == 1:
        return [indices[0]]
    last = len(indices) - 1
    return [indices[(i * last) // (count - 1)] for i in range(count)]


def review_game(
    game: Game[Any],
    rules: RulesBase,
    seed: int,
    actions: Sequence[int],
    seat: int,
    *,
    iterations: int = DEFAULT_ITERATIONS,
    confirm: int | None = None,
    max_decisions: int | None = None,
    rng: Rng | None = None,
    progress: Callable[[int, int], None] | None = None,
    judge: PositionJudge | None = None,
) -> Review:
    """Review ``seat``'s decisions in the game dealt from ``seed`` and played as ``actions``.

    ``iterations``: advisor re-deals per decision to rank every move; ``confirm``:
    re-deals to compare the best and the played move again (see
    :func:`review_position`). ``max_decisions``: review at most
    this many decisions, evenly spread over the game. ``rng`` (default ``Rng(0)``)
    fixes the advisor's re-deals. ``progress(done, total)`` is called after each one.
    ``judge(state, seat, action, seed)``, when given, gives each decision's verdict
    instead of :func:`review_position` (the precise judge of :mod:`cardtable.sim.judge`,
    which this layer may not import).
    An illegal action in ``actions`` raises the engine's error.
    """
    if iterations < 1:
        raise ValueError(f"iterations must be at least 1, got {iterations}")
    if max_decisions is not None and max_decisions < 0:
        raise ValueError(f"max_decisions must not be negative, got {max_decisions}")
    indices = decision_indices(game, rules, seed, actions, seat)
    chosen = set(spread(indices, max_decisions))
    base = (rng or Rng(0)).next64()
    state = game.new_state(rules, seed)
    reviewed: list[ReviewedMove] = []
    for index, action in enumerate(actions):
        if index in chosen:
            decision_seed = _decision_seed(base, index)
            if judge is not None:
                verdict = judge(state, seat, action, decision_seed)
            else:
                verdict = review_position(state, seat, action, iterations, decision_seed, confirm)
            assert verdict is not None, "a decision index always has a choice"
            reviewed.append(verdict)
            if progress is not None:
                progress(len(reviewed), len(chosen))
        state.apply_action(action)
    return Review(
        game=game.name,
        seat=seat,
        measure=MEASURES.get(game.name, "value"),
        iterations=iterations,
        confirm=4 * iterations if confirm is None else confirm,
        decisions=len(indices),
        moves=tuple(reviewed),
    )


def review_message(game: Game[Any], review: Review, game_no: int | None = None) -> JSON:
    """``review`` in the form of the table's ``review`` message (docs/protocol.md): its
    JSON with the ``WORST`` costliest moves named, each move also in the engine's JSON
    form (``played_move``, ``best_move``) for clients that word moves themselves."""
    data: JSON = {"type": "review", "game_no": game_no, **review.to_json(WORST)}
    for move in data["moves"]:
        move["played_move"] = game.decode(move["action"]).to_json()
        move["best_move"] = game.decode(move["best_action"]).to_json()
    return data


def _decision_seed(base: int, index: int) -> int:
    return Rng((base ^ ((index + 1) * _GOLDEN)) & _MASK64).next64()


def _check_seat(state: GameState[Any], seat: int) -> None:
    if not 0 <= seat < state.num_players:
        raise ValueError(f"seat {seat} outside 0..{state.num_players - 1}")


def amount_text(measure: str, cost: float) -> str:
    """A cost for people: ``4.2%`` (Skip-Bo, of win chance) or ``1.3 points`` (Skyjo)."""
    if measure == "win_chance":
        return f"{100 * cost:.1f}%"
    return f"{cost:.1f} points"


def cost_text(measure: str, cost: float) -> str:
    """``about 4.2%`` or ``about 1.3 points``: an estimate, not an exact figure."""
    return f"about {amount_text(measure, cost)}"


def value_text(measure: str, value: float) -> str:
    """A value for people: ``62% to win`` (Skip-Bo) or ``5.4 points expected`` (Skyjo)."""
    if measure == "win_chance":
        return f"{100 * value:.0f}% to win"
    return f"{value:.1f} points expected"

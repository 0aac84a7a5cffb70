"""Cross-check of the Skip-Bo batch engine against the reference engine, move by move.

:func:`cross_check` plays games with the batch engine's compiled random policy (or,
with ``bot="greedy"`` or ``bot="hard"``, that compiled bot in every seat), recording
every move (its action, the legal actions before it, the state after it), and replays
each game through the reference :class:`cardtable.skipbo.SkipBoState` from the same
seed, requiring:

- before every move, the same legal actions; with a bot other than random, the
  same choice as the Python bot (``choose``: :class:`cardtable.bots.skipbo.GreedyBot`'s
  or :class:`cardtable.bots.skipbo_hard.HardBot`'s) with the same generator;
- after every move, the same state: seat to move, round, starter, turn and idle
  counters, the built flag, pile sizes, the game-over flag, moves, finished rounds
  and the last one's points, winners, turns and blocked flag, the blocked run, the
  result's winners, scores and blocked flag, the dealer of sheet 003's cut, the
  generator's state, every seat's hand (by value), hand size, stock size and top,
  score and partner, every discard pile's size and top, every building pile's size
  and top;
- the whole of every pile (draw pile, completed cards, stocks, discard and building
  piles, in order) at the deal, after every move that drew from the generator (a new
  round's deal or a reshuffle of the completed piles: what lies under the tops
  changed), at the end, and with ``full=True`` after every move. Between those
  moments piles only gain or lose their top card, which the step's tops and sizes
  check;
- the same result at the end.

The first disagreement is returned as a :class:`~cardtable.fast.mismatch.Mismatch`
naming the seed and the step, so that it can be replayed
(``GAME.replay(rules, seed, actions[:step])``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..core import Rng
from ..skipbo import GAME, SkipBoRules, SkipBoState
from ..skipbo.moves import NUM_ACTIONS
from ..skipbo.state import dealer_of
from . import skipbo_kernels as k
from .engines import POLICY_SALT
from .mismatch import Mismatch, mismatch
from .skipbo_batch import SkipBoBatch
from .skyjo_batch import seeds_array

_SCALARS = (
    "current",
    "round",
    "starter",
    "turns",
    "idle",
    "built",
    "draw_len",
    "completed_len",
    "over",
    "moves",
    "rounds_done",
    "blocked_run",
    "winners",
    "final_blocked",
    "round_winners",
    "round_turns",
    "round_blocked",
    "blocked_rounds",
    "all_turns",
    "dealer",
    "rng_low",
    "rng_high",
)
assert len(_SCALARS) == k.NF + 2
_LOW32 = (1 << 32) - 1
#: The compiled bots the cross-check plays (``skipbo_bots.TOURNAMENT_NAMES``, whose
#: module compiles on import).
BOTS = ("random", "greedy", "hard")


@dataclasses.dataclass
class CheckReport:
    """What a cross-check covered, and its first mismatch (None: every step agreed)."""

    games: int = 0
    moves: int = 0
    rounds: int = 0
    blocked_rounds: int = 0
    turn_limit_rounds: int = 0
    reshuffles: int = 0
    piles_completed: int = 0
    team_wins: int = 0
    stock_wins: int = 0
    matches_to_target: int = 0
    matches_blocked: int = 0
    full_compares: int = 0
    mismatch: Mismatch | None = None

    def add(self, state: SkipBoState) -> None:
        """Count what the finished reference game ``state`` went through."""
        self.games += 1
        log = state.round_log
        self.rounds += len(log)
        self.blocked_rounds += sum(entry.blocked for entry in log)
        self.turn_limit_rounds += sum(
            entry.blocked and entry.turns >= state.rules.turn_limit for entry in log
        )
        self.team_wins += sum(len(entry.winners) == 2 for entry in log)
        self.stock_wins += sum(bool(entry.winners) for entry in log)
        final = state.final
        if state.rules.rounds and final is not None:
            self.matches_blocked += final.blocked
            self.matches_to_target += not final.blocked


def field_names(players: int) -> list[str]:
    """Names of the entries of a :func:`cardtable.fast.skipbo_kernels.write_row` row."""
    names = list(_SCALARS)
    for part in ("hand_size", "stock_size", "stock_top", "score", "points", "final", "partner"):
        names += [f"{part}[{seat}]" for seat in range(players)]
    names += [f"hands[{seat}][{card}]" for seat in range(players) for card in range(k.CARDS)]
    piles = [f"{seat}.{index}" for seat in range(players) for index in range(k.PILES)]
    names += [f"discard_size[{pile}]" for pile in piles]
    names += [f"discard_top[{pile}]" for pile in piles]
    names += [f"building_size[{pile}]" for pile in range(k.PILES)]
    names += [f"building_top[{pile}]" for pile in range(k.PILES)]
    return names


def _mask(seats: Iterable[int]) -> int:
    mask = 0
    for seat in seats:
        mask |= 1 << seat
    return mask


class _RowCache:
    """The fields of ``write_row`` that change only when a round ends, recomputed then
    (so a step costs what it reads): the round counters, the result, the scores, the
    last round's points, the dealer and the partners."""

    def __init__(self) -> None:
        self.key: tuple[int, bool] | None = None
        self.rounds: list[int] = []
        self.seats: list[int] = []

    def refresh(self, state: SkipBoState) -> None:
        key = (len(state.round_log), state.final is not None)
        if key == self.key:
            return
        self.key = key
        n = state.n
        log = state.round_log
        last = log[-1] if log else None
        final = state.final
        self.rounds = [
            len(log),
            state.blocked_run() if log else 0,
            0 if final is None else _mask(final.winners),
            0 if final is None else int(final.blocked),
            0 if last is None else _mask(last.winners),
            0 if last is None else last.turns,
            0 if last is None else int(last.blocked),
            sum(entry.blocked for entry in log),
            sum(entry.turns for entry in log),
            dealer_of(state.cut) if state.cut else k.NO_SEAT,
        ]
        self.seats = [
            *state.scores,
            *(last.points if last is not None else (0,) * n),
            *(final.scores if final is not None else (0,) * n),
            *(k.NO_SEAT if mate is None else mate for mate in state.partners),
        ]


def reference_row(state: SkipBoState, cache: _RowCache | None = None) -> list[int]:
    """The reference state's fields in the layout of ``write_row`` (``cache``: one per
    game replayed, to skip what did not change since the last round ended)."""
    if cache is None:
        cache = _RowCache()
    cache.refresh(state)
    rng = state.rng.state
    stocks = state.stocks
    row = [
        state.current,
        state.round_index,
        state.starter,
        state.turns,
        state.idle,
        int(state.built),
        len(state.draw),
        len(state.completed),
        int(state.final is not None),
        len(state.history),
        *cache.rounds,
        rng & _LOW32,
        rng >> 32,
        *state.hand_sizes,
        *[len(stock) for stock in stocks],
        *[stock[-1] if stock else k.NO_CARD for stock in stocks],
        *cache.seats,
    ]
    for hand in state.hands:
        row += hand
    piles = [pile for piles in state.discards for pile in piles]
    row += [len(pile) for pile in piles]
    row += [pile[-1] if pile else k.NO_CARD for pile in piles]
    building = state.building
    row += [len(pile) for pile in building]
    row += [pile[-1] if pile else k.NO_CARD for pile in building]
    return row


def reference_fields(state: SkipBoState) -> dict[str, Any]:
    """The reference state in the terms of :meth:`SkipBoBatch.fields`."""
    return {
        "current": state.current,
        "round_index": state.round_index,
        "starter": state.starter,
        "turns": state.turns,
        "idle": state.idle,
        "built": state.built,
        "hands": [hand[:] for hand in state.hands],
        "hand_sizes": state.hand_sizes[:],
        "stocks": [stock[:] for stock in state.stocks],
        "discards": [[pile[:] for pile in piles] for piles in state.discards],
        "building": [pile[:] for pile in state.building],
        "draw": state.draw[:],
        "completed": state.completed[:],
        "scores": state.scores[:],
        "rng": state.rng.state,
        "rounds": len(state.round_log),
        "moves": len(state.history),
        "over": state.final is not None,
    }


def _first_field(reference: dict[str, Any], batch: dict[str, Any]) -> tuple[str, Any, Any] | None:
    for name, value in reference.items():
        if batch[name] != value:
            return name, value, batch[name]
    return None


_POWERS = [1 << code for code in range(NUM_ACTIONS)]


def _legal_bits(state: SkipBoState) -> int:
    return sum(map(_POWERS.__getitem__, state.legal_actions()))


def _codes(bits: int) -> list[int]:
    return [code for code in range(bits.bit_length()) if bits >> code & 1]


def cross_check(
    rules: SkipBoRules,
    seeds: Iterable[int],
    *,
    bot: str = "random",
    choose: Callable[[SkipBoState, Rng], int] | None = None,
    params: NDArray[np.float64] | None = None,
    full: bool = False,
    chunk: int = 32,
    trace_moves: int = 256,
) -> CheckReport:
    """Play the games of ``seeds`` in the batch engine with ``bot`` at every seat and
    replay them through the reference (``chunk`` games at a time, traced up to
    ``trace_moves`` moves at a time); stops at the first mismatch. With a compiled bot
    other than random, ``choose`` is the Python bot's ``choose`` (``GreedyBot().choose``,
    ``HardBot().choose``; this package may not import the bots), whose choice must be
    the compiled one's at every move; ``hard`` plays with the weights ``params``
    (:func:`~cardtable.fast.skipbo_hard.hard_params` of the Python bot's weights)."""
    from .skipbo_hard import PARAMS

    if bot not in BOTS:
        raise ValueError(f"bot must be one of {', '.join(BOTS)}, got {bot!r}")
    if (bot == "random") != (choose is None):
        raise ValueError("give choose (the Python bot's) for a bot other than random only")
    if bot == "hard" and (params is None or params.shape != (PARAMS,)):
        raise ValueError(f"bot 'hard' needs params, an array of its {PARAMS} parameters")
    weights = np.zeros(PARAMS) if params is None else params
    all_seeds = list(seeds)
    names = field_names(rules.players)
    report = CheckReport()
    for start in range(0, len(all_seeds), chunk):
        part = all_seeds[start : start + chunk]
        report.mismatch = _check_chunk(
            rules, part, names, (bot, choose, weights), 1 if full else trace_moves, report
        )
        if report.mismatch is not None:
            break
    return report


def _check_chunk(
    rules: SkipBoRules,
    seeds: list[int],
    names: list[str],
    player: tuple[str, Callable[[SkipBoState, Rng], int] | None, NDArray[np.float64]],
    trace_moves: int,
    report: CheckReport,
) -> Mismatch | None:
    from . import skipbo_bots
    from .skipbo_hard import HardWork

    bot, choose, params = player
    work = HardWork(rules)

    size = len(seeds)
    n = rules.players
    batch = SkipBoBatch(rules, size)
    batch.reset(seeds)
    policy_seeds = [seed ^ POLICY_SALT for seed in seeds]
    policy = seeds_array(policy_seeds, size)
    kind = BOTS.index(bot)
    states = [GAME.new_state(rules, seed) for seed in seeds]
    # The Python bot's generator (greedy draws nothing, but is given one as in a game).
    rngs = [Rng(seed) for seed in policy_seeds]
    actions_of: list[list[int]] = [[] for _ in range(size)]
    width = k.row_size(n)
    row = np.zeros(width, dtype=np.int64)
    for b, state in enumerate(states):  # the deals themselves, before any move
        k.write_row(batch.st, batch.cfg, b, row)
        ref = reference_row(state)
        if ref != row.tolist():
            return mismatch(seeds[b], policy_seeds[b], 0, "deal", ref, row.tolist(), [], names)
        differs = _first_field(reference_fields(state), batch.fields(b))
        if differs is not None:
            what, ref_value, got = differs
            what = f"deal: {what}"
            return mismatch(seeds[b], policy_seeds[b], 0, what, ref_value, got, [], names)
    caches = [_RowCache() for _ in range(size)]
    # Written afresh by every traced segment (up to ``played[b]`` moves of game ``b``).
    actions = np.zeros((size, trace_moves), dtype=np.int64)
    legal = np.zeros((size, trace_moves, k.WORDS), dtype=np.uint64)
    rows = np.zeros((size, trace_moves, width), dtype=np.int64)
    played = np.zeros(size, dtype=np.int64)
    while not batch.is_over.all():
        skipbo_bots.play_traced(
            batch.st, batch.cfg, kind, policy, batch.scratch, params, work.arrays, work.copy.st,
            actions, legal, rows, played,
        )  # fmt: skip
        for b in range(size):
            count = int(played[b])
            if count == 0:
                continue
            found = _check_segment(
                states[b],
                actions[b, :count].tolist(),
                legal[b, :count].tolist(),
                rows[b, :count].tolist(),
                choose,
                rngs[b],
                caches[b],
                actions_of[b],
                report,
            )
            report.moves += count
            if found is None:
                # The end of a segment: a deal, a reshuffle, the end of the game or the
                # trace's length. Everything under the tops is compared here.
                report.full_compares += 1
                fields = _first_field(reference_fields(states[b]), batch.fields(b))
                if fields is not None:
                    what, ref_value, got = fields
                    found = (len(actions_of[b]) - 1, what, ref_value, got)
            if found is not None:
                step, what, ref_value, got = found
                return mismatch(
                    seeds[b], policy_seeds[b], step, what, ref_value, got, actions_of[b], names
                )
    for b, state in enumerate(states):
        if not state.is_over or state.result() != batch.result(b):
            step = len(actions_of[b])
            expected, got = state.result(), batch.result(b)
            return mismatch(seeds[b], policy_seeds[b], step, "result", expected, got, [], names)
        if state.rounds()[-1] != batch.last_round(b):
            step = len(actions_of[b])
            expected_round, got_round = state.rounds()[-1], batch.last_round(b)
            return mismatch(
                seeds[b], policy_seeds[b], step, "last round", expected_round, got_round, [], names
            )
        report.add(state)
    return None


def _check_segment(
    state: SkipBoState,
    actions: list[int],
    legal: list[list[int]],
    rows: list[list[int]],
    choose: Callable[[SkipBoState, Rng], int] | None,
    rng: Rng,
    cache: _RowCache,
    history: list[int],
    report: CheckReport,
) -> tuple[int, str, Any, Any] | None:
    """Replay one traced segment; (step, what, reference, batch) of a difference, or None."""
    for t, action in enumerate(actions):
        step = len(history)
        history.append(action)
        words = legal[t]
        bits = words[0] | words[1] << 64 | words[2] << 128 | words[3] << 192
        ref_bits = _legal_bits(state)
        if ref_bits != bits:
            return step, "legal actions", _codes(ref_bits), _codes(bits)
        if choose is not None:
            chosen = choose(state, rng)
            if chosen != action:
                return step, "bot choice", chosen, action
        round_before, done_before = state.round_index, len(state.completed)
        generator = state.rng.state
        state.advance(action)
        ref = reference_row(state, cache)
        if ref != rows[t]:
            return step, "state", ref, rows[t]
        if state.rng.state != generator and state.round_index == round_before:
            report.reshuffles += 1
        if len(state.completed) > done_before:
            report.piles_completed += 1
    return None

"""Cross-check of the Skyjo batch engine against the reference engine, move by move.

:func:`cross_check` plays games with the batch engine's compiled random policy (or,
with ``bot="greedy"`` or ``bot="hard"``, that compiled bot in every seat), recording
every move (its action, the legal mask before it, the whole state after it) and
replays each game through the reference :class:`cardtable.skyjo.SkyjoState` from the
same seed, requiring at every step:

- the same legal actions; with a bot other than random, the same choice as the
  Python bot (``choose``, e.g. ``HardBot().choose``) drawing from the same generator;
- the same state after the move: phase, seat to move, held card, starter, closer,
  the last round's closer and points, round and turn counters, the reshuffle flag,
  pile sizes, finished rounds, the blocked flag, the number of moves, the deal
  generator's state, every seat's ``present``/``down`` masks, totals and grid cards
  (hidden ones included);
- the whole draw pile (in order) and discard pile: at every step with ``full=True``,
  otherwise whenever they can change other than at their tops (a deal, a reshuffle, a
  line leaving a grid) and at the end: between those the piles only lose or gain their
  top card, which the step's held card and pile sizes already check;
- the same result (winners, scores, blocked) at the end.

The first disagreement is returned as a :class:`Mismatch` naming the seed and the
step, so that it can be replayed (``GAME.replay(rules, seed, actions[:step])``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..core import Rng
from ..skyjo import GAME, SkyjoRules, SkyjoState
from . import skyjo_kernels as k
from .engines import POLICY_SALT
from .mismatch import Mismatch
from .mismatch import mismatch as _mismatch
from .skyjo_batch import SkyjoBatch, seeds_array
from .skyjo_bots import TOURNAMENT_NAMES, play_traced
from .skyjo_hard import PARAMS, work_array

_SCALARS = (
    "phase",
    "player",
    "hand",
    "starter",
    "closer",
    "last_closer",
    "round",
    "turns",
    "reshuffled",
    "draw_len",
    "discard_len",
    "rounds_done",
    "blocked",
    "moves",
    "doubled",
    "round_turns",
    "round_blocked",
    "rng_low",
    "rng_high",
)
assert len(_SCALARS) == k.NF + 2
_LOW32 = (1 << 32) - 1


@dataclasses.dataclass
class CheckReport:
    """What a cross-check covered, and its first mismatch (None: every step agreed)."""

    games: int = 0
    moves: int = 0
    rounds: int = 0
    reshuffles: int = 0
    lines_removed: int = 0
    blocked_rounds: int = 0
    doubled_rounds: int = 0
    mismatch: Mismatch | None = None

    def add(self, state: SkyjoState) -> None:
        """Count what the finished reference game ``state`` went through."""
        self.games += 1
        self.rounds += len(state.finished)
        self.blocked_rounds += sum(round_.blocked for round_ in state.finished)
        self.doubled_rounds += sum(state.doubled)


def field_names(players: int) -> list[str]:
    """Names of the entries of a :func:`cardtable.fast.skyjo_kernels.write_row` row."""
    names = list(_SCALARS)
    for part in ("present", "down", "totals", "points"):
        names += [f"{part}[{seat}]" for seat in range(players)]
    names += [f"cards[{index}]" for index in range(k.SLOTS * players)]
    return names


def reference_row(state: SkyjoState) -> list[int]:
    """The reference state's fields in the layout of ``write_row``."""
    n = state.n
    finished = state.finished
    last_closer = state.closers[-1] if state.closers else None
    rng = state.rng.state
    return [
        state.phase,
        state.player,
        k.NO_CARD if state.hand is None else state.hand,
        k.NO_SEAT if state.starter is None else state.starter,
        k.NO_SEAT if state.closer is None else state.closer,
        k.NO_SEAT if last_closer is None else last_closer,
        state.round,
        state.turns,
        int(state.reshuffled),
        len(state.draw),
        len(state.discard),
        len(finished),
        int(any(round_.blocked for round_ in finished)),
        len(state.history),
        int(state.doubled[-1]) if state.doubled else 0,
        finished[-1].turns if finished else 0,
        int(finished[-1].blocked) if finished else 0,
        rng & _LOW32,
        rng >> 32,
        *state.present,
        *state.down,
        *state.totals,
        *(finished[-1].points if finished else (0,) * n),
        *state.cards,
    ]


def _piles(row: np.ndarray[Any, Any]) -> tuple[list[int], list[int]]:
    draw = [int(card) for card in row[: k.DECK_SIZE] if card != k.NO_CARD]
    discard = [int(card) for card in row[k.DECK_SIZE :] if card != k.NO_CARD]
    return draw, discard


def _legal_bits(state: SkyjoState) -> int:
    bits = 0
    for code in state.legal_actions():
        bits |= 1 << code
    return bits


Choose = Callable[[SkyjoState, Rng], int]


def cross_check(
    rules: SkyjoRules,
    seeds: Iterable[int],
    *,
    bot: str = "random",
    choose: Choose | None = None,
    params: NDArray[np.float64] | None = None,
    full: bool = False,
    chunk: int = 32,
    trace_moves: int = 1000,
) -> CheckReport:
    """Play the games of ``seeds`` in the batch engine with the compiled ``bot`` in every
    seat and replay them through the reference (``chunk`` games at a time, traced
    ``trace_moves`` moves at a time); stops at the first mismatch. ``choose``: the
    Python bot whose choices the compiled one must make (required for a bot other than
    random); ``params``: the ``hard`` bot's weights
    (:func:`~cardtable.fast.skyjo_hard.hard_params`)."""
    if bot not in TOURNAMENT_NAMES:
        raise ValueError(f"bot must be one of {', '.join(TOURNAMENT_NAMES)}, got {bot!r}")
    if bot != "random" and choose is None:
        raise ValueError(f"bot {bot!r} needs choose, the Python bot to compare with")
    if bot == "hard" and (params is None or params.shape != (PARAMS,)):
        raise ValueError(f"bot 'hard' needs params, an array of its {PARAMS} parameters")
    weights = np.zeros(PARAMS) if params is None else params
    all_seeds = list(seeds)
    names = field_names(rules.players)
    report = CheckReport()
    kind = TOURNAMENT_NAMES.index(bot)
    for start in range(0, len(all_seeds), chunk):
        part = all_seeds[start : start + chunk]
        report.mismatch = _check_chunk(
            rules, part, names, (kind, choose, weights), full, trace_moves, report
        )
        if report.mismatch is not None:
            break
    return report


def _check_chunk(
    rules: SkyjoRules,
    seeds: list[int],
    names: list[str],
    player: tuple[int, Choose | None, NDArray[np.float64]],
    full: bool,
    trace_moves: int,
    report: CheckReport,
) -> Mismatch | None:
    kind, choose, params = player
    size = len(seeds)
    batch = SkyjoBatch(rules, size)
    batch.reset(seeds)
    policy_seeds = [seed ^ POLICY_SALT for seed in seeds]
    policy = seeds_array(policy_seeds, size)
    work = work_array()
    states = [GAME.new_state(rules, seed) for seed in seeds]
    # The Python bot's generator, drawn from in every seat as the compiled bot's.
    rngs = [Rng(seed) for seed in policy_seeds]
    actions_of: list[list[int]] = [[] for _ in range(size)]
    width = k.row_size(rules.players)
    first = [reference_row(state) for state in states]
    # The deals themselves, before any move.
    for b, state in enumerate(states):
        row = np.zeros(width, dtype=np.int64)
        k.write_row(batch.st, batch.cfg, b, row)
        fields = batch.fields(b)
        for what, ref, got in (
            ("deal", first[b], row.tolist()),
            ("draw pile", state.draw, fields["draw"]),
            ("discard pile", state.discard, fields["discard"]),
        ):
            if ref != got:
                return _mismatch(seeds[b], policy_seeds[b], 0, what, ref, got, [], names)
    while not batch.is_over.all():
        actions = np.zeros((size, trace_moves), dtype=np.int64)
        legal = np.zeros((size, trace_moves), dtype=np.int64)
        rows = np.zeros((size, trace_moves, width), dtype=np.int64)
        piles = np.zeros((size, trace_moves, 2 * k.DECK_SIZE), dtype=np.int8)
        played = np.zeros(size, dtype=np.int64)
        play_traced(
            batch.st, batch.cfg, kind, policy, params, work, actions, legal, rows, piles, played
        )
        for b in range(size):
            count = int(played[b])
            if count == 0:
                continue
            found = _check_game(
                states[b],
                actions[b, :count].tolist(),
                legal[b, :count].tolist(),
                rows[b, :count].tolist(),
                piles[b, :count],
                full,
                (choose, rngs[b]),
                actions_of[b],
                report,
            )
            report.moves += count
            if found is not None:
                step, what, ref, got = found
                return _mismatch(
                    seeds[b], policy_seeds[b], step, what, ref, got, actions_of[b], names
                )
    for b, state in enumerate(states):
        if not state.is_over or state.result() != batch.result(b):
            step = len(actions_of[b])
            expected, got = state.result(), batch.result(b)
            return _mismatch(seeds[b], policy_seeds[b], step, "result", expected, got, [], names)
        report.add(state)
    return None


def _check_game(
    state: SkyjoState,
    actions: list[int],
    legal: list[int],
    rows: list[list[int]],
    piles: np.ndarray[Any, Any],
    full: bool,
    player: tuple[Choose | None, Rng],
    history: list[int],
    report: CheckReport,
) -> tuple[int, str, Any, Any] | None:
    """Replay one traced segment; (step, what, reference, batch) of a difference, or None."""
    last = len(actions) - 1
    for t, action in enumerate(actions):
        step = len(history)
        history.append(action)
        bits = _legal_bits(state)
        if bits != legal[t]:
            return step, "legal actions", _codes(bits), _codes(legal[t])
        choose, rng = player
        if choose is not None:
            chosen = choose(state, rng)
            if chosen != action:
                return step, "bot choice", chosen, action
        before = (state.round, state.reshuffled, len(state.discard))
        seat = state.player
        present = state.present[seat]
        state.advance(action)
        ref = reference_row(state)
        if ref != rows[t]:
            return step, "state", ref, rows[t]
        after = (state.round, state.reshuffled, len(state.discard))
        if after[0] == before[0]:
            report.reshuffles += after[1] and not before[1]
            report.lines_removed += present != state.present[seat]
        piles_may_differ = (
            before[0] != after[0] or before[1] != after[1] or abs(before[2] - after[2]) > 1
        )
        if full or piles_may_differ or t == last or state.is_over:
            draw, discard = _piles(piles[t])
            if draw != state.draw:
                return step, "draw pile", state.draw, draw
            if discard != state.discard:
                return step, "discard pile", state.discard, discard
    return None


def _codes(bits: int) -> list[int]:
    return [code for code in range(k.NUM_ACTIONS) if bits >> code & 1]

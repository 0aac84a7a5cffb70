"""The Skyjo ``hard`` bot as a compiled kernel, choosing exactly what the Python bot chooses.

:func:`hard_action` is :meth:`cardtable.bots.skyjo_hard.HardBot.choose` for the seat
to move in game ``b``: the same model of what the seat knows (the unseen cards
counted from the deck, the columns valued at their expected sums less the hope of a
pair, going out priced against the rivals' estimates, the denial of a discard), the
same choice among the moves (lowest value, then lowest action code) and the same
draws of its generator (set-up reveals and a single legal move only). The Python bot
is the reference; its module says what each term means, and this one only how the
arithmetic is kept equal to the last bit, since a choice between two moves of equal
value turns on the last bit:

- every float operation in the Python bot's order (``a * b * c`` is ``(a * b) * c``),
  with sums from the left (the Python bot adds in a loop for that reason: Python
  3.12's ``sum`` compensates rounding errors);
- ``math.erfc`` is the C library's ``erfc`` in both;
- ``x ** 2`` and ``0.5 ** x`` are the C library's ``pow`` in Python, which differs
  from ``x * x`` in about one case in 1,200. The compiler replaces ``pow`` by a
  multiplication (or ``exp2``) when it sees a constant operand, so both operands
  come from the run-time parameter array (``P_HALF``, ``P_TWO``) and ``pow`` is
  called as Python calls it;
- the Python bot's caches (column values, reveals, closings, denials) are pure
  functions of their keys, so computing a value afresh gives the cached value.

The model lives in a float64 work array (the kernels allocate nothing): the counts of
the unseen values, the rivals' estimates and spreads, and the scalars ``W_*``. A cell
of a column is its face-up value, :data:`FACE_DOWN` (the Python bot's None) or
:data:`GONE`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..skyjo.cards import DECK_COUNTS, HIGHEST, LOWEST
from . import skyjo_kernels as k
from .compiled import inline_kernel, kernel

#: HardBot's weights, in the order of the parameter array.
WEIGHTS = (
    "pair_weight",
    "pair_draws",
    "reveal_bonus",
    "deny_weight",
    "deny_free",
    "close_weight",
    "last_turn_gain",
    "last_turn_spread",
    "take_margin",
    "patience",
    "fear_halving",
)
(
    P_PAIR_WEIGHT,
    P_PAIR_DRAWS,
    P_REVEAL_BONUS,
    P_DENY_WEIGHT,
    P_DENY_FREE,
    P_CLOSE_WEIGHT,
    P_LAST_TURN_GAIN,
    P_LAST_TURN_SPREAD,
    P_TAKE_MARGIN,
    P_PATIENCE,
    P_FEAR_HALVING,
    P_HALF,  # 0.5, the base of the doubling fear's halving
    P_TWO,  # 2.0, the exponent of the variance's squares
) = range(13)
PARAMS = 13

VALUES = HIGHEST - LOWEST + 1
#: The deck's count of each value, indexed by ``value - LOWEST``.
DECK = np.array([DECK_COUNTS.get(v, 0) for v in range(LOWEST, HIGHEST + 1)], dtype=np.float64)
FACE_DOWN = -100
GONE = -99
NO_PAIR = -100
_SQRT2 = math.sqrt(2.0)
_MAX_RIVALS = 7

# The work array: counts of the unseen values, rivals, then the scalars.
W_COUNTS = 0
W_ESTIMATE = W_COUNTS + VALUES
W_SPREAD = W_ESTIMATE + _MAX_RIVALS
W_RIVALS = W_SPREAD + _MAX_RIVALS  # how many rivals are filled in (0: not needed)
W_POOL = W_RIVALS + 1  # cards nobody has seen
W_MEAN = W_POOL + 1
W_VAR = W_MEAN + 1
W_FUTURE = W_VAR + 1  # 1.0: nobody closed the round yet
W_HIDDEN = W_FUTURE + 1  # own face-down cards
W_NOW = W_HIDDEN + 1  # own value now
W_NEAREST = W_NOW + 1  # the lowest rival estimate
W_FEAR = W_NEAREST + 1  # the doubling fear
W_NEXT_DOWN = W_FEAR + 1  # 1.0: the next player has a face-down card
W_NEXT_PAIRS = W_NEXT_DOWN + 1  # bit ``value - LOWEST``: two of ``value`` in a column
W_BEST_REVEAL = W_NEXT_PAIRS + 1  # the best reveal value (inf: none)
WORK = W_BEST_REVEAL + 1


def hard_params(bot: Any) -> NDArray[np.float64]:
    """The parameter array of a :class:`~cardtable.bots.skyjo_hard.HardBot` (any object
    with its weights as attributes)."""
    return np.array([float(getattr(bot, name)) for name in WEIGHTS] + [0.5, 2.0])


def work_array() -> NDArray[np.float64]:
    """A work array for :func:`hard_action` (one per thread of calls)."""
    return np.zeros(WORK, dtype=np.float64)


@inline_kernel
def _cell(st, b, seat, pos):
    """The cell at ``pos`` of ``seat``'s grid: face-up value, FACE_DOWN or GONE."""
    if not st[k.ST_PRES][b, seat] >> pos & 1:
        return GONE
    if st[k.ST_DOWN][b, seat] >> pos & 1:
        return FACE_DOWN
    return np.int64(st[k.ST_CARD][b, seat * k.SLOTS + pos])


@inline_kernel
def _face_up_sum(a, m, z):
    """The sum of a column's face-up cells."""
    total = 0
    for cell in (a, m, z):
        if cell not in (FACE_DOWN, GONE):
            total += cell
    return total


@inline_kernel
def _col_value(params, work, a, m, z):
    """``_Model.col_value((a, m, z))``."""
    hidden = 0
    if a == FACE_DOWN:
        hidden += 1
    if m == FACE_DOWN:
        hidden += 1
    if z == FACE_DOWN:
        hidden += 1
    mean = work[W_MEAN]
    total = _face_up_sum(a, m, z)
    value = total + mean * hidden
    if GONE in (a, m, z) or hidden > 1:
        return value
    pair = NO_PAIR
    if a in (m, z):
        pair = a
    elif m == z:
        pair = m
    if hidden == 0 and a == m and m == z:
        return 0.0
    if pair >= 1 and work[W_FUTURE] != 0.0 and work[W_POOL] != 0.0:
        third = float(total - 2 * pair) if hidden == 0 else mean
        chances = params[P_PAIR_DRAWS] * work[W_COUNTS + pair - LOWEST] / work[W_POOL]
        value -= params[P_PAIR_WEIGHT] * (2 * pair + third) * min(1.0, chances)
    return value


@inline_kernel
def _line_sum(a, m, z):
    """The face-up cards of a column, or 0 for three equal face-up cards (they leave)."""
    if a == m and m == z and a != FACE_DOWN:
        return 0
    return _face_up_sum(a, m, z)


@inline_kernel
def _exact_sum_after(st, b, seat, col, a, m, z):
    """``_Model.exact_sum_after(col, (a, m, z))``: the grid's face-up sum with column
    ``col`` holding ``a, m, z``, columns of three equal cards left out."""
    total = 0.0
    for c in range(k.COLS):
        if c == col:
            total += _line_sum(a, m, z)
            continue
        top, middle, bottom = (
            _cell(st, b, seat, c),
            _cell(st, b, seat, c + 4),
            _cell(st, b, seat, c + 8),
        )
        if top == GONE and middle == GONE and bottom == GONE:
            continue
        total += _line_sum(top, middle, bottom)
    return total


@inline_kernel
def _closing_value(cfg, params, work, score):
    """``_Model.closing_value(score)``: going out with ``score``."""
    p_lowest = 1.0
    for i in range(np.int64(work[W_RIVALS])):
        z = (score + 0.5 - work[W_ESTIMATE + i]) / work[W_SPREAD + i]
        p_lowest *= 0.5 * math.erfc(z / _SQRT2)
    value = score
    if cfg[k.C_DOUBLING] and score > 0:
        value += (1.0 - p_lowest) * score * work[W_FEAR]
    value -= params[P_CLOSE_WEIGHT] * (work[W_NEAREST] - score)
    return value


@inline_kernel
def _denial(st, cfg, b, seat, params, work, card):
    """``_Model.denial(card)``: the cost of handing ``card`` to the next player."""
    if work[W_FUTURE] == 0.0:
        return 0.0
    best = work[W_MEAN] - card if work[W_NEXT_DOWN] != 0.0 else 0.0
    other = (seat + 1) % cfg[k.C_PLAYERS]
    up = st[k.ST_PRES][b, other] & ~st[k.ST_DOWN][b, other]
    for pos in range(k.SLOTS):
        if up >> pos & 1:
            best = max(best, float(np.int64(st[k.ST_CARD][b, other * k.SLOTS + pos]) - card))
    if card >= 1 and np.int64(work[W_NEXT_PAIRS]) >> (card - LOWEST) & 1:
        best = max(best, float(3 * card))
    return params[P_DENY_WEIGHT] * max(0.0, best - params[P_DENY_FREE])


@inline_kernel
def _with_card(cells0, cells1, cells2, row, card):
    if row == 0:
        return card, cells1, cells2
    if row == 1:
        return cells0, card, cells2
    return cells0, cells1, card


@inline_kernel
def _exchange_value(st, cfg, b, seat, params, work, pos, card):
    """``_Model.exchange_value``: ``card`` goes to ``pos`` (its face-up card, if any,
    goes on the discard pile)."""
    col, row = pos % k.COLS, pos // k.COLS
    a, m, z = _cell(st, b, seat, col), _cell(st, b, seat, col + 4), _cell(st, b, seat, col + 8)
    old = a if row == 0 else m if row == 1 else z
    after0, after1, after2 = _with_card(a, m, z, row, card)
    if old == FACE_DOWN and work[W_FUTURE] != 0.0 and work[W_HIDDEN] == 1.0:
        score = _exact_sum_after(st, b, seat, col, after0, after1, after2)
        return _closing_value(cfg, params, work, score) - work[W_NOW]
    delta = _col_value(params, work, after0, after1, after2) - _col_value(params, work, a, m, z)
    if old == FACE_DOWN:
        return delta
    return delta + _denial(st, cfg, b, seat, params, work, old)


@inline_kernel
def _reveal_value(st, cfg, b, seat, params, work, pos):
    """``_Model.reveal_value``: the expected change when the card at ``pos`` turns up."""
    col, row = pos % k.COLS, pos // k.COLS
    a, m, z = _cell(st, b, seat, col), _cell(st, b, seat, col + 4), _cell(st, b, seat, col + 8)
    closes = work[W_FUTURE] != 0.0 and work[W_HIDDEN] == 1.0
    before = _col_value(params, work, a, m, z)
    now = work[W_NOW]
    pool = work[W_POOL]
    total = 0.0
    for index in range(VALUES):
        count = work[W_COUNTS + index]
        if count <= 0.0:
            continue
        p = count / pool
        after0, after1, after2 = _with_card(a, m, z, row, index + LOWEST)
        if closes:
            score = _exact_sum_after(st, b, seat, col, after0, after1, after2)
            total += p * (_closing_value(cfg, params, work, score) - now)
        else:
            total += p * (_col_value(params, work, after0, after1, after2) - before)
    total -= params[P_REVEAL_BONUS] if work[W_FUTURE] != 0.0 else 0.0
    return total


@inline_kernel
def _best_with(st, cfg, b, seat, params, work, card, drawn):
    """``_Model.best_with(card, drawn)``: the value of the best thing to do with ``card``."""
    present = st[k.ST_PRES][b, seat]
    best = np.inf
    for pos in range(k.SLOTS):
        if present >> pos & 1:
            best = min(best, _exchange_value(st, cfg, b, seat, params, work, pos, card))
    if drawn:
        best = min(best, work[W_BEST_REVEAL] + _denial(st, cfg, b, seat, params, work, card))
    return best


@kernel
def _build_model(st, cfg, b, seat, params, work):
    """``_Model(state, seat, bot)``: what ``seat`` knows, into ``work``."""
    ints = st[k.ST_INT]
    n = cfg[k.C_PLAYERS]
    cards, present, down = st[k.ST_CARD], st[k.ST_PRES], st[k.ST_DOWN]
    for index in range(VALUES):
        work[W_COUNTS + index] = DECK[index]
    for owner in range(n):
        up = present[b, owner] & ~down[b, owner]
        for pos in range(k.SLOTS):
            if up >> pos & 1:
                work[W_COUNTS + np.int64(cards[b, owner * k.SLOTS + pos]) - LOWEST] -= 1.0
    for i in range(ints[b, k.F_DISCARD_LEN]):
        work[W_COUNTS + np.int64(st[k.ST_DISC][b, i]) - LOWEST] -= 1.0
    hand = ints[b, k.F_HAND]
    if hand != k.NO_CARD:
        work[W_COUNTS + hand - LOWEST] -= 1.0
    pool = 0.0
    for index in range(VALUES):
        pool += work[W_COUNTS + index]
    work[W_POOL] = pool
    if pool != 0.0:
        mean = 0.0
        for index in range(VALUES):
            count = work[W_COUNTS + index]
            if count > 0.0:
                mean += (index + LOWEST) * (count / pool)
        var = 0.0
        for index in range(VALUES):
            count = work[W_COUNTS + index]
            if count > 0.0:
                var += (count / pool) * math.pow((index + LOWEST) - mean, params[P_TWO])
    else:
        mean = 760 / 150
        var = 15.0
    work[W_MEAN] = mean
    work[W_VAR] = var
    future = ints[b, k.F_CLOSER] == k.NO_SEAT
    work[W_FUTURE] = 1.0 if future else 0.0
    hidden = k.popcount(down[b, seat] & present[b, seat])
    work[W_HIDDEN] = hidden
    now = 0.0
    for col in range(k.COLS):
        a, m, z = _cell(st, b, seat, col), _cell(st, b, seat, col + 4), _cell(st, b, seat, col + 8)
        if not (a == GONE and m == GONE and z == GONE):
            now += _col_value(params, work, a, m, z)
    work[W_NOW] = now
    # The next player's grid, for the denial of a discard.
    other = (seat + 1) % n
    work[W_NEXT_DOWN] = 1.0 if down[b, other] & present[b, other] else 0.0
    pairs = 0
    for col in range(k.COLS):
        a, m, z = (
            _cell(st, b, other, col),
            _cell(st, b, other, col + 4),
            _cell(st, b, other, col + 8),
        )
        if GONE in (a, m, z):
            continue
        # A value on exactly two of the three cells (cells.count(v) == 2).
        if a != FACE_DOWN and (a == m) != (a == z):
            pairs |= 1 << (a - LOWEST)
        if m != FACE_DOWN and (m == a) != (m == z):
            pairs |= 1 << (m - LOWEST)
        if z != FACE_DOWN and (z == a) != (z == m):
            pairs |= 1 << (z - LOWEST)
    work[W_NEXT_PAIRS] = pairs
    # The rivals, for going out: needed only when a move can end the round.
    work[W_RIVALS] = 0.0
    if future and hidden == 1:
        turns = ints[b, k.F_TURNS]
        overdue = turns / n - params[P_PATIENCE]
        work[W_FEAR] = (
            1.0 if overdue <= 0 else math.pow(params[P_HALF], overdue / params[P_FEAR_HALVING])
        )
        nearest = np.inf
        rivals = 0
        for owner in range(n):
            if owner == seat:
                continue
            hidden_there = k.popcount(down[b, owner] & present[b, owner])
            estimate = k.face_up_sum(st, b, owner) + mean * hidden_there - params[P_LAST_TURN_GAIN]
            spread = math.sqrt(hidden_there * var + params[P_LAST_TURN_SPREAD])
            nearest = min(nearest, estimate)
            work[W_ESTIMATE + rivals] = estimate
            work[W_SPREAD + rivals] = spread
            rivals += 1
        work[W_RIVALS] = rivals
        work[W_NEAREST] = nearest


@inline_kernel
def _take_and_draw(st, cfg, b, seat, params, work):
    """``HardBot.ranked``'s values of taking the discard (before ``take_margin``) and
    of drawing, at the start of ``seat``'s turn (the model built)."""
    ints = st[k.ST_INT]
    down = st[k.ST_DOWN][b, seat] & st[k.ST_PRES][b, seat]
    # The best reveal after drawing, the same for every card drawn.
    best_reveal = np.inf
    for pos in range(k.SLOTS):
        if down >> pos & 1:
            best_reveal = min(best_reveal, _reveal_value(st, cfg, b, seat, params, work, pos))
    work[W_BEST_REVEAL] = best_reveal
    top = np.int64(st[k.ST_DISC][b, ints[b, k.F_DISCARD_LEN] - 1])
    take = _best_with(st, cfg, b, seat, params, work, top, False)
    draw = 0.0
    pool = work[W_POOL]
    for index in range(VALUES):
        count = work[W_COUNTS + index]
        if count > 0.0:
            draw += (count / pool) * _best_with(
                st, cfg, b, seat, params, work, index + LOWEST, True
            )
    return take, draw


@kernel
def hard_action(st, cfg, b, rngs, r, params, work):
    """``HardBot(**weights).choose(state, Rng)`` for the seat to move in game ``b``
    (``params``: :func:`hard_params`), drawing from generator ``rngs[r]``."""
    ints = st[k.ST_INT]
    phase = ints[b, k.F_PHASE]
    seat = ints[b, k.F_PLAYER]
    if phase == k.SETUP or k.popcount(k.legal_bits(st, b)) == 1:
        return k.random_action(st, b, rngs, r)
    present = st[k.ST_PRES][b, seat]
    down = st[k.ST_DOWN][b, seat] & present
    _build_model(st, cfg, b, seat, params, work)
    if phase == k.TURN:
        take, draw = _take_and_draw(st, cfg, b, seat, params, work)
        # sorted([(take + margin, TAKE_DISCARD), (draw, DRAW)])[0]: DRAW wins ties.
        return k.DRAW if draw <= take + params[P_TAKE_MARGIN] else k.TAKE_DISCARD
    card = np.int64(ints[b, k.F_HAND])
    best = np.inf
    action = -1
    for pos in range(k.SLOTS):
        if present >> pos & 1:
            value = _exchange_value(st, cfg, b, seat, params, work, pos, card)
            if value < best:
                best, action = value, k.EXCHANGE + pos
    if phase == k.DRAWN:
        deny = _denial(st, cfg, b, seat, params, work, card)
        for pos in range(k.SLOTS):
            if down >> pos & 1:
                value = _reveal_value(st, cfg, b, seat, params, work, pos) + deny
                if value < best:
                    best, action = value, k.DISCARD_AND_REVEAL + pos
    return action


@kernel
def hard_values(st, cfg, b, params, work, out):
    """``HardBot(**weights).ranked(state)`` for the seat to move in game ``b``: each
    legal move's value (lower is better) into ``out[code]`` (float64, one entry per
    action code), ``inf`` for the other codes. ``ranked`` values nothing in set-up or
    where a single move is legal (``hard`` moves at random there): then every entry is
    ``inf`` and the kernel returns False, else True."""
    ints = st[k.ST_INT]
    phase = ints[b, k.F_PHASE]
    seat = ints[b, k.F_PLAYER]
    for code in range(out.shape[0]):
        out[code] = np.inf
    if phase in (k.SETUP, k.OVER) or k.popcount(k.legal_bits(st, b)) < 2:
        return False
    present = st[k.ST_PRES][b, seat]
    down = st[k.ST_DOWN][b, seat] & present
    _build_model(st, cfg, b, seat, params, work)
    if phase == k.TURN:
        take, draw = _take_and_draw(st, cfg, b, seat, params, work)
        out[k.TAKE_DISCARD] = take + params[P_TAKE_MARGIN]
        out[k.DRAW] = draw
        return True
    card = np.int64(ints[b, k.F_HAND])
    for pos in range(k.SLOTS):
        if present >> pos & 1:
            out[k.EXCHANGE + pos] = _exchange_value(st, cfg, b, seat, params, work, pos, card)
    if phase == k.DRAWN:
        deny = _denial(st, cfg, b, seat, params, work, card)
        for pos in range(k.SLOTS):
            if down >> pos & 1:
                out[k.DISCARD_AND_REVEAL + pos] = (
                    _reveal_value(st, cfg, b, seat, params, work, pos) + deny
                )
    return True

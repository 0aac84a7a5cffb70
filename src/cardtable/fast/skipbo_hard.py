"""The Skip-Bo ``hard`` bot as a compiled kernel, choosing exactly what the Python bot chooses.

:func:`hard_action` is :meth:`cardtable.bots.skipbo_hard.HardBot.choose` for the seat
to move in game ``b``: a single legal move is played; a partner's stock always; else
the first play of the best line of the turn planner's depth-first search, if legal;
on a frozen table the build whose position the planner values most; else ending the
turn or the best-ranked discard. The Python bot is the reference; its module says
what each term means, and this one how the search is kept the same node for node,
because the search stops after 1,500 nodes and keeps the first line of strictly
higher value, so the order of the nodes decides the move:

- the recursion becomes an explicit stack of frames in preallocated arrays (these
  kernels allocate nothing). A frame lists its children when it is entered, in the
  Python bot's order (the discard piles in turn, then the hand's numbered cards
  ascending, then its Skip-Bo card; each onto the needs ascending); the position a
  child sees is the parent's, restored after each sibling, so listing them up front
  gives the same children as the Python loops;
- the building piles are kept as counts of what each pile needs: every value the
  planner reads (the sorted needs, ``need in nexts``, the danger's and prospects'
  minima and maxima) is a function of that multiset;
- the set of visited positions (hand counts, sorted needs, discard depths) is an
  open-addressing hash table of two 64-bit keys, cleared for each search by a new
  epoch stamp instead of by writing every slot;
- every float in the Python bot's order of operations, from the weights in a
  run-time parameter array (:func:`hard_params`).

A frozen table is planned on a copy of the game (``copy``, a one-game batch of the
same rules), where each build is applied with the full rules, round ends included.

With the work array's ``W_PER_FIRST`` set, the search also keeps the best line each
first play starts (``per_first_slot``), as ``skipbo_hard_values.ValuingPlanner`` does:
the values of the learned bot's prior (:func:`cardtable.fast.skipbo_env.hard_priors`).
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from ..skipbo.moves import DISCARD_BASE, DISCARD_PLAY_BASE, END_TURN, STOCK_BASE
from . import skipbo_kernels as k
from .compiled import inline_kernel, kernel

#: The planner's node limit (``cardtable.bots.skipbo_hard._NODE_LIMIT``).
NODE_LIMIT = 1500
WILD = 0

# The weights, in the order of the parameter array; the gift table follows them.
(
    P_STOCK_PLAYED,
    P_HAND_EMPTIED,
    P_WILD_USED,
    P_FROM_DISCARD,
    P_FROM_HAND,
    P_GIFT,
    P_GAPS,  # how many gaps the gift table has (as a float)
) = range(7)
P_GAP = 7
#: A gap is a stock top (at most 12) less a need (at least 1): entries past 11 never apply.
MAX_GAPS = 12
PARAMS = P_GAP + MAX_GAPS

# Fields of the planner's int64 work array.
(
    W_EPOCH,  # the visited table's current stamp
    W_NODES,
    W_STOCK,  # own stock top, or k.NO_CARD
    W_CAN_DRAW,
    W_BASE,  # the first discard pile of the seat (4 * seat)
    W_HAND_LEFT,  # cards in the planned hand
    W_HAND_CODE,  # the hand counts in base 6
    W_DEPTH_CODE,  # the discard depths, 8 bits each
    W_BEST_SOURCE,  # the best line's first play: its source (0: stop now) and need
    W_BEST_NEED,
    W_THREATS,  # how many opponents' stock tops follow
) = range(11)
W_THREAT = 11  # up to 5 stock tops, the next player's first
W_HAND = W_THREAT + 5  # 13 counts
W_NEEDS = W_HAND + k.CARDS  # count of building piles needing each value (1..12)
W_DEPTHS = W_NEEDS + k.CARDS  # 4 discard depths
W_PER_FIRST = W_DEPTHS + k.PILES  # 1: keep each first play's best line (``hard_priors``)
WORK = W_PER_FIRST + 1

#: Slots of the visited table (a power of two, well above the node limit).
TABLE = 4096
#: Frames of the search's stack: one per play of a line, and a line cannot be longer
#: than the node limit.
DEPTH = NODE_LIMIT + 4
#: A frame's children: 4 discard piles onto up to 4 needs each, the hand's numbered
#: cards (one need each, at most 4 distinct needs) and its Skip-Bo card onto 4 needs.
CHILDREN = 28
# Fields of a frame.
FR_FIRST_SOURCE, FR_FIRST_NEED, FR_WILDS, FR_FROM_DISCARD, FR_FROM_HAND, FR_COUNT, FR_POS = range(7)
FRAME = 7
# Fields of a child: its source (a discard pile from 1, or ``-2 - card`` of the hand),
# the need it is played onto, and whether it moves a Skip-Bo card.
CH_SOURCE, CH_NEED, CH_WILD = range(3)

STOCK_SOURCE = -1
NO_SOURCE = 0
#: With ``W_PER_FIRST`` set, ``best[per_first_slot(source, need)]`` is the best line the
#: search valued that starts with the play ``(source, need)`` (``NO_SOURCE, 0``: stopping
#: now): sources run from ``-2 - 12`` (a hand's 12) to 4 (the last discard pile).
FIRST_SOURCES = 19
BEST = 1 + FIRST_SOURCES * k.CARDS
_NEG_INF = -1e18
_HASH_A = 0x5851F42D4C957F2D
_HASH_B = 0x27BB2EE687B0B0FD

#: 6 ** card, the weight of a card's count in the hand's code.
POW6 = np.array([6**card for card in range(k.CARDS)], dtype=np.int64)


class PlanWeightsLike(Protocol):
    """What :func:`hard_params` reads (:class:`cardtable.bots.skipbo_hard.PlanWeights`)."""

    @property
    def stock_played(self) -> float: ...
    @property
    def hand_emptied(self) -> float: ...
    @property
    def wild_used(self) -> float: ...
    @property
    def from_discard(self) -> float: ...
    @property
    def from_hand(self) -> float: ...
    @property
    def gift(self) -> float: ...
    @property
    def gift_by_gap(self) -> tuple[float, ...]: ...


def hard_params(weights: PlanWeightsLike) -> NDArray[np.float64]:
    """The parameter array of the planner's weights (``PlanWeights`` of the Python bot)."""
    params = np.zeros(PARAMS, dtype=np.float64)
    params[P_STOCK_PLAYED] = weights.stock_played
    params[P_HAND_EMPTIED] = weights.hand_emptied
    params[P_WILD_USED] = weights.wild_used
    params[P_FROM_DISCARD] = weights.from_discard
    params[P_FROM_HAND] = weights.from_hand
    params[P_GIFT] = weights.gift
    gaps = tuple(weights.gift_by_gap)[:MAX_GAPS]
    params[P_GAPS] = len(gaps)
    params[P_GAP : P_GAP + len(gaps)] = gaps
    return params


class HardWork:
    """The memory of the compiled ``hard`` for games of ``rules``: the planner's work
    array, its visited table, its stack, and a one-game copy for frozen tables.
    ``arrays`` is the tuple :func:`hard_action` takes as ``work``."""

    def __init__(self, rules: Any) -> None:
        from .skipbo_batch import SkipBoBatch

        self.copy = SkipBoBatch(rules, 1)
        self.ints = np.zeros(WORK, dtype=np.int64)
        self.best = np.zeros(BEST, dtype=np.float64)
        self.table = np.zeros((TABLE, 3), dtype=np.int64)
        self.frames = np.zeros((DEPTH, FRAME), dtype=np.int32)
        self.children = np.zeros((DEPTH, CHILDREN, 3), dtype=np.int32)

    @property
    def arrays(self) -> tuple[NDArray[Any], ...]:
        return (self.ints, self.best, self.table, self.frames, self.children)


# --- the valuation of a line's end ------------------------------------------------------


@inline_kernel
def _danger(params, w):
    """What the building piles offer the opponents' stock tops (``TurnPlanner.danger``)."""
    gaps = np.int64(params[P_GAPS])
    total = 0.0
    for t in range(w[W_THREATS]):
        top = w[W_THREAT + t]
        if top == WILD:
            continue
        worst = 0.0
        for need in range(1, k.HIGHEST + 1):
            if w[W_NEEDS + need]:
                gap = top - need
                if 0 <= gap < gaps:
                    worst = max(worst, params[P_GAP + gap])
        weight = 1.0 if t == 0 else 0.5
        total += weight * worst
    return params[P_GIFT] * total


@inline_kernel
def _prospects(w):
    """How close the building piles come to the own stock top (``TurnPlanner.prospects``)."""
    top = w[W_STOCK]
    if top in (k.NO_CARD, WILD):
        return 0.0
    best = 99
    for need in range(1, top + 1):
        if w[W_NEEDS + need] and top - need < best:
            best = top - need
    if best == 0:
        return 6.0
    if best == 1:
        return 3.0
    if best == 2:
        return 1.5
    return 0.0


@inline_kernel
def _value(params, w, wilds, from_discard, from_hand, ended):
    """``TurnPlanner.value``: the end of a line, ``ended`` 1 with the stock played, 2
    with the hand emptied, 0 stopping before."""
    score = (
        -params[P_WILD_USED] * wilds
        + params[P_FROM_DISCARD] * from_discard
        + params[P_FROM_HAND] * from_hand
    ) - _danger(params, w)
    if ended == 1:
        return params[P_STOCK_PLAYED] + score
    if ended == 2:
        return score + params[P_HAND_EMPTIED]
    return score + _prospects(w)


@inline_kernel
def per_first_slot(source, need):
    """Where ``best`` keeps the best line starting with ``(source, need)``."""
    return 1 + (source + 2 + k.HIGHEST) * k.CARDS + need


@inline_kernel
def _record(w, best, score, source, need):
    if w[W_PER_FIRST]:
        slot = per_first_slot(source, need)
        best[slot] = max(best[slot], score)
    if score > best[0]:
        best[0] = score
        w[W_BEST_SOURCE] = source
        w[W_BEST_NEED] = need


@inline_kernel
def _play(w, need):
    w[W_NEEDS + need] -= 1
    w[W_NEEDS + (1 if need == k.HIGHEST else need + 1)] += 1


@inline_kernel
def _unplay(w, need):
    w[W_NEEDS + (1 if need == k.HIGHEST else need + 1)] -= 1
    w[W_NEEDS + need] += 1


# --- the visited set ----------------------------------------------------------------------


@inline_kernel
def _first_visit(w, table):
    """Add the position to the visited set; whether it was new."""
    needs = 0
    for need in range(1, k.HIGHEST + 1):
        for _ in range(w[W_NEEDS + need]):
            needs = needs * 16 + need
    first = w[W_HAND_CODE] * 65536 + needs
    second = w[W_DEPTH_CODE]
    mixed = (first * _HASH_A + second) * _HASH_B
    slot = (mixed >> 40) & (TABLE - 1)
    epoch = w[W_EPOCH]
    while table[slot, 2] == epoch:
        if table[slot, 0] == first and table[slot, 1] == second:
            return False
        slot = (slot + 1) & (TABLE - 1)
    table[slot, 0] = first
    table[slot, 1] = second
    table[slot, 2] = epoch
    return True


# --- the search ------------------------------------------------------------------------


@inline_kernel
def _enter(st, b, params, w, best, table, frames, children, d, source, need, wilds, fd, fh):
    """A node of ``TurnPlanner._dfs`` (the line so far starts with ``source, need``):
    values stopping here and the stock plays, and lists the children in frame ``d``."""
    w[W_NODES] += 1
    score = _value(params, w, wilds, fd, fh, 0)
    _record(w, best, score, source, need)
    frame = frames[d]
    frame[FR_FIRST_SOURCE] = source
    frame[FR_FIRST_NEED] = need
    frame[FR_WILDS] = wilds
    frame[FR_FROM_DISCARD] = fd
    frame[FR_FROM_HAND] = fh
    frame[FR_COUNT] = 0
    frame[FR_POS] = 0
    if w[W_NODES] > NODE_LIMIT or not _first_visit(w, table):
        return
    stock = w[W_STOCK]
    if stock != k.NO_CARD:
        for target in range(1, k.HIGHEST + 1):
            if w[W_NEEDS + target] and stock in (WILD, target):
                _play(w, target)
                score = _value(params, w, wilds, fd, fh, 1)
                _unplay(w, target)
                if source == NO_SOURCE:
                    _record(w, best, score, STOCK_SOURCE, target)
                else:
                    _record(w, best, score, source, need)
    listed = children[d]
    count = 0
    discards = st[k.ST_DISC]
    base = w[W_BASE]
    for index in range(k.PILES):
        depth = w[W_DEPTHS + index]
        if not depth:
            continue
        card = discards[b, base + index, depth - 1]
        for target in range(1, k.HIGHEST + 1):
            if w[W_NEEDS + target] and card in (WILD, target):
                listed[count, CH_SOURCE] = index + 1
                listed[count, CH_NEED] = target
                listed[count, CH_WILD] = card == WILD
                count += 1
    for target in range(1, k.HIGHEST + 1):
        if w[W_NEEDS + target] and w[W_HAND + target]:
            listed[count, CH_SOURCE] = -2 - target
            listed[count, CH_NEED] = target
            listed[count, CH_WILD] = 0
            count += 1
    if w[W_HAND + WILD]:
        for target in range(1, k.HIGHEST + 1):
            if w[W_NEEDS + target]:
                listed[count, CH_SOURCE] = -2 - WILD
                listed[count, CH_NEED] = target
                listed[count, CH_WILD] = 1
                count += 1
    frame[FR_COUNT] = count


@inline_kernel
def _take(w, source, need, sign):
    """Play (``sign`` -1) or take back (+1) a child's card from its source."""
    if source > 0:
        index = source - 1
        w[W_DEPTHS + index] += sign
        w[W_DEPTH_CODE] += sign * (np.int64(1) << (8 * index))
    else:
        card = -2 - source
        w[W_HAND + card] += sign
        w[W_HAND_LEFT] += sign
        w[W_HAND_CODE] += sign * POW6[card]
    if sign < 0:
        _play(w, need)
    else:
        _unplay(w, need)


@kernel
def search(st, cfg, b, seat, params, work):
    """``TurnPlanner(state, seat, weights).search()`` on game ``b`` of ``st``: the best
    line's value; its first play is left in ``W_BEST_SOURCE``, ``W_BEST_NEED`` of the
    work array (source 0: stop now)."""
    w, best, table, frames, children = work
    n = cfg[k.C_PLAYERS]
    hand = st[k.ST_HAND]
    code = 0
    left = 0
    for card in range(k.CARDS):
        count = hand[b, seat * k.CARDS + card]
        w[W_HAND + card] = count
        code += count * POW6[card]
        left += count
    w[W_HAND_CODE] = code
    w[W_HAND_LEFT] = left
    w[W_BASE] = seat * k.PILES
    depths = np.int64(0)
    for index in range(k.PILES):
        depth = st[k.ST_DLEN][b, seat * k.PILES + index]
        w[W_DEPTHS + index] = depth
        depths += np.int64(depth) << (8 * index)
    w[W_DEPTH_CODE] = depths
    w[W_STOCK] = k.stock_top(st, b, seat)
    for need in range(k.CARDS):
        w[W_NEEDS + need] = 0
    for pile in range(k.PILES):
        w[W_NEEDS + st[k.ST_BLEN][b, pile] + 1] += 1
    ints = st[k.ST_INT]
    w[W_CAN_DRAW] = ints[b, k.F_DRAW_LEN] > 0 or ints[b, k.F_DONE_LEN] > 0
    mate = k.partner(cfg, seat)
    threats = 0
    for step in range(1, n):
        other = (seat + step) % n
        if other == mate or st[k.ST_SLEN][b, other] == 0:
            continue
        w[W_THREAT + threats] = k.stock_top(st, b, other)
        threats += 1
    w[W_THREATS] = threats
    w[W_NODES] = 0
    w[W_EPOCH] += 1
    if w[W_PER_FIRST]:
        for slot in range(1, BEST):
            best[slot] = _NEG_INF
    best[0] = _NEG_INF
    w[W_BEST_SOURCE] = NO_SOURCE
    w[W_BEST_NEED] = 0
    _enter(st, b, params, w, best, table, frames, children, 0, NO_SOURCE, 0, 0, 0, 0)
    d = 0
    while d >= 0:
        frame = frames[d]
        pos = frame[FR_POS]
        if pos < frame[FR_COUNT]:
            frame[FR_POS] = pos + 1
            child = children[d, pos]
            source = child[CH_SOURCE]
            need = child[CH_NEED]
            wilds = frame[FR_WILDS] + child[CH_WILD]
            first_source = frame[FR_FIRST_SOURCE]
            first_need = frame[FR_FIRST_NEED]
            if first_source == NO_SOURCE:
                first_source = source
                first_need = need
            _take(w, source, need, -1)
            fd = frame[FR_FROM_DISCARD]
            fh = frame[FR_FROM_HAND]
            if source > 0:
                fd += 1
            else:
                fh += 1
                if w[W_HAND_LEFT] == 0 and w[W_CAN_DRAW]:
                    # The hand is emptied: five unknown cards are drawn, the line ends.
                    score = _value(params, w, wilds, fd, fh, 2)
                    _record(w, best, score, first_source, first_need)
                    _take(w, source, need, 1)
                    continue
            _enter(
                st, b, params, w, best, table, frames, children, d + 1,
                first_source, first_need, wilds, fd, fh,
            )  # fmt: skip
            d += 1
        else:
            d -= 1
            if d >= 0:
                child = children[d, frames[d, FR_POS] - 1]
                _take(w, child[CH_SOURCE], child[CH_NEED], 1)
    return best[0]


# --- the decision -----------------------------------------------------------------------


@inline_kernel
def _plan_step_action(st, b, source, need):
    """``plan_step_action``: the play onto the first building pile that needs ``need``."""
    pile = 0
    for index in range(k.PILES):
        if st[k.ST_BLEN][b, index] + 1 == need:
            pile = index
            break
    if source == STOCK_SOURCE:
        return STOCK_BASE + pile
    if source > 0:
        return DISCARD_PLAY_BASE + (source - 1) * 4 + pile
    return (-2 - source) * 4 + pile


@inline_kernel
def is_frozen(st, cfg, b):
    ints = st[k.ST_INT]
    return (
        ints[b, k.F_DRAW_LEN] == 0
        and ints[b, k.F_DONE_LEN] == 0
        and ints[b, k.F_IDLE] >= cfg[k.C_PLAYERS]
    )


@inline_kernel
def _copy_row(source, b, target):
    for i in range(source.shape[1]):
        target[0, i] = source[b, i]


@inline_kernel
def _copy_game(st, b, copy):
    """Game ``b`` of ``st`` into game 0 of ``copy`` (``state.clone()``)."""
    _copy_row(st[k.ST_INT], b, copy[k.ST_INT])
    _copy_row(st[k.ST_HAND], b, copy[k.ST_HAND])
    _copy_row(st[k.ST_HSIZE], b, copy[k.ST_HSIZE])
    _copy_row(st[k.ST_STOCK], b, copy[k.ST_STOCK])
    _copy_row(st[k.ST_SLEN], b, copy[k.ST_SLEN])
    _copy_row(st[k.ST_DLEN], b, copy[k.ST_DLEN])
    _copy_row(st[k.ST_BLEN], b, copy[k.ST_BLEN])
    _copy_row(st[k.ST_DRAW], b, copy[k.ST_DRAW])
    _copy_row(st[k.ST_DONE], b, copy[k.ST_DONE])
    _copy_row(st[k.ST_SCORE], b, copy[k.ST_SCORE])
    _copy_row(st[k.ST_PTS], b, copy[k.ST_PTS])
    _copy_row(st[k.ST_FINAL], b, copy[k.ST_FINAL])
    discards, building = st[k.ST_DISC], st[k.ST_BUILD]
    for pile in range(discards.shape[1]):
        for i in range(discards.shape[2]):
            copy[k.ST_DISC][0, pile, i] = discards[b, pile, i]
    for pile in range(k.PILES):
        for i in range(k.HIGHEST):
            copy[k.ST_BUILD][0, pile, i] = building[b, pile, i]
    copy[k.ST_RNG][0] = st[k.ST_RNG][b]


@inline_kernel
def _unfreeze(st, cfg, b, seat, builds, count, params, work, copy):
    """``HardBot.unfreeze``: the build (of the first ``count`` of ``builds``) after which
    the planner values the position most; one that ends the turn or the round at once."""
    best_action = builds[0]
    best_value = _NEG_INF
    ints = copy[k.ST_INT]
    for i in range(count):
        action = builds[i]
        _copy_game(st, b, copy)
        k.apply(copy, cfg, 0, action)
        if ints[0, k.F_OVER] or ints[0, k.F_CURRENT] != seat:
            return action
        value = search(copy, cfg, 0, seat, params, work)
        if value > best_value:
            best_action = action
            best_value = value
    return best_action


@inline_kernel
def discard_context(st, b, seat):
    """What every discard score reads besides the card and pile: the own stock top, how
    many own discard piles are empty, how many numbered cards the hand has kinds of."""
    hand = st[k.ST_HAND]
    empties = 0
    for index in range(k.PILES):
        if st[k.ST_DLEN][b, seat * k.PILES + index] == 0:
            empties += 1
    numbers = 0
    for card in range(1, k.CARDS):
        if hand[b, seat * k.CARDS + card]:
            numbers += 1
    return k.stock_top(st, b, seat), empties, numbers


@inline_kernel
def discard_considered(st, b, seat, card, numbers):
    """Whether ``discard_options`` ranks discards of ``card``: a numbered card held, or
    a Skip-Bo card when no numbered card is held (legality is checked apart)."""
    if numbers:
        return card != WILD and st[k.ST_HAND][b, seat * k.CARDS + card] > 0
    return card == WILD


@inline_kernel
def discard_score(st, b, seat, card, index, stock, empties):
    """``discard_options``' score of discarding ``card`` onto own discard pile ``index``."""
    held = st[k.ST_HAND][b, seat * k.CARDS + card]
    score = 0.05 * card
    if held > 1:
        score += 0.6
    if card == stock:
        score -= 0.4
    pile = seat * k.PILES + index
    length = st[k.ST_DLEN][b, pile]
    if not length:
        score += 1.5 if empties > 1 else 0.3
    else:
        top = st[k.ST_DISC][b, pile, length - 1]
        if top == card:
            score += 2.2
        elif top == card + 1:
            score += 3.0
        elif top == WILD:
            score -= 6.0
        elif top > card:
            score += 1.0 - 0.25 * (top - card - 1)
        else:
            score -= 2.0 + 0.15 * (12 - top) + (3.0 if top == stock else 0.0)
        score -= 0.05 * length
    return score


@inline_kernel
def _discard(st, cfg, b, seat, scratch, count):
    """``HardBot.discard``: the best of ``discard_options`` (highest score, then the
    lowest action), else the last legal action."""
    stock, empties, numbers = discard_context(st, b, seat)
    best_action = -1
    best_score = 0.0
    for card in range(k.CARDS):
        if not discard_considered(st, b, seat, card, numbers):
            continue
        for index in range(k.PILES):
            action = DISCARD_BASE + card * 4 + index
            if not k.is_legal(st, cfg, b, action):
                continue
            score = discard_score(st, b, seat, card, index, stock, empties)
            if best_action < 0 or score > best_score:
                best_action = action
                best_score = score
    if best_action < 0:
        return scratch[count - 1]
    return best_action


@kernel
def hard_action(st, cfg, b, scratch, params, work, copy):
    """``HardBot().choose(state, rng)`` for the seat to move in game ``b`` (it draws
    nothing from its generator). ``scratch``: room for a legal list; ``params``:
    :func:`hard_params`; ``work``: :attr:`HardWork.arrays`; ``copy``: the ``st`` of
    :attr:`HardWork.copy`."""
    count = k.legal_list(st, cfg, b, scratch)
    if count == 1:
        return scratch[0]
    for i in range(count):
        action = scratch[i]
        if STOCK_BASE + 4 <= action < DISCARD_PLAY_BASE:
            return action  # a partner's stock is always worth playing
    seat = st[k.ST_INT][b, k.F_CURRENT]
    search(st, cfg, b, seat, params, work)
    w = work[0]
    source = w[W_BEST_SOURCE]
    if source != NO_SOURCE:
        action = _plan_step_action(st, b, source, w[W_BEST_NEED])
        if k.is_legal(st, cfg, b, action):
            return action
    if is_frozen(st, cfg, b):
        builds = 0
        while builds < count and scratch[builds] < DISCARD_BASE:
            builds += 1
        if builds:
            return _unfreeze(st, cfg, b, seat, scratch, builds, params, work, copy)
    if scratch[count - 1] == END_TURN:
        return END_TURN
    return _discard(st, cfg, b, seat, scratch, count)

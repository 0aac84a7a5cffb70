"""Skip-Bo rollouts for the coach's judge (:mod:`cardtable.sim.judge`), compiled.

:func:`load` writes a reference :class:`~cardtable.skipbo.state.SkipBoState` into one
game of a :class:`~cardtable.fast.skipbo_batch.SkipBoBatch`. :func:`rollouts` values
candidate moves of the seat to move on re-deals of what that seat cannot see (the
other seats' hands, every stock card under its top, the draw pile: the pool
:meth:`~cardtable.skipbo.state.SkipBoState.determinize` re-deals), every candidate on
the same re-deal (common random numbers). After the candidate, ``hard``
(:mod:`cardtable.fast.skipbo_hard`) plays every seat for ``horizon`` turns per seat
or to the end of the round. A finished round scores 1 for a win of the seat's side,
0 for a loss, 0.5 blocked; an unfinished one the side's chance to win from there:
in a 2-player round the fitted chance of :func:`cardtable.bots.skipbo_value.win_chance`
(its weights passed in ``weights``, see :func:`win_weights`), else a logistic of the
stock cards each side has left, as the advisor's (``skipbo_expert.skipbo_outcome``).

The caller loads a position that is already a re-deal for the seat (never the real
cards): the kernels re-deal it again.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from ..skipbo.state import SkipBoState, dealer_of
from . import rng
from . import skipbo_kernels as k
from .compiled import inline_kernel, kernel
from .skipbo_batch import SkipBoBatch
from .skipbo_hard import HardWork, hard_action

#: Rows of the judge's batch: the position, a re-deal of it, the rollout.
ROWS = 3
SOURCE, REDEALT, PLAYING = 0, 1, 2
#: A rollout still running after this many moves is scored where it stands.
MOVE_LIMIT = 3000
FEATURES = 14
#: Layout of the leaf's weight array: the mover's and the other side's fit of the stock
#: cards to come (an intercept and one weight per feature each), then the win fit's 7.
W_MOVER = 0
W_OTHER = W_MOVER + FEATURES + 1
W_WIN = W_OTHER + FEATURES + 1
WEIGHTS = W_WIN + 7
_WILD = 0


def win_weights(
    mover: Sequence[float], other: Sequence[float], win: Sequence[float]
) -> NDArray[np.float64]:
    """The leaf's weight array (``skipbo_value.MOVER``, ``OTHER`` and ``WIN``)."""
    values = [*mover, *other, *win]
    if len(values) != WEIGHTS:
        raise ValueError(f"expected {WEIGHTS} weights, got {len(values)}")
    return np.array(values, dtype=np.float64)


def judge_batch(state: SkipBoState) -> SkipBoBatch:
    """A batch of :data:`ROWS` games of ``state``'s rules, ``state`` loaded in the first."""
    batch = SkipBoBatch(state.rules, ROWS)
    load(batch, SOURCE, state)
    return batch


def _mask(seats: Sequence[int]) -> int:
    mask = 0
    for seat in seats:
        mask |= 1 << seat
    return mask


def load(batch: SkipBoBatch, b: int, state: SkipBoState) -> None:
    """Write ``state`` (every card as it lies in ``state``) into game ``b`` of ``batch``."""
    n = state.n
    if n != batch.players:
        raise ValueError(f"the batch seats {batch.players} players, the state {n}")
    log = state.round_log
    last = log[-1] if log else None
    final = state.final
    ints = batch.ints[b]
    ints[:] = 0
    ints[k.F_CURRENT] = state.current
    ints[k.F_ROUND] = state.round_index
    ints[k.F_STARTER] = state.starter
    ints[k.F_TURNS] = state.turns
    ints[k.F_IDLE] = state.idle
    ints[k.F_BUILT] = int(state.built)
    ints[k.F_DRAW_LEN] = len(state.draw)
    ints[k.F_DONE_LEN] = len(state.completed)
    ints[k.F_OVER] = int(final is not None)
    ints[k.F_MOVES] = len(state.history)
    ints[k.F_ROUNDS_DONE] = len(log)
    ints[k.F_BLOCKED_RUN] = state.blocked_run() if log else 0
    ints[k.F_WINNERS] = 0 if final is None else _mask(final.winners)
    ints[k.F_FINAL_BLOCKED] = 0 if final is None else int(final.blocked)
    ints[k.F_ROUND_WINNERS] = 0 if last is None else _mask(last.winners)
    ints[k.F_ROUND_TURNS] = 0 if last is None else last.turns
    ints[k.F_ROUND_BLOCKED] = 0 if last is None else int(last.blocked)
    ints[k.F_BLOCKED_ROUNDS] = sum(entry.blocked for entry in log)
    ints[k.F_ALL_TURNS] = sum(entry.turns for entry in log)
    ints[k.F_DEALER] = dealer_of(state.cut) if state.cut else k.NO_SEAT
    for seat in range(n):
        batch.hands[b, seat * k.CARDS : (seat + 1) * k.CARDS] = state.hands[seat]
        batch.hand_sizes[b, seat] = state.hand_sizes[seat]
        stock = state.stocks[seat]
        batch.stocks[b, seat * k.STOCK_ROOM : (seat + 1) * k.STOCK_ROOM] = 0
        batch.stocks[b, seat * k.STOCK_ROOM : seat * k.STOCK_ROOM + len(stock)] = stock
        batch.stock_sizes[b, seat] = len(stock)
        for index, pile in enumerate(state.discards[seat]):
            row = seat * k.PILES + index
            batch.discards[b, row, :] = 0
            batch.discards[b, row, : len(pile)] = pile
            batch.discard_sizes[b, row] = len(pile)
    for index, pile in enumerate(state.building):
        batch.building[b, index, :] = 0
        batch.building[b, index, : len(pile)] = pile
        batch.building_sizes[b, index] = len(pile)
    batch.draw[b, :] = 0
    batch.draw[b, : len(state.draw)] = state.draw
    batch.completed[b, :] = 0
    batch.completed[b, : len(state.completed)] = state.completed
    batch.scores[b, :] = state.scores
    batch.points[b, :] = last.points if last is not None else (0,) * n
    batch.final[b, :] = final.scores if final is not None else (0,) * n
    batch.rng[b] = state.rng.state


def run_rollouts(
    batch: SkipBoBatch,
    seat: int,
    candidates: Sequence[int],
    seeds: NDArray[np.uint64],
    params: NDArray[np.float64],
    weights: NDArray[np.float64],
    horizon: int,
    work: HardWork | None = None,
) -> NDArray[np.float64]:
    """Each candidate's outcome (the side's chance to win the round) on each re-deal
    of the position in game :data:`SOURCE`: ``(len(seeds), len(candidates))``."""
    work = work or HardWork(batch.rules)
    out = np.zeros((len(seeds), len(candidates)), dtype=np.float64)
    pool = np.zeros(k.DECK_SIZE, dtype=np.int8)
    gens = np.zeros(2, dtype=np.uint64)
    codes = np.asarray(candidates, dtype=np.int64)
    rollouts(
        batch.st,
        batch.cfg,
        seat,
        codes,
        seeds,
        horizon,
        params,
        weights,
        batch.scratch,
        work.arrays,
        work.copy.st,
        pool,
        gens,
        out,
    )
    return out


@inline_kernel
def _copy(array, source, target):
    for i in range(array.shape[1]):
        array[target, i] = array[source, i]


@inline_kernel
def _copy_row(st, source, target):
    """Game ``target`` becomes a copy of game ``source`` (the kernels allocate nothing)."""
    _copy(st[k.ST_INT], source, target)
    _copy(st[k.ST_HAND], source, target)
    _copy(st[k.ST_HSIZE], source, target)
    _copy(st[k.ST_STOCK], source, target)
    _copy(st[k.ST_SLEN], source, target)
    discards, lengths = st[k.ST_DISC], st[k.ST_DLEN]
    for pile in range(discards.shape[1]):
        lengths[target, pile] = lengths[source, pile]
        for i in range(lengths[source, pile]):
            discards[target, pile, i] = discards[source, pile, i]
    building = st[k.ST_BUILD]
    for pile in range(k.PILES):
        for i in range(building.shape[2]):
            building[target, pile, i] = building[source, pile, i]
    _copy(st[k.ST_BLEN], source, target)
    _copy(st[k.ST_DRAW], source, target)
    _copy(st[k.ST_DONE], source, target)
    _copy(st[k.ST_SCORE], source, target)
    _copy(st[k.ST_PTS], source, target)
    _copy(st[k.ST_FINAL], source, target)
    st[k.ST_RNG][target] = st[k.ST_RNG][source]


@inline_kernel
def redeal(st, cfg, b, seat, gens, g, pool):
    """Re-deal what ``seat`` cannot see in game ``b`` with generator ``gens[g]``: the
    other seats' hands, every stock card under its top and the draw pile; and re-seed
    the game's own generator (its reshuffles)."""
    ints, hands, sizes = st[k.ST_INT], st[k.ST_HAND], st[k.ST_HSIZE]
    stocks, stock_sizes, draw = st[k.ST_STOCK], st[k.ST_SLEN], st[k.ST_DRAW]
    n = cfg[k.C_PLAYERS]
    count = 0
    for other in range(n):
        if other != seat:
            for card in range(k.CARDS):
                for _ in range(hands[b, other * k.CARDS + card]):
                    pool[count] = card
                    count += 1
        for i in range(stock_sizes[b, other] - 1):
            pool[count] = stocks[b, other * k.STOCK_ROOM + i]
            count += 1
    length = ints[b, k.F_DRAW_LEN]
    for i in range(length):
        pool[count] = draw[b, i]
        count += 1
    rng.shuffle(pool, count, gens, g)
    used = 0
    for other in range(n):
        if other != seat:
            for card in range(k.CARDS):
                hands[b, other * k.CARDS + card] = 0
            for _ in range(sizes[b, other]):
                hands[b, other * k.CARDS + pool[used]] += 1
                used += 1
        for i in range(stock_sizes[b, other] - 1):
            stocks[b, other * k.STOCK_ROOM + i] = pool[used]
            used += 1
    for i in range(length):
        draw[b, i] = pool[used]
        used += 1
    st[k.ST_RNG][b] = rng.next64(gens, g)


@inline_kernel
def _to_come(st, cfg, b, seat, weights):
    """``skipbo_value.stock_cards_to_come``: the stock cards ``seat`` can expect to play
    in the next 8 turns of a 2-player round, from the fit's weights."""
    base = W_MOVER if st[k.ST_INT][b, k.F_CURRENT] == seat else W_OTHER
    hands = st[k.ST_HAND]
    hand0 = seat * k.CARDS
    held = 0  # bit ``card``: a number held in the hand or on a discard pile's top
    wild_tops = 0
    empties = 0
    discard_cards = 0
    for card in range(1, k.CARDS):
        if hands[b, hand0 + card]:
            held |= 1 << card
    distinct = 0
    for card in range(1, k.CARDS):
        if hands[b, hand0 + card]:
            distinct += 1
    for index in range(k.PILES):
        pile = seat * k.PILES + index
        length = st[k.ST_DLEN][b, pile]
        discard_cards += length
        if length == 0:
            empties += 1
            continue
        top = st[k.ST_DISC][b, pile, length - 1]
        if top == _WILD:
            wild_tops += 1
        else:
            held |= 1 << top
    wilds = hands[b, hand0 + _WILD] + wild_tops
    gap_hot = -1
    short_hot = -1
    stock_len = st[k.ST_SLEN][b, seat]
    if stock_len:
        top = st[k.ST_STOCK][b, seat * k.STOCK_ROOM + stock_len - 1]
        gap = 99
        if top == _WILD:
            gap = 0
        else:
            for pile in range(k.PILES):
                need = st[k.ST_BLEN][b, pile] + 1
                if need <= top:
                    gap = min(gap, top - need)
        if gap < 99:
            if gap < 4:
                gap_hot = gap
            if gap > 0:
                short = 99
                for pile in range(k.PILES):
                    need = st[k.ST_BLEN][b, pile] + 1
                    if need < top:
                        have = 0
                        for card in range(need, top):
                            if held >> card & 1:
                                have += 1
                        short = min(short, max(0, top - need - have - wilds))
                if short < 3:
                    short_hot = short
    value = weights[base]
    features = (
        1.0 if gap_hot == 0 else 0.0,
        1.0 if gap_hot == 1 else 0.0,
        1.0 if gap_hot == 2 else 0.0,
        1.0 if gap_hot == 3 else 0.0,
        1.0 if short_hot == 0 else 0.0,
        1.0 if short_hot == 1 else 0.0,
        1.0 if short_hot == 2 else 0.0,
        float(min(hands[b, hand0 + _WILD], 3)),
        float(wild_tops),
        float(st[k.ST_HSIZE][b, seat]),
        float(distinct),
        float(empties),
        float(discard_cards),
        float(stock_len),
    )
    for i in range(FEATURES):
        value += weights[base + 1 + i] * features[i]
    return value


@inline_kernel
def win_chance(st, cfg, b, seat, weights):
    """``skipbo_value.win_chance``: ``seat``'s chance to win the 2-player round."""
    other = 1 - seat
    mine = st[k.ST_SLEN][b, seat]
    theirs = st[k.ST_SLEN][b, other]
    scale = np.sqrt(float(mine + theirs))
    lead = float(theirs - mine)
    to_come = _to_come(st, cfg, b, seat, weights) - _to_come(st, cfg, b, other, weights)
    mover = 1.0 if st[k.ST_INT][b, k.F_CURRENT] == seat else -1.0
    w = W_WIN
    logit = weights[w] * lead
    logit += weights[w + 1] * (lead / scale)
    logit += weights[w + 2] * to_come
    logit += weights[w + 3] * (to_come / scale)
    logit += weights[w + 4] * (1.0 / (mine + 1) - 1.0 / (theirs + 1))
    logit += weights[w + 5] * mover
    logit += weights[w + 6] * (mover / scale)
    return 1.0 / (1.0 + np.exp(-logit))


@inline_kernel
def _side(cfg, seat, other):
    """Whether ``other`` plays on ``seat``'s side (``seat`` itself or its partner)."""
    return other == seat or other == k.partner(cfg, seat)


@inline_kernel
def leaf(st, cfg, b, seat, weights):
    """The side's chance to win the round from game ``b`` (see the module)."""
    n = cfg[k.C_PLAYERS]
    if n == 2 and not cfg[k.C_TEAMS]:
        return win_chance(st, cfg, b, seat, weights)
    mine = 0
    theirs = 1 << 30
    for other in range(n):
        size = st[k.ST_SLEN][b, other]
        if _side(cfg, seat, other):
            mine = max(mine, size)
        else:
            theirs = min(theirs, size)
    return 1.0 / (1.0 + np.exp((mine - theirs) / 3.0))


@kernel
def rollouts(
    st, cfg, seat, candidates, seeds, horizon, params, weights, scratch, work, copy, pool, gens, out
):
    """``out[r, m]``: the side's chance to win after candidate ``candidates[m]`` on
    re-deal ``r`` (from ``seeds[r]``) of game :data:`SOURCE`, ``hard`` playing on in
    every seat for ``horizon`` turns a seat or to the round's end. Rows
    :data:`REDEALT` and :data:`PLAYING` are overwritten."""
    ints = st[k.ST_INT]
    n = cfg[k.C_PLAYERS]
    for r in range(seeds.shape[0]):
        _copy_row(st, SOURCE, REDEALT)
        gens[0] = seeds[r]
        redeal(st, cfg, REDEALT, seat, gens, 0, pool)
        for m in range(candidates.shape[0]):
            _copy_row(st, REDEALT, PLAYING)
            rounds = ints[PLAYING, k.F_ROUNDS_DONE]
            stop = ints[PLAYING, k.F_TURNS] + horizon * n
            k.apply(st, cfg, PLAYING, candidates[m])
            moves = 0
            while (
                ints[PLAYING, k.F_ROUNDS_DONE] == rounds
                and ints[PLAYING, k.F_TURNS] < stop
                and moves < MOVE_LIMIT
            ):
                action = hard_action(st, cfg, PLAYING, scratch, params, work, copy)
                k.apply(st, cfg, PLAYING, action)
                moves += 1
            if ints[PLAYING, k.F_ROUNDS_DONE] == rounds:
                out[r, m] = leaf(st, cfg, PLAYING, seat, weights)
            else:
                winners = ints[PLAYING, k.F_ROUND_WINNERS]
                if winners == 0:
                    out[r, m] = 0.5
                elif winners >> seat & 1:
                    out[r, m] = 1.0
                else:
                    out[r, m] = 0.0

"""Skyjo rollouts for the coach's judge (:mod:`cardtable.sim.judge`), compiled.

:func:`load` writes a reference :class:`~cardtable.skyjo.state.SkyjoState` into one
game of a :class:`~cardtable.fast.skyjo_batch.SkyjoBatch` (every field the kernels
read, as :func:`cardtable.fast.skyjo_check.reference_row` lists them). :func:`rollouts`
then values candidate moves of the seat to move on ``redeals`` re-deals of what that
seat cannot see, every candidate on the same re-deal with the same random stream
(common random numbers): each re-deal shuffles the face-down cards and the draw pile
together (only among themselves after a reshuffle, as
:meth:`~cardtable.skyjo.state.SkyjoState.determinize` does), the candidate is played,
and ``hard`` (:mod:`cardtable.fast.skyjo_hard`) plays every seat to the end of the
round. A rollout's outcome is the seat's points of that round, doubling included.

The caller loads a position that is already a re-deal for the seat (never the real
cards): the kernels re-deal it again, so nothing here depends on a card the seat
could not see.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..skyjo.state import SkyjoState
from . import rng
from . import skyjo_kernels as k
from .compiled import inline_kernel, kernel
from .skyjo_batch import SkyjoBatch
from .skyjo_hard import hard_action

#: A rollout still running after this many moves is scored where it stands (the
#: turn limit ends a round long before; this only guards the loop).
MOVE_LIMIT = 5000
#: Rows of the judge's batch: the position, a re-deal of it, the rollout.
ROWS = 3
SOURCE, REDEALT, PLAYING = 0, 1, 2
_STREAM_SALT = np.uint64(0xC0AC4_5EED)


def judge_batch(state: SkyjoState) -> SkyjoBatch:
    """A batch of :data:`ROWS` games of ``state``'s rules, ``state`` loaded in the first."""
    batch = SkyjoBatch(state.rules, ROWS)
    load(batch, SOURCE, state)
    return batch


def load(batch: SkyjoBatch, b: int, state: SkyjoState) -> None:
    """Write ``state`` (every card as it lies in ``state``) into game ``b`` of ``batch``."""
    n = state.n
    if n != batch.players:
        raise ValueError(f"the batch seats {batch.players} players, the state {n}")
    finished = state.finished
    ints = batch.ints[b]
    ints[:] = 0
    ints[k.F_PHASE] = state.phase
    ints[k.F_PLAYER] = state.player
    ints[k.F_HAND] = k.NO_CARD if state.hand is None else state.hand
    ints[k.F_STARTER] = k.NO_SEAT if state.starter is None else state.starter
    ints[k.F_CLOSER] = k.NO_SEAT if state.closer is None else state.closer
    ints[k.F_LAST_CLOSER] = (
        k.NO_SEAT if not state.closers or state.closers[-1] is None else state.closers[-1]
    )
    ints[k.F_ROUND] = state.round
    ints[k.F_TURNS] = state.turns
    ints[k.F_RESHUFFLED] = int(state.reshuffled)
    ints[k.F_DRAW_LEN] = len(state.draw)
    ints[k.F_DISCARD_LEN] = len(state.discard)
    ints[k.F_ROUNDS_DONE] = len(finished)
    ints[k.F_BLOCKED] = int(any(round_.blocked for round_ in finished))
    ints[k.F_MOVES] = len(state.history)
    ints[k.F_DOUBLED] = int(state.doubled[-1]) if state.doubled else 0
    ints[k.F_ROUND_TURNS] = finished[-1].turns if finished else 0
    ints[k.F_ROUND_BLOCKED] = int(finished[-1].blocked) if finished else 0
    batch.cards[b, :] = state.cards
    batch.present[b, :] = state.present
    batch.down[b, :] = state.down
    batch.totals[b, :] = state.totals
    batch.points[b, :] = finished[-1].points if finished else (0,) * n
    batch.draw[b, :] = 0
    batch.draw[b, : len(state.draw)] = state.draw
    batch.discard[b, :] = 0
    batch.discard[b, : len(state.discard)] = state.discard
    batch.rng[b] = state.rng.state


def hard_values(batch: SkyjoBatch, b: int, params: NDArray[np.float64]) -> NDArray[np.float64]:
    """``hard``'s value of each legal move of game ``b`` (lower is better; ``inf`` for
    the other codes, and for every code where ``hard`` values nothing)."""
    from .skyjo_hard import hard_values as values_kernel
    from .skyjo_hard import work_array

    out = np.full(k.NUM_ACTIONS, np.inf)
    values_kernel(batch.st, batch.cfg, b, params, work_array(), out)
    return out


def run_rollouts(
    batch: SkyjoBatch,
    seat: int,
    candidates: list[int],
    seeds: NDArray[np.uint64],
    params: NDArray[np.float64],
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Each candidate's outcome (the seat's round points) on each re-deal of the
    position in game :data:`SOURCE`, and its control (:func:`control`): two arrays
    ``(len(seeds), len(candidates))``."""
    from .skyjo_hard import work_array

    out = np.zeros((len(seeds), len(candidates)), dtype=np.float64)
    pool = np.zeros(k.DECK_SIZE + k.SLOTS * batch.players, dtype=np.int8)
    gens = np.zeros(2, dtype=np.uint64)
    controls = np.zeros_like(out)
    codes = np.asarray(candidates, dtype=np.int64)
    queues = np.zeros((batch.players + 2, k.DECK_SIZE), dtype=np.int64)
    work = work_array()
    rollouts(
        batch.st, batch.cfg, seat, codes, seeds, params, work, pool, gens, out, controls, queues
    )
    return out, controls


def control_means(state: SkyjoState, candidates: list[int]) -> list[float]:
    """The mean of each candidate's control over the re-deals of ``state`` (``nan``
    where it has none): the mean of the face-down cards and the draw pile dealt
    together, or of each alone after a reshuffle."""
    seat = state.player
    hidden = [
        state.cards[other * k.SLOTS + pos]
        for other in range(state.n)
        for pos in range(k.SLOTS)
        if (state.down[other] & state.present[other]) >> pos & 1
    ]
    draw = list(state.draw)
    pooled = hidden + draw
    grid_pool = hidden if state.reshuffled else pooled
    draw_pool = draw if state.reshuffled else pooled
    means = []
    for action in candidates:
        pool: list[int] = []
        over_hidden = (
            k.EXCHANGE <= action < k.REVEAL and state.down[seat] >> (action - k.EXCHANGE) & 1
        )
        if action >= k.DISCARD_AND_REVEAL or over_hidden:
            pool = grid_pool
        elif action == k.DRAW:
            pool = draw_pool
        means.append(sum(pool) / len(pool) if pool else float("nan"))
    return means


@inline_kernel
def _copy(array, source, target):
    for i in range(array.shape[1]):
        array[target, i] = array[source, i]


@inline_kernel
def _copy_row(st, source, target):
    """Game ``target`` becomes a copy of game ``source`` (the kernels allocate nothing)."""
    _copy(st[k.ST_INT], source, target)
    _copy(st[k.ST_CARD], source, target)
    _copy(st[k.ST_PRES], source, target)
    _copy(st[k.ST_DOWN], source, target)
    _copy(st[k.ST_TOT], source, target)
    _copy(st[k.ST_PTS], source, target)
    _copy(st[k.ST_DRAW], source, target)
    _copy(st[k.ST_DISC], source, target)
    st[k.ST_RNG][target] = st[k.ST_RNG][source]


@inline_kernel
def redeal(st, cfg, b, gens, g, pool):
    """Re-deal what no seat can see in game ``b`` with generator ``gens[g]``: the
    face-down cards of every seat and the draw pile (only each among themselves after a
    reshuffle), and re-seed the game's own generator (the next deals)."""
    ints, cards, present, down, draw = (
        st[k.ST_INT],
        st[k.ST_CARD],
        st[k.ST_PRES],
        st[k.ST_DOWN],
        st[k.ST_DRAW],
    )
    n = cfg[k.C_PLAYERS]
    slots = 0
    for seat in range(n):
        mask = down[b, seat] & present[b, seat]
        for pos in range(k.SLOTS):
            if mask >> pos & 1:
                pool[slots] = cards[b, seat * k.SLOTS + pos]
                slots += 1
    length = ints[b, k.F_DRAW_LEN]
    if ints[b, k.F_RESHUFFLED]:
        rng.shuffle(pool, slots, gens, g)
        rng.shuffle(draw[b], length, gens, g)
    else:
        for i in range(length):
            pool[slots + i] = draw[b, i]
        rng.shuffle(pool, slots + length, gens, g)
        for i in range(length):
            draw[b, i] = pool[slots + i]
    used = 0
    for seat in range(n):
        mask = down[b, seat] & present[b, seat]
        for pos in range(k.SLOTS):
            if mask >> pos & 1:
                cards[b, seat * k.SLOTS + pos] = pool[used]
                used += 1
    st[k.ST_RNG][b] = rng.next64(gens, g)


@inline_kernel
def control(st, b, seat, action):
    """The hidden card ``action`` of ``seat`` brings to light in game ``b``, as a float
    (``nan`` for none): the card a discard-and-reveal turns up or an exchange takes
    from a face-down place, the top of the draw pile for a draw. Its mean over the
    re-deals is known exactly (the mean of the cards it is dealt from), which makes it
    a control variate of the rollout's outcome."""
    if action >= k.DISCARD_AND_REVEAL:
        return float(st[k.ST_CARD][b, seat * k.SLOTS + action - k.DISCARD_AND_REVEAL])
    if k.EXCHANGE <= action < k.REVEAL:
        pos = action - k.EXCHANGE
        if st[k.ST_DOWN][b, seat] >> pos & 1:
            return float(st[k.ST_CARD][b, seat * k.SLOTS + pos])
        return np.nan
    if action == k.DRAW:
        length = st[k.ST_INT][b, k.F_DRAW_LEN]
        if length:
            return float(st[k.ST_DRAW][b, length - 1])
    return np.nan


@inline_kernel
def _cut_queues(st, cfg, b, queues, qlen):
    """Cut game ``b``'s draw pile into one queue per seat: seat ``s`` gets every
    ``n``-th card from the ``s``-th from the top (``bots.seat_draws`` does the same)."""
    n = cfg[k.C_PLAYERS]
    length = st[k.ST_INT][b, k.F_DRAW_LEN]
    for seat in range(n):
        qlen[seat] = 0
    for t in range(length):
        seat = t % n
        queues[seat, qlen[seat]] = st[k.ST_DRAW][b, length - 1 - t]
        qlen[seat] += 1


@inline_kernel
def _own_draw(st, b, seat, queues, qlen, qpos):
    """Before ``seat`` draws in game ``b``: put the next card of its queue on top of the
    draw pile (a card of that value, which the pile holds while the queue's card is
    not drawn). False once the queue is spent or the pile is empty (the engine then
    reshuffles): the caller stops using the queues."""
    length = st[k.ST_INT][b, k.F_DRAW_LEN]
    if qpos[seat] >= qlen[seat] or length == 0:
        return False
    draw = st[k.ST_DRAW]
    value = queues[seat, qpos[seat]]
    qpos[seat] += 1
    top = length - 1
    for i in range(top, -1, -1):
        if draw[b, i] == value:
            draw[b, i] = draw[b, top]
            draw[b, top] = value
            return True
    return False


@inline_kernel
def _step(st, cfg, b, action, queues, qlen, qpos, paired):
    """Apply ``action`` to game ``b``, a draw from the drawing seat's own queue while
    ``paired``; whether the draws stay paired."""
    ints = st[k.ST_INT]
    if paired and action == k.DRAW and ints[b, k.F_PHASE] == k.TURN:
        paired = _own_draw(st, b, ints[b, k.F_PLAYER], queues, qlen, qpos)
    k.apply(st, cfg, b, action)
    return paired


@kernel
def rollouts(st, cfg, seat, candidates, seeds, params, work, pool, gens, out, controls, queues):
    """``out[r, m]``: the seat's points of the round after candidate ``candidates[m]``
    on re-deal ``r`` (from ``seeds[r]``) of game :data:`SOURCE`, ``hard`` playing on
    in every seat; an unfinished rollout (the move limit) scores the seat's face-up
    sum. ``controls[r, m]``: the hidden card the candidate brings to light on that
    re-deal (:func:`control`, ``nan`` for none). Every seat draws from its own part of
    the re-dealt draw pile (``queues``: room for ``(n, 150)`` cards and two rows of
    ``n`` counters), so that a seat's k-th draw is the same card after every
    candidate, until the pile runs out. Rows :data:`REDEALT` and :data:`PLAYING` are
    overwritten."""
    ints = st[k.ST_INT]
    n = cfg[k.C_PLAYERS]
    cards = queues[:n]
    qlen = queues[n]
    qpos = queues[n + 1]
    for r in range(seeds.shape[0]):
        _copy_row(st, SOURCE, REDEALT)
        gens[0] = seeds[r]
        redeal(st, cfg, REDEALT, gens, 0, pool)
        _cut_queues(st, cfg, REDEALT, cards, qlen)
        stream = seeds[r] ^ _STREAM_SALT
        for m in range(candidates.shape[0]):
            controls[r, m] = control(st, REDEALT, seat, candidates[m])
            _copy_row(st, REDEALT, PLAYING)
            for s in range(n):
                qpos[s] = 0
            gens[1] = stream
            rounds = ints[PLAYING, k.F_ROUNDS_DONE]
            paired = _step(st, cfg, PLAYING, candidates[m], cards, qlen, qpos, True)
            moves = 0
            while ints[PLAYING, k.F_ROUNDS_DONE] == rounds and moves < MOVE_LIMIT:
                action = hard_action(st, cfg, PLAYING, gens, 1, params, work)
                paired = _step(st, cfg, PLAYING, action, cards, qlen, qpos, paired)
                moves += 1
            if ints[PLAYING, k.F_ROUNDS_DONE] == rounds:
                out[r, m] = k.face_up_sum(st, PLAYING, seat)
            else:
                out[r, m] = st[k.ST_PTS][PLAYING, seat]

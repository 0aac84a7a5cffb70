"""Skyjo bots as compiled kernels, choosing exactly what the Python bots choose.

- ``random``: ``legal[rng.below(len(legal))]``, as :class:`cardtable.bots.base.RandomBot`;
- ``greedy``: :class:`cardtable.bots.skyjo.GreedyBot` with its default gains, the same
  float arithmetic in the same order and the same draws of its generator (a reveal
  position, set-up reveals, a forced single choice), so that its choice is the Python
  bot's in every position (tested move by move, and by whole tournaments).

- ``hard``: :class:`cardtable.bots.skyjo_hard.HardBot`, in :mod:`cardtable.fast.skyjo_hard`;
  it needs its weights and a work array, so only the kernels given those
  (:func:`tournament_action`: tournaments and the cross-check) play it.

Each bot draws from generator ``rngs[r]`` of the caller's choosing.
"""

from __future__ import annotations

import numpy as np

from . import rng
from . import skyjo_kernels as k
from .compiled import inline_kernel, kernel
from .skyjo_hard import hard_action

RANDOM, GREEDY, HARD = 0, 1, 2
#: Bots every kernel plays (:func:`bot_action`, the environments' opponents too), by code.
NAMES = ("random", "greedy")
#: Bots the tournament and cross-check kernels play (:func:`tournament_action`), by code.
TOURNAMENT_NAMES = (*NAMES, "hard")

#: GreedyBot's expected value of an unseen card and its default gains.
HIDDEN = 760 / 150
TAKE_GAIN = 2.5
KEEP_GAIN = 1.0
#: The two other positions of each position's column, top to bottom.
_MATES = np.array(
    [[p for p in range(pos % k.COLS, k.SLOTS, k.COLS) if p != pos] for pos in range(k.SLOTS)],
    dtype=np.int64,
)


@inline_kernel
def _estimates(st, cfg, b, seat):
    """Own expected grid sum now, and the lowest expected sum of the others."""
    n = cfg[k.C_PLAYERS]
    present, down = st[k.ST_PRES], st[k.ST_DOWN]
    others = np.inf
    for other in range(n):
        if other != seat:
            hidden = k.POP[down[b, other] & present[b, other]]
            value = k.face_up_sum(st, b, other) + HIDDEN * hidden
            others = min(others, value)
    own = k.face_up_sum(st, b, seat) + HIDDEN * k.POP[down[b, seat]]
    return own, others


@inline_kernel
def _closing_penalty(st, cfg, b, seat, own_after):
    if st[k.ST_INT][b, k.F_CLOSER] != k.NO_SEAT:
        return 0.0
    others = _estimates(st, cfg, b, seat)[1]
    if own_after < others:
        return -2.0
    if cfg[k.C_DOUBLING] and own_after > 0:
        return own_after + 1.0
    return 0.0


@inline_kernel
def _best_exchange(st, cfg, b, seat, card):
    """Best expected gain of putting ``card`` somewhere, and its action."""
    cards = st[k.ST_CARD]
    base = seat * k.SLOTS
    present = st[k.ST_PRES][b, seat]
    down = st[k.ST_DOWN][b, seat]
    closing = k.POP[down] == 1 and st[k.ST_INT][b, k.F_CLOSER] == k.NO_SEAT
    own = _estimates(st, cfg, b, seat)[0] if closing else 0.0
    up = present & ~down
    best = -1e9
    best_action = -1
    for pos in range(k.SLOTS):
        if not present >> pos & 1:
            continue
        hidden = down >> pos & 1
        old = HIDDEN if hidden else float(cards[b, base + pos])
        gain = old - card
        first, second = _MATES[pos, 0], _MATES[pos, 1]
        if (up >> first) & (up >> second) & 1:
            one, two = cards[b, base + first], cards[b, base + second]
            if one == two and two == card:
                gain = old + 2 * card  # the whole column leaves the grid
            elif card > 0 and card in (one, two):
                gain += 0.5  # a pair towards a column
        if closing and hidden:
            gain -= _closing_penalty(st, cfg, b, seat, own - gain)
        if gain > best:
            best = gain
            best_action = k.EXCHANGE + pos
    return best, best_action


@inline_kernel
def _best_reveal(st, cfg, b, seat, rngs, r):
    down = st[k.ST_DOWN][b, seat] & st[k.ST_PRES][b, seat]
    if not down:
        return -1e9, -1
    count = k.POP[down]
    pos = k.NTH[down, rng.below(rngs, r, count)]
    value = 0.0
    if count == 1:
        own = _estimates(st, cfg, b, seat)[0]
        value -= _closing_penalty(st, cfg, b, seat, own)
    return value, k.DISCARD_AND_REVEAL + pos


@inline_kernel
def _legal_count(st, b):
    ints = st[k.ST_INT]
    phase = ints[b, k.F_PHASE]
    seat = ints[b, k.F_PLAYER]
    if phase == k.TURN:
        return 2
    if phase == k.SETUP:
        return k.POP[st[k.ST_DOWN][b, seat]]
    exchanges = k.POP[st[k.ST_PRES][b, seat]]
    if phase == k.TAKEN:
        return exchanges
    return exchanges + k.POP[st[k.ST_DOWN][b, seat]]


@inline_kernel
def greedy_action(st, cfg, b, rngs, r):
    """``GreedyBot().choose(state, Rng)`` for the seat to move in game ``b``."""
    ints = st[k.ST_INT]
    phase = ints[b, k.F_PHASE]
    if phase == k.SETUP or _legal_count(st, b) == 1:
        return k.random_action(st, b, rngs, r)
    seat = ints[b, k.F_PLAYER]
    if phase == k.TURN:
        top = st[k.ST_DISC][b, ints[b, k.F_DISCARD_LEN] - 1]
        best = _best_exchange(st, cfg, b, seat, top)[0]
        return k.TAKE_DISCARD if best >= TAKE_GAIN else k.DRAW
    card = ints[b, k.F_HAND]
    best, action = _best_exchange(st, cfg, b, seat, card)
    if phase == k.TAKEN:
        return action
    reveal_value, reveal = _best_reveal(st, cfg, b, seat, rngs, r)
    if reveal == -1 or best > max(KEEP_GAIN, reveal_value):
        return action
    return reveal


@inline_kernel
def bot_action(kind, st, cfg, b, rngs, r):
    if kind == GREEDY:
        return greedy_action(st, cfg, b, rngs, r)
    return k.random_action(st, b, rngs, r)


@inline_kernel
def tournament_action(kind, st, cfg, b, rngs, r, params, work):
    """The choice of bot ``kind`` (a code of :data:`TOURNAMENT_NAMES`); ``hard`` plays
    with the weights ``params`` (:func:`cardtable.fast.skyjo_hard.hard_params`) and the
    work array ``work``."""
    if kind == HARD:
        return hard_action(st, cfg, b, rngs, r, params, work)
    return bot_action(kind, st, cfg, b, rngs, r)


@kernel
def play_traced(st, cfg, kind, policy, params, work, actions, legal, rows, piles, played):
    """Every game ``b`` played by bot ``kind`` in all seats, drawing from ``policy[b]``,
    for the cross-check: for move ``t`` records the action in ``actions[b, t]``, the
    legal mask before it in ``legal[b, t]``, and after it the fields of
    :func:`~cardtable.fast.skyjo_kernels.write_row` in ``rows[b, t]`` and both piles in
    ``piles[b, t]`` (draw pile, then discard pile, each padded to 150). Stops a game at
    ``actions.shape[1]`` moves; ``played[b]``: the moves played by game ``b``."""
    ints = st[k.ST_INT]
    limit = actions.shape[1]
    for b in range(ints.shape[0]):
        t = 0
        while ints[b, k.F_PHASE] != k.OVER and t < limit:
            legal[b, t] = k.legal_bits(st, b)
            action = tournament_action(kind, st, cfg, b, policy, b, params, work)
            actions[b, t] = action
            k.apply(st, cfg, b, action)
            k.write_row(st, cfg, b, rows[b, t])
            draw_len = ints[b, k.F_DRAW_LEN]
            for i in range(k.DECK_SIZE):
                piles[b, t, i] = st[k.ST_DRAW][b, i] if i < draw_len else k.NO_CARD
            discard_len = ints[b, k.F_DISCARD_LEN]
            for i in range(k.DECK_SIZE):
                piles[b, t, k.DECK_SIZE + i] = st[k.ST_DISC][b, i] if i < discard_len else k.NO_CARD
            t += 1
        played[b] = t

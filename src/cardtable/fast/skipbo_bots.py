"""Skip-Bo bots as compiled kernels, choosing exactly what the Python bots choose.

- ``random``: ``legal[rng.below(len(legal))]``, as :class:`cardtable.bots.base.RandomBot`;
- ``greedy``: :class:`cardtable.bots.skipbo.GreedyBot`: its stock whenever it can (the
  lowest such action code), else the first other play that moves a numbered card, else
  the first play, else ending the turn, else a discard of its highest numbered card
  onto the pile it prefers (tested move by move against the Python bot, and by whole
  tournaments);
- ``hard``: :class:`cardtable.bots.skipbo_hard.HardBot`, in :mod:`cardtable.fast.skipbo_hard`
  (tournaments and the cross-check; the vector environments' opponents are ``random``
  or ``greedy``).

Each bot draws from generator ``rngs[r]`` of the caller's choosing (greedy draws
nothing) and lists the legal actions into ``scratch`` (room for 197 codes).
"""

from __future__ import annotations

import numpy as np

from ..skipbo.moves import DISCARD_BASE, DISCARD_PLAY_BASE, END_TURN, STOCK_BASE
from . import skipbo_kernels as k
from .compiled import inline_kernel, kernel
from .skipbo_hard import hard_action

RANDOM, GREEDY, HARD = 0, 1, 2
#: Bot names the vector environments' opponents play, by code.
NAMES = ("random", "greedy")
#: Bot names tournaments and the cross-check play, by code.
TOURNAMENT_NAMES = (*NAMES, "hard")


@inline_kernel
def _plays_wild(st, cfg, b, seat, action):
    """Whether the play moves a Skip-Bo card (hand codes 0..3, or a discard top of 0)."""
    if action < STOCK_BASE:
        return action < 4
    relative = action - DISCARD_PLAY_BASE
    owner = seat if relative < 16 else k.partner(cfg, seat)
    return k.discard_top(st, b, owner * k.PILES + ((relative & 15) >> 2)) == 0


@inline_kernel
def _discard(st, cfg, b, seat, scratch, count):
    """GreedyBot's discard: its highest numbered card (else a Skip-Bo card) onto the
    pile whose top is just above it (or equal), else an empty pile, else the pile with
    the highest top; the first such pile."""
    hand = st[k.ST_HAND]
    card = 0
    for value in range(k.CARDS - 1, 0, -1):
        if hand[b, seat * k.CARDS + value]:
            card = value
            break
    best = 0
    best_key = 1 << 30
    for index in range(k.PILES):
        top = k.discard_top(st, b, seat * k.PILES + index)
        if top == card + 1 or (card and top == card):
            key = 0
        elif top == k.NO_CARD:
            key = 100
        else:
            key = 200 - top
        if key < best_key:
            best_key = key
            best = index
    action = DISCARD_BASE + card * 4 + best
    if k.is_legal(st, cfg, b, action):
        return action
    return scratch[count - 1]


@inline_kernel
def greedy_action(st, cfg, b, scratch):
    """``GreedyBot().choose(state, rng)`` for the seat to move in game ``b``."""
    count = k.legal_list(st, cfg, b, scratch)
    for i in range(count):
        action = scratch[i]
        if STOCK_BASE <= action < DISCARD_PLAY_BASE:
            return action
    seat = st[k.ST_INT][b, k.F_CURRENT]
    first = -1
    for i in range(count):
        action = scratch[i]
        if action < STOCK_BASE or DISCARD_PLAY_BASE <= action < DISCARD_BASE:
            if not _plays_wild(st, cfg, b, seat, action):
                return action
            if first < 0:
                first = action
    if first >= 0:
        return first
    if scratch[count - 1] == END_TURN:
        return END_TURN
    return _discard(st, cfg, b, seat, scratch, count)


@inline_kernel
def bot_action(kind, st, cfg, b, rngs, r, scratch):
    if kind == GREEDY:
        return greedy_action(st, cfg, b, scratch)
    return k.random_action(st, cfg, b, rngs, r, scratch)


@inline_kernel
def tournament_action(kind, st, cfg, b, rngs, r, scratch, params, work, copy):
    """The choice of bot ``kind`` (a code of :data:`TOURNAMENT_NAMES`); ``hard`` plays
    with the weights ``params`` (:func:`cardtable.fast.skipbo_hard.hard_params`), the
    work arrays ``work`` and the one-game ``copy`` of
    :class:`~cardtable.fast.skipbo_hard.HardWork`."""
    if kind == HARD:
        return hard_action(st, cfg, b, scratch, params, work, copy)
    return bot_action(kind, st, cfg, b, rngs, r, scratch)


@kernel
def play_traced(st, cfg, kind, policy, scratch, params, work, copy, actions, legal, rows, played):
    """Play every game with bot ``kind`` at every seat (game ``b`` drawing from
    ``policy[b]``; ``hard`` with ``params``, ``work`` and ``copy``), for the
    cross-check: for game ``b``, move ``t``, records the action
    in ``actions[b, t]``, the legal actions before it in ``legal[b, t]`` (``k.WORDS``
    uint64 words, bit ``code % 64`` of word ``code // 64``) and the fields of
    :func:`cardtable.fast.skipbo_kernels.write_row` after it in ``rows[b, t]``. A game
    stops after ``actions.shape[1]`` moves, and right after a move that drew from its
    generator (a deal or a reshuffle: what lies under the piles' tops changed, for the
    caller to compare whole); ``played[b]``: the moves played by game ``b``."""
    ints = st[k.ST_INT]
    limit = actions.shape[1]
    generators = st[k.ST_RNG]
    for b in range(ints.shape[0]):
        t = 0
        while not ints[b, k.F_OVER] and t < limit:
            count = k.legal_list(st, cfg, b, scratch)
            for w in range(k.WORDS):
                legal[b, t, w] = 0
            for i in range(count):
                code = scratch[i]
                legal[b, t, code >> 6] |= np.uint64(1) << np.uint64(code & 63)
            action = tournament_action(kind, st, cfg, b, policy, b, scratch, params, work, copy)
            actions[b, t] = action
            before = generators[b]
            k.apply(st, cfg, b, action)
            k.write_row(st, cfg, b, rows[b, t])
            t += 1
            if generators[b] != before:
                break
        played[b] = t

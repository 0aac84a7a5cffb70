"""Compiled kernels of the Skyjo vector environment: one learner seat a game, the
other seats played by compiled bots, observations and masks for every game.

The observation is the float32 vector of :func:`cardtable.rl.skyjo_obs.skyjo_layout`,
written field by field in the same order (the tests require it to equal
``SkyjoEncoder.encode_state`` for every position of the same games); the mask is the
learner's legal actions (all 0 when another seat is to move or the game is over).
"""

from __future__ import annotations

import numpy as np

from . import skyjo_kernels as k
from .compiled import inline_kernel, kernel
from .skyjo_bots import bot_action

#: Totals are clipped to this range, as in cardtable.rl.skyjo_obs.
TOTAL_LOW = -1000
TOTAL_HIGH = 1288
#: Reward kinds and moments (cardtable.rl.common).
WIN, SCORE = 0, 1
AT_GAME, AT_ROUND = 0, 1
_PHASES = 5
_VALUES = 15


def observation_size(players: int) -> int:
    return 31 + 40 * players


@inline_kernel
def encode(st, cfg, b, seat, out):
    """The observation of ``seat`` in game ``b`` into ``out`` (float32, zeroed here)."""
    ints = st[k.ST_INT]
    n = cfg[k.C_PLAYERS]
    for i in range(out.shape[0]):
        out[i] = 0.0
    phase = ints[b, k.F_PHASE]
    out[phase] = 1.0
    o = _PHASES
    if phase != k.OVER:
        out[o + (ints[b, k.F_PLAYER] - seat) % n] = 1.0
    o += n
    hand = ints[b, k.F_HAND]
    out[o] = 0.0 if hand == k.NO_CARD else hand
    out[o + 1] = 1.0 if phase == k.DRAWN else 0.0
    out[o + 2] = 1.0 if phase == k.TAKEN else 0.0
    length = ints[b, k.F_DISCARD_LEN]
    discard = st[k.ST_DISC]
    out[o + 3] = discard[b, length - 1] if length > 0 else 0.0
    out[o + 4] = 1.0 if length == 0 else 0.0
    o += 5
    for i in range(length):
        out[o + discard[b, i] + 2] += 1.0
    o += _VALUES
    out[o] = ints[b, k.F_DRAW_LEN]
    out[o + 1] = ints[b, k.F_RESHUFFLED]
    o += 2
    values = o
    downs = values + k.SLOTS * n
    removed = downs + k.SLOTS * n
    sums = removed + k.SLOTS * n
    cards = st[k.ST_CARD]
    for rel in range(n):
        owner = (seat + rel) % n
        present = st[k.ST_PRES][b, owner]
        down = st[k.ST_DOWN][b, owner] & present
        total = 0
        for pos in range(k.SLOTS):
            bit = 1 << pos
            at = rel * k.SLOTS + pos
            if present & bit:
                if down & bit:
                    out[downs + at] = 1.0
                else:
                    value = cards[b, owner * k.SLOTS + pos]
                    out[values + at] = value
                    total += value
            else:
                out[removed + at] = 1.0
        out[sums + rel] = total
    o = sums + n
    for rel in range(n):
        total = st[k.ST_TOT][b, (seat + rel) % n]
        out[o + rel] = min(max(total, TOTAL_LOW), TOTAL_HIGH)
    o += n
    closer = ints[b, k.F_CLOSER]
    out[o + (n if closer == k.NO_SEAT else (closer - seat) % n)] = 1.0
    o += n + 1
    out[o] = cfg[k.C_ROWS]
    out[o + 1] = cfg[k.C_DOUBLING]
    out[o + 2] = cfg[k.C_END_SCORE]


@inline_kernel
def learner_mask(st, b, seat, out):
    """The legal actions of ``seat`` in game ``b`` into ``out`` (int8), 0 if not to move."""
    ints = st[k.ST_INT]
    bits = np.int64(0)
    if ints[b, k.F_PHASE] != k.OVER and ints[b, k.F_PLAYER] == seat:
        bits = k.legal_bits(st, b)
    for code in range(k.NUM_ACTIONS):
        out[code] = (bits >> code) & 1


@kernel
def observe(st, cfg, seats, games, obs, masks):
    """Observation and mask of the learner of each listed game."""
    for i in range(games.shape[0]):
        b = games[i]
        encode(st, cfg, b, seats[b], obs[b])
        learner_mask(st, b, seats[b], masks[b])


@inline_kernel
def play_bots(st, cfg, policy, kinds, b, seat):
    """The bots (``kinds[b, s]``: the bot code of seat ``s``, all drawing from the game's
    one generator ``policy[b]``, as the single-agent env's bots share ``bot_rng``) move
    until ``seat`` is to move or the game is over."""
    ints = st[k.ST_INT]
    while ints[b, k.F_PHASE] != k.OVER and ints[b, k.F_PLAYER] != seat:
        kind = kinds[b, ints[b, k.F_PLAYER]]
        k.apply(st, cfg, b, bot_action(kind, st, cfg, b, policy, b))


@kernel
def start_games(st, cfg, policy, kinds, seats, games):
    """After a deal: the bots play up to each listed game's learner."""
    for i in range(games.shape[0]):
        play_bots(st, cfg, policy, kinds, games[i], seats[games[i]])


@inline_kernel
def _win_loss(values, n, seat, low):
    """+1 when ``seat`` has the lowest value, -1 when another seat has, 0 when all tie."""
    winners = 0
    for other in range(n):
        if values[other] == low:
            winners += 1
    if winners == n:
        return 0.0
    return 1.0 if values[seat] == low else -1.0


@inline_kernel
def _reward(st, cfg, b, seat, rounds_before, kind, at):
    ints = st[k.ST_INT]
    n = cfg[k.C_PLAYERS]
    if at == AT_ROUND:
        if ints[b, k.F_ROUNDS_DONE] == rounds_before:
            return 0.0
        # A learner step ends at most one round: the next round's set-up needs the
        # learner's own reveals before it can end.
        points = st[k.ST_PTS][b]
        if kind == SCORE:
            return -float(points[seat])
        low = points[0]
        for other in range(1, n):
            low = min(low, points[other])
        return _win_loss(points, n, seat, low)
    if ints[b, k.F_PHASE] != k.OVER:
        return 0.0
    totals = st[k.ST_TOT][b]
    if kind == SCORE:
        return -float(totals[seat])
    low = totals[0]
    for other in range(1, n):
        low = min(low, totals[other])
    return _win_loss(totals, n, seat, low)


@kernel
def legal_for(st, games, actions, out):
    """``out[i]``: whether ``actions[i]`` is legal in game ``games[i]``."""
    for i in range(games.shape[0]):
        out[i] = k.is_legal(st, games[i], actions[i])


@kernel
def vector_step(st, cfg, policy, kinds, seats, actions, acting, kind, at, penalty, out):
    """One step of every env ``b`` with ``acting[b]``: the learner's action if it is
    legal (then the bots' replies and the reward), else the ``penalty`` and nothing
    moves; then every env's observation and mask. ``out`` holds the arrays written:
    (rewards float64, legal flags bool, observations float32, masks int8)."""
    rewards, legal, obs, masks = out
    ints = st[k.ST_INT]
    for b in range(actions.shape[0]):
        seat = seats[b]
        rewards[b] = 0.0
        legal[b] = True
        if acting[b]:
            action = actions[b]
            if k.is_legal(st, b, action):
                rounds_before = ints[b, k.F_ROUNDS_DONE]
                k.apply(st, cfg, b, action)
                play_bots(st, cfg, policy, kinds, b, seat)
                rewards[b] = _reward(st, cfg, b, seat, rounds_before, kind, at)
            else:
                legal[b] = False
                rewards[b] = penalty
        encode(st, cfg, b, seat, obs[b])
        learner_mask(st, b, seat, masks[b])

"""Compiled kernels of the Skyjo vector environment: one learner seat a game, the
other seats played by compiled bots, observations and masks for every game.

The observation is the float32 vector of :func:`cardtable.encoders.skyjo_obs.skyjo_layout`,
written field by field in the same order (the tests require it to equal
``SkyjoEncoder.encode_state`` for every position of the same games); the mask is the
learner's legal actions (all 0 when another seat is to move or the game is over).
The opponents are the tournament bots (``random``, ``greedy``, ``hard``: every kernel
takes ``hard``'s weights and work array, :func:`cardtable.fast.skyjo_hard.hard_params`,
or None for both when no seat plays ``hard``) and ``frozen``, a learned policy's
network (:mod:`cardtable.fast.frozen_policy`: every kernel takes its arrays, or None
when no seat plays it).
"""

from __future__ import annotations

import numpy as np

from . import env_common as c
from . import frozen_policy as fp
from . import skyjo_kernels as k
from .compiled import inline_kernel, kernel
from .skyjo_bots import HARD, TOURNAMENT_NAMES, bot_action, tournament_action
from .skyjo_hard import hard_values

#: Totals are clipped to this range, as in cardtable.encoders.skyjo_obs.
TOTAL_LOW = -1000
TOTAL_HIGH = 1288
#: Reward kinds and moments (cardtable.rl.common).
WIN, SCORE = 0, 1
AT_GAME, AT_ROUND = 0, 1
_PHASES = 5
_VALUES = 15
#: The opponents of the env: the tournament bots, then a frozen learned policy.
OPPONENT_NAMES = (*TOURNAMENT_NAMES, "frozen")
FROZEN = OPPONENT_NAMES.index("frozen")


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


@inline_kernel
def _frozen_action(st, cfg, b, frozen):
    """The move of the frozen policy (:mod:`.frozen_policy`, row ``b`` modulo the
    pool's size) in game ``b``: the legal move with the highest logit for the mover's
    own observation (what its seat sees, as the learner's encoder shows it)."""
    mover = st[k.ST_INT][b, k.F_PLAYER]
    encode(st, cfg, b, mover, frozen[2])
    scores = frozen[3][fp.evaluate(frozen, b % frozen[0].shape[0])]
    bits = k.legal_bits(st, b)
    best = -1
    best_value = 0.0
    for code in range(k.NUM_ACTIONS):
        if (bits >> code) & 1 and fp.better(scores[code], code, best_value, best):
            best = code
            best_value = scores[code]
    return best


@inline_kernel
def _opponent_action(kind, st, cfg, b, policy, params, work, frozen):
    """The move of opponent ``kind``. Without ``hard`` among the opponents ``params`` and
    ``work`` are None, without a frozen policy ``frozen`` is, and numba prunes those
    branches before typing them: the envs that never meet ``hard`` compile without it
    (its code adds half the kernels' compile time), those without ``frozen`` without
    the network."""
    if frozen is not None and kind == FROZEN:
        return _frozen_action(st, cfg, b, frozen)
    if params is None:
        return bot_action(kind, st, cfg, b, policy, b)
    return tournament_action(kind, st, cfg, b, policy, b, params, work)


@inline_kernel
def play_bots(st, cfg, policy, kinds, b, seat, params, work, frozen):
    """The bots (``kinds[b, s]``: the bot code of seat ``s``, all drawing from the game's
    one generator ``policy[b]``, as the single-agent env's bots share ``bot_rng``; ``hard``
    with its weights ``params`` and work array ``work``) move until ``seat`` is to move
    or the game is over."""
    ints = st[k.ST_INT]
    while ints[b, k.F_PHASE] != k.OVER and ints[b, k.F_PLAYER] != seat:
        kind = kinds[b, ints[b, k.F_PLAYER]]
        k.apply(st, cfg, b, _opponent_action(kind, st, cfg, b, policy, params, work, frozen))


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


@inline_kernel
def _deal(st, cfg, ev, conf, b, params, work, frozen):
    """Env ``b``'s next game, dealt from its stream as the single-agent env's ``deal``
    does: the bots play up to the learner (a deal they finish is replaced by the
    next one). The learner's seat."""
    seat = c.begin_deal(ev, conf, b, cfg[k.C_PLAYERS])
    while True:
        k.new_game(st, cfg, b, c.game_seed(ev, b))
        play_bots(st, cfg, ev[c.E_POLICY], ev[c.E_KINDS], b, seat, params, work, frozen)
        if st[k.ST_INT][b, k.F_PHASE] != k.OVER:
            return seat


@inline_kernel
def _observe(st, cfg, b, seat, observations, masks):
    encode(st, cfg, b, seat, observations[b])
    learner_mask(st, b, seat, masks[b])


@kernel
def deal_envs(st, cfg, ev, conf, games, out, params, work, frozen):
    """``reset``: deal each listed env's next game; its observation and mask."""
    for i in range(games.shape[0]):
        b = games[i]
        seat = _deal(st, cfg, ev, conf, b, params, work, frozen)
        ev[c.E_STATE][b] = c.PLAYING
        _observe(st, cfg, b, seat, out[c.O_OBS], out[c.O_MASK])


@inline_kernel
def _ends(st, cfg, b, ends):
    """The result of finished game ``b``: the totals, then the winners' seat mask."""
    n = cfg[k.C_PLAYERS]
    totals = st[k.ST_TOT][b]
    low = totals[0]
    for seat in range(1, n):
        low = min(low, totals[seat])
    winners = 0
    for seat in range(n):
        ends[b, seat] = totals[seat]
        if totals[seat] == low:
            winners |= 1 << seat
    ends[b, n] = winners


@kernel
def step_envs(st, cfg, ev, conf, penalty, actions, out, params, work, frozen):
    """``step``: every env ``b`` plays ``actions[b]`` (if legal, with the bots' replies
    and the reward; else the ``penalty`` and nothing moves), or is dealt its next game
    if its autoreset is due; ended episodes are handled by the autoreset mode; then
    every env's observation and mask. The status bits (see :mod:`.env_common`)."""
    ints = st[k.ST_INT]
    seats, state = ev[c.E_SEATS], ev[c.E_STATE]
    kind, at, mode = conf[c.K_REWARD], conf[c.K_AT], conf[c.K_MODE]
    observations, masks = out[c.O_OBS], out[c.O_MASK]
    status = 0
    for b in range(actions.shape[0]):
        seat = seats[b]
        if state[b] == c.RESET_DUE:
            seat = _deal(st, cfg, ev, conf, b, params, work, frozen)
            state[b] = c.PLAYING
            c.quiet(out, b)
        else:
            action = actions[b]
            reward = penalty
            illegal = not k.is_legal(st, b, action)
            if not illegal:
                rounds_before = ints[b, k.F_ROUNDS_DONE]
                k.apply(st, cfg, b, action)
                play_bots(st, cfg, ev[c.E_POLICY], ev[c.E_KINDS], b, seat, params, work, frozen)
                reward = _reward(st, cfg, b, seat, rounds_before, kind, at)
            else:
                status |= c.ILLEGAL
            over = ints[b, k.F_PHASE] == k.OVER
            if c.finish(ev, conf, out, b, reward, illegal, over):
                status |= c.DONE
                if over:
                    status |= c.TERMINATED
                    _ends(st, cfg, b, out[c.O_ENDS])
                if mode == c.MODE_NEXT_STEP:
                    state[b] = c.RESET_DUE
                elif mode == c.MODE_DISABLED:
                    state[b] = c.ENDED
                else:  # SAME_STEP: keep the last observation, deal the next game
                    _observe(st, cfg, b, seat, out[c.O_FINAL_OBS], out[c.O_FINAL_MASK])
                    seat = _deal(st, cfg, ev, conf, b, params, work, frozen)
        _observe(st, cfg, b, seat, observations, masks)
    return status


@kernel
def teacher_actions(st, cfg, ev, rngs, out, params, work):
    """``out[b]``: the move ``hard`` (weights ``params``) would play in env ``b``'s
    learner seat now, or -1 where that seat is not to move or is in the set-up, where
    ``hard`` reveals at random (nothing to learn there, and a label drawn at random
    would make a resumed run differ). ``rngs`` only serves ``hard``'s draw among a
    single legal move, whose result does not depend on it."""
    ints = st[k.ST_INT]
    seats = ev[c.E_SEATS]
    for b in range(out.shape[0]):
        phase = ints[b, k.F_PHASE]
        playing = phase != k.OVER and phase != k.SETUP  # noqa: PLR1714  (typed as ints)
        if playing and ints[b, k.F_PLAYER] == seats[b]:
            out[b] = tournament_action(HARD, st, cfg, b, rngs, b, params, work)
        else:
            out[b] = -1


@kernel
def hard_priors(st, cfg, ev, out, values, params, work):
    """``out[b]`` (float32): the prior of ``hard``'s values for env ``b``'s learner seat,
    ``-(value(a) - min value)`` for each legal move ``a`` (0 for ``hard``'s own best
    move, below 0 for the others), 0 for the other codes; a row of 0 where the learner
    is not to move, is in set-up or has a single legal move (``hard`` values nothing
    there). ``values``: a float64 scratch row, one entry per action code."""
    ints = st[k.ST_INT]
    seats = ev[c.E_SEATS]
    for b in range(out.shape[0]):
        for code in range(k.NUM_ACTIONS):
            out[b, code] = 0.0
        if ints[b, k.F_PHASE] == k.OVER or ints[b, k.F_PLAYER] != seats[b]:
            continue
        if not hard_values(st, cfg, b, params, work, values):
            continue
        low = np.inf
        for code in range(k.NUM_ACTIONS):
            low = min(low, values[code])
        for code in range(k.NUM_ACTIONS):
            if values[code] != np.inf:
                out[b, code] = -(values[code] - low)

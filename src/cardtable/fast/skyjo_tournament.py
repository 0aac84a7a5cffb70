"""Tournament games of compiled Skyjo bots, seeded as :mod:`cardtable.sim.tournament` seeds them.

:func:`play_games` plays the games of a tournament given by their indices: game
``index`` is dealt from ``deal_seed(seed, index, seats, paired)``, its seats get the
bots of ``paired_bots(seat_bots, index, paired)``, and seat ``s`` draws from
``bot_rng(deal, s)``, all derived in compiled code with the same SplitMix64 steps as
:func:`cardtable.sim.seeding.derive_seed`. So a game is the game the reference
tournament plays, move for move, and its record is the same (tested).
"""

from __future__ import annotations

import numpy as np

from . import skyjo_kernels as k
from .compiled import inline_kernel, kernel
from .rng import next64
from .skyjo_bots import tournament_action

_MASK53 = np.uint64((1 << 53) - 1)
_BOT_STREAM = np.uint64(0xB07)


@inline_kernel
def _mix(value, scratch):
    """``Rng(value).next64()``."""
    scratch[0] = value
    return next64(scratch, 0)


@inline_kernel
def derive2(seed, first, second, scratch):
    """``derive_seed(seed, first, second)``."""
    value = _mix(seed, scratch)
    value = _mix(value ^ first, scratch)
    return _mix(value ^ second, scratch)


@inline_kernel
def derive1(seed, part, scratch):
    """``derive_seed(seed, part)``."""
    return _mix(_mix(seed, scratch) ^ part, scratch)


@kernel
def play_games(
    st, cfg, seed, indices, paired, seat_kinds, rngs, records, points, scratch, params, work
):
    """Play game ``indices[i]`` of the tournament seeded with ``seed`` (a uint64) in
    batch slot ``i``, to its end. ``seat_kinds[s]``: the bot code of seat ``s`` before
    rotation (of :data:`~cardtable.fast.skyjo_bots.TOURNAMENT_NAMES`; ``hard`` plays with
    the weights ``params`` and the work array ``work``, see
    :mod:`cardtable.fast.skyjo_hard`). ``rngs``: scratch for the bots' generators (one
    per slot and seat).
    ``records[i]`` gets (deal seed, moves, turns, rounds, rotation, blocked rounds);
    ``points[i, r]`` the
    points of round ``r`` while ``r < points.shape[1]`` (``rounds`` says how many there
    were, so a caller can replay with more room). A game stops after ``max_moves``
    (``cfg`` index 6) moves with ``moves`` set to -1."""
    n = cfg[k.C_PLAYERS]
    max_moves = cfg[6]
    ints = st[k.ST_INT]
    room = points.shape[1]
    for i in range(indices.shape[0]):
        index = np.uint64(indices[i])
        shift = 0
        game = index
        if paired:
            shift = indices[i] % n
            game = np.uint64(indices[i] // n)
        deal = derive1(seed, game, scratch) & _MASK53
        for seat in range(n):
            rngs[i * n + seat] = derive2(deal, _BOT_STREAM, np.uint64(seat), scratch)
        k.new_game(st, cfg, i, deal)
        moves = 0
        turns = 0
        rounds = 0
        blocked = 0
        while ints[i, k.F_PHASE] != k.OVER:
            if moves >= max_moves:
                moves = -1
                break
            seat = ints[i, k.F_PLAYER]
            kind = seat_kinds[(seat + shift) % n]
            before = ints[i, k.F_ROUNDS_DONE]
            action = tournament_action(kind, st, cfg, i, rngs, i * n + seat, params, work)
            k.apply(st, cfg, i, action)
            moves += 1
            if ints[i, k.F_ROUNDS_DONE] != before:
                if rounds < room:
                    for other in range(n):
                        points[i, rounds, other] = st[k.ST_PTS][i, other]
                rounds += 1
                turns += ints[i, k.F_ROUND_TURNS]
                blocked += ints[i, k.F_ROUND_BLOCKED]
        records[i, 0] = np.int64(deal)
        records[i, 1] = moves
        records[i, 2] = turns
        records[i, 3] = rounds
        records[i, 4] = shift
        records[i, 5] = blocked

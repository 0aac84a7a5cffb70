"""Tournament games of compiled Skip-Bo bots, seeded as :mod:`cardtable.sim.tournament` seeds them.

:func:`play_games` plays the games of a tournament given by their indices, as
:func:`cardtable.fast.skyjo_tournament.play_games` does for Skyjo: game ``index`` is
dealt from ``deal_seed(seed, index, seats, paired)``, its seats get the bots of
``paired_bots(seat_bots, index, paired)``, and seat ``s`` draws from
``bot_rng(deal, s)``. So a game is the game the reference tournament plays, move for
move, and its record is the same (tested).
"""

from __future__ import annotations

import numpy as np

from . import skipbo_kernels as k
from .compiled import kernel
from .skipbo_bots import tournament_action
from .skyjo_tournament import derive1, derive2

_MASK53 = np.uint64((1 << 53) - 1)
_BOT_STREAM = np.uint64(0xB07)


@kernel
def play_games(
    st, cfg, seed, indices, paired, seat_kinds, rngs, records, points, scratch, legal, params,
    work, copy,
):  # fmt: skip
    """Play game ``indices[i]`` of the tournament seeded with ``seed`` (a uint64) in
    batch slot ``i``, to its end. ``seat_kinds[s]``: the bot code of seat ``s`` before
    rotation (of :data:`~cardtable.fast.skipbo_bots.TOURNAMENT_NAMES`; ``hard`` plays with
    the weights ``params``, the work arrays ``work`` and the one-game ``copy``, see
    :mod:`cardtable.fast.skipbo_hard`). ``rngs``: room for the bots' generators (one per
    slot and seat); ``scratch``: a uint64 scratch entry; ``legal``: room for a legal list.
    ``records[i]`` gets (deal seed, moves, rotation); ``points[i, r]`` the points of
    round ``r`` while ``r < points.shape[1]`` (the batch's ``F_ROUNDS_DONE`` says how
    many there were, so a caller can replay with more room). A game stops after
    ``max_moves`` (the last entry of ``cfg``) moves with ``moves`` set to -1."""
    n = cfg[k.C_PLAYERS]
    max_moves = cfg[k.NC]
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
        while not ints[i, k.F_OVER]:
            if moves >= max_moves:
                moves = -1
                break
            seat = ints[i, k.F_CURRENT]
            kind = seat_kinds[(seat + shift) % n]
            before = ints[i, k.F_ROUNDS_DONE]
            action = tournament_action(
                kind, st, cfg, i, rngs, i * n + seat, legal, params, work, copy
            )
            k.apply(st, cfg, i, action)
            moves += 1
            rounds = ints[i, k.F_ROUNDS_DONE]
            if rounds != before and rounds <= room:
                for other in range(n):
                    points[i, rounds - 1, other] = st[k.ST_PTS][i, other]
        records[i, 0] = np.int64(deal)
        records[i, 1] = moves
        records[i, 2] = shift

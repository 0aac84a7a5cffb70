"""The Skyjo rules as compiled kernels over a batch of games held in numpy arrays.

Every function here works on game ``b`` of a batch, whose state is the tuple ``st``
of arrays built by :class:`cardtable.fast.skyjo_batch.SkyjoBatch`:

========== ================= ==========================================================
index      array             per game
========== ================= ==========================================================
``ST_INT`` int32 (B, NF)      the scalar fields ``F_*`` below
``ST_CARD`` int8 (B, 12 n)    every grid, 12 positions a seat, row by row
``ST_PRES`` int32 (B, n)      positions still holding a card (bit mask)
``ST_DOWN`` int32 (B, n)      positions still face down (bit mask, inside ``present``)
``ST_TOT`` int32 (B, n)       game totals
``ST_PTS`` int32 (B, n)       the points of the last finished round
``ST_DRAW`` int8 (B, 150)     draw pile, top at ``F_DRAW_LEN - 1``
``ST_DISC`` int8 (B, 150)     discard pile, top at ``F_DISCARD_LEN - 1``
``ST_RNG`` uint64 (B,)        the game's own SplitMix64 (deals and reshuffles)
========== ================= ==========================================================

and ``cfg`` is an int64 array of the rules: ``C_PLAYERS``, ``C_END_SCORE``,
``C_ROWS``, ``C_CLOSER_STARTS``, ``C_DOUBLING``, ``C_TURN_LIMIT``.

The kernels follow :mod:`cardtable.skyjo.state` step by step (the same order of
cards on the discard pile, the same draws of the generator, the same tie-breaks), so
that a game replayed through the reference engine matches it exactly at every move;
the cross-check tests compare the two move by move. Why a line is written as it is,
is said in the reference engine; here only what differs is explained.
"""

from __future__ import annotations

import numpy as np

from ..skyjo.cards import DECK_COUNTS
from . import rng
from .compiled import inline_kernel, kernel

# Phases, as in the reference engine.
SETUP, TURN, DRAWN, TAKEN, OVER = 0, 1, 2, 3, 4
# Action codes (see cardtable.skyjo.moves).
DRAW, TAKE_DISCARD, EXCHANGE, REVEAL, DISCARD_AND_REVEAL, NUM_ACTIONS = 0, 1, 2, 14, 26, 38

SLOTS = 12
COLS = 4
ROWS = 3
FULL = (1 << SLOTS) - 1
DECK_SIZE = 150
#: "No card held", "no seat": sentinels of the int fields (the reference's None).
NO_CARD = -100
NO_SEAT = -1

# Scalar fields of ST_INT.
F_PHASE = 0
F_PLAYER = 1
F_HAND = 2
F_STARTER = 3
F_CLOSER = 4
F_LAST_CLOSER = 5  # closer of the last finished round (NO_SEAT: none, or no round yet)
F_ROUND = 6
F_TURNS = 7
F_RESHUFFLED = 8
F_DRAW_LEN = 9
F_DISCARD_LEN = 10
F_ROUNDS_DONE = 11
F_BLOCKED = 12  # some round reached the turn limit
F_MOVES = 13  # moves applied (the reference's len(history))
F_DOUBLED = 14  # the last finished round doubled its closer
F_ROUND_TURNS = 15  # turns of the last finished round
F_ROUND_BLOCKED = 16  # the last finished round reached the turn limit
NF = 17

ST_INT, ST_CARD, ST_PRES, ST_DOWN, ST_TOT, ST_PTS, ST_DRAW, ST_DISC, ST_RNG = range(9)

C_PLAYERS, C_END_SCORE, C_ROWS, C_CLOSER_STARTS, C_DOUBLING, C_TURN_LIMIT = range(6)

#: The 150 cards in the reference's sorted order, ready to shuffle.
SORTED_DECK = np.array(
    [value for value, count in sorted(DECK_COUNTS.items()) for _ in range(count)], dtype=np.int8
)
_COLUMN_MASKS = np.array([sum(1 << (r * COLS + c) for r in range(ROWS)) for c in range(COLS)])
_ROW_MASKS = np.array([sum(1 << (r * COLS + c) for c in range(COLS)) for r in range(ROWS)])
#: Per 12-bit position mask: how many positions it holds, and the ``k``-th of them.
POP = np.array([bin(mask).count("1") for mask in range(FULL + 1)], dtype=np.int64)
NTH = np.array(
    [
        [p for p in range(SLOTS) if mask >> p & 1] + [0] * (SLOTS - bin(mask).count("1"))
        for mask in range(FULL + 1)
    ],
    dtype=np.int64,
)


@inline_kernel
def popcount(mask: int) -> int:
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@kernel
def deal(st, cfg, b):
    """Shuffle the whole deck and deal a round (set-up phase, seat 0 first)."""
    ints, cards, present, down = st[ST_INT], st[ST_CARD], st[ST_PRES], st[ST_DOWN]
    draw, discard = st[ST_DRAW], st[ST_DISC]
    n = cfg[C_PLAYERS]
    # The deck is shuffled in the draw pile's row, then dealt from its start: the grids,
    # one discard, and the rest moved down to be the draw pile.
    deck = draw[b]
    for i in range(DECK_SIZE):
        deck[i] = SORTED_DECK[i]
    rng.shuffle(deck, DECK_SIZE, st[ST_RNG], b)
    dealt = SLOTS * n
    for i in range(dealt):
        cards[b, i] = deck[i]
    discard[b, 0] = deck[dealt]
    ints[b, F_DISCARD_LEN] = 1
    length = DECK_SIZE - dealt - 1
    for i in range(length):
        deck[i] = deck[dealt + 1 + i]
    ints[b, F_DRAW_LEN] = length
    for seat in range(n):
        present[b, seat] = FULL
        down[b, seat] = FULL
    ints[b, F_HAND] = NO_CARD
    ints[b, F_ROUND] += 1
    ints[b, F_PHASE] = SETUP
    ints[b, F_PLAYER] = 0
    ints[b, F_CLOSER] = NO_SEAT
    ints[b, F_TURNS] = 0
    ints[b, F_RESHUFFLED] = 0


@kernel
def new_game(st, cfg, b, seed):
    """Game ``b`` starts anew from ``seed`` (a uint64), as ``GAME.new_state(rules, seed)``."""
    ints = st[ST_INT]
    n = cfg[C_PLAYERS]
    st[ST_RNG][b] = seed
    for f in range(NF):
        ints[b, f] = 0
    ints[b, F_STARTER] = NO_SEAT
    ints[b, F_LAST_CLOSER] = NO_SEAT
    for seat in range(n):
        st[ST_TOT][b, seat] = 0
        st[ST_PTS][b, seat] = 0
    deal(st, cfg, b)


@inline_kernel
def legal_bits(st, b):
    """The legal action codes of game ``b`` as a bit mask (bit ``code``)."""
    ints = st[ST_INT]
    phase = ints[b, F_PHASE]
    if phase == TURN:
        return np.int64(3)
    seat = ints[b, F_PLAYER]
    if phase == DRAWN:
        return (np.int64(st[ST_PRES][b, seat]) << EXCHANGE) | (
            np.int64(st[ST_DOWN][b, seat]) << DISCARD_AND_REVEAL
        )
    if phase == TAKEN:
        return np.int64(st[ST_PRES][b, seat]) << EXCHANGE
    if phase == SETUP:
        return np.int64(st[ST_DOWN][b, seat]) << REVEAL
    return np.int64(0)


@inline_kernel
def is_legal(st, b, action):
    return 0 <= action < NUM_ACTIONS and (legal_bits(st, b) >> action) & 1 == 1


@inline_kernel
def _push_discard(st, b, card):
    ints = st[ST_INT]
    st[ST_DISC][b, ints[b, F_DISCARD_LEN]] = card
    ints[b, F_DISCARD_LEN] += 1


@inline_kernel
def _check_column(st, b, seat, col):
    mask = _COLUMN_MASKS[col]
    present = st[ST_PRES][b, seat]
    if present & mask != mask or st[ST_DOWN][b, seat] & mask:
        return
    cards = st[ST_CARD]
    base = seat * SLOTS + col
    top, middle, bottom = cards[b, base], cards[b, base + COLS], cards[b, base + 2 * COLS]
    if top == middle and middle == bottom:
        _push_discard(st, b, top)
        _push_discard(st, b, middle)
        _push_discard(st, b, bottom)
        st[ST_PRES][b, seat] = present & ~mask


@inline_kernel
def _check_row(st, b, seat, row):
    mask = _ROW_MASKS[row]
    present = st[ST_PRES][b, seat]
    if present & mask != mask or st[ST_DOWN][b, seat] & mask:
        return
    cards = st[ST_CARD]
    base = seat * SLOTS + row * COLS
    first = cards[b, base]
    for k in range(1, COLS):
        if cards[b, base + k] != first:
            return
    for k in range(COLS):
        _push_discard(st, b, cards[b, base + k])
    st[ST_PRES][b, seat] = present & ~mask


@inline_kernel
def _check_lines(st, cfg, b, seat, pos):
    _check_column(st, b, seat, pos % COLS)
    if cfg[C_ROWS]:
        _check_row(st, b, seat, pos // COLS)


@inline_kernel
def _reveal(st, cfg, b, seat, pos):
    st[ST_DOWN][b, seat] &= ~(1 << pos)
    _check_lines(st, cfg, b, seat, pos)


@inline_kernel
def _exchange(st, cfg, b, seat, pos):
    ints, cards = st[ST_INT], st[ST_CARD]
    index = seat * SLOTS + pos
    replaced = cards[b, index]
    cards[b, index] = ints[b, F_HAND]
    st[ST_DOWN][b, seat] &= ~(1 << pos)
    ints[b, F_HAND] = NO_CARD
    _push_discard(st, b, replaced)
    _check_lines(st, cfg, b, seat, pos)


@kernel
def _reshuffle(st, b):
    """Every discard but the top, shuffled, is the new draw pile."""
    ints, draw, discard = st[ST_INT], st[ST_DRAW], st[ST_DISC]
    length = ints[b, F_DISCARD_LEN] - 1
    for i in range(length):
        draw[b, i] = discard[b, i]
    discard[b, 0] = discard[b, length]
    ints[b, F_DISCARD_LEN] = 1
    rng.shuffle(draw[b], length, st[ST_RNG], b)
    ints[b, F_DRAW_LEN] = length
    ints[b, F_RESHUFFLED] = 1


@kernel
def face_up_sum(st, b, seat):
    up = st[ST_PRES][b, seat] & ~st[ST_DOWN][b, seat]
    total = 0
    for pos in range(SLOTS):
        if up >> pos & 1:
            total += st[ST_CARD][b, seat * SLOTS + pos]
    return total


@kernel
def _grid_sum(st, b, seat):
    present = st[ST_PRES][b, seat]
    total = 0
    for pos in range(SLOTS):
        if present >> pos & 1:
            total += st[ST_CARD][b, seat * SLOTS + pos]
    return total


@kernel
def _choose_starter(st, cfg, b):
    ints = st[ST_INT]
    n = cfg[C_PLAYERS]
    last = ints[b, F_LAST_CLOSER]
    if cfg[C_CLOSER_STARTS] and last != NO_SEAT:
        starter = last
    else:
        best = face_up_sum(st, b, 0)
        for seat in range(1, n):
            best = max(best, face_up_sum(st, b, seat))
        first = 0 if ints[b, F_STARTER] == NO_SEAT else (ints[b, F_STARTER] + 1) % n
        starter = first
        for i in range(n):
            seat = (first + i) % n
            if face_up_sum(st, b, seat) == best:
                starter = seat
                break
    ints[b, F_STARTER] = starter
    ints[b, F_PLAYER] = starter
    ints[b, F_PHASE] = TURN


@kernel
def _end_round(st, cfg, b, limited):
    ints, totals, points = st[ST_INT], st[ST_TOT], st[ST_PTS]
    n = cfg[C_PLAYERS]
    closer = ints[b, F_CLOSER]
    for seat in range(n):
        st[ST_DOWN][b, seat] = 0
        for col in range(COLS):
            _check_column(st, b, seat, col)
        if cfg[C_ROWS]:
            for row in range(ROWS):
                _check_row(st, b, seat, row)
    for seat in range(n):
        points[b, seat] = _grid_sum(st, b, seat)
    doubled = False
    if closer != NO_SEAT and not limited and cfg[C_DOUBLING]:
        others = 1 << 30
        for seat in range(n):
            if seat != closer:
                others = min(others, points[b, seat])
        raw = points[b, closer]
        doubled = raw > 0 and raw >= others
        if doubled:
            points[b, closer] = 2 * raw
    top = -(1 << 30)
    for seat in range(n):
        totals[b, seat] += points[b, seat]
        top = max(top, totals[b, seat])
    ints[b, F_ROUNDS_DONE] += 1
    ints[b, F_LAST_CLOSER] = closer
    ints[b, F_DOUBLED] = 1 if doubled else 0
    ints[b, F_ROUND_TURNS] = ints[b, F_TURNS]
    ints[b, F_ROUND_BLOCKED] = 1 if limited else 0
    if limited:
        ints[b, F_BLOCKED] = 1
    if top >= cfg[C_END_SCORE]:
        ints[b, F_PHASE] = OVER
    else:
        deal(st, cfg, b)


@inline_kernel
def _end_turn(st, cfg, b, seat):
    ints = st[ST_INT]
    ints[b, F_TURNS] += 1
    if ints[b, F_CLOSER] == NO_SEAT and st[ST_DOWN][b, seat] == 0:
        ints[b, F_CLOSER] = seat
    following = seat + 1
    if following == cfg[C_PLAYERS]:
        following = 0
    if following == ints[b, F_CLOSER]:
        _end_round(st, cfg, b, False)
    elif ints[b, F_TURNS] >= cfg[C_TURN_LIMIT]:
        _end_round(st, cfg, b, True)
    else:
        ints[b, F_PLAYER] = following
        ints[b, F_PHASE] = TURN


@inline_kernel
def apply(st, cfg, b, action):
    """Apply the known-legal ``action`` to game ``b`` (the reference's ``advance``)."""
    ints = st[ST_INT]
    seat = ints[b, F_PLAYER]
    ints[b, F_MOVES] += 1
    if action >= DISCARD_AND_REVEAL:
        card = ints[b, F_HAND]
        ints[b, F_HAND] = NO_CARD
        _push_discard(st, b, card)
        _reveal(st, cfg, b, seat, action - DISCARD_AND_REVEAL)
        _end_turn(st, cfg, b, seat)
    elif action >= REVEAL:
        _reveal(st, cfg, b, seat, action - REVEAL)
        if popcount(st[ST_DOWN][b, seat]) == SLOTS - 2:
            if seat + 1 < cfg[C_PLAYERS]:
                ints[b, F_PLAYER] = seat + 1
            else:
                _choose_starter(st, cfg, b)
    elif action >= EXCHANGE:
        _exchange(st, cfg, b, seat, action - EXCHANGE)
        _end_turn(st, cfg, b, seat)
    elif action == DRAW:
        if ints[b, F_DRAW_LEN] == 0:
            _reshuffle(st, b)
        ints[b, F_DRAW_LEN] -= 1
        ints[b, F_HAND] = st[ST_DRAW][b, ints[b, F_DRAW_LEN]]
        ints[b, F_PHASE] = DRAWN
    else:
        ints[b, F_DISCARD_LEN] -= 1
        ints[b, F_HAND] = st[ST_DISC][b, ints[b, F_DISCARD_LEN]]
        ints[b, F_PHASE] = TAKEN


@inline_kernel
def random_action(st, b, policy, p):
    """The random bot's choice: ``legal[rng.below(len(legal))]`` with generator
    ``policy[p]``, the legal actions read from the position masks by table."""
    ints = st[ST_INT]
    phase = ints[b, F_PHASE]
    if phase == TURN:
        return rng.below(policy, p, 2)
    seat = ints[b, F_PLAYER]
    if phase == SETUP:
        down = st[ST_DOWN][b, seat]
        return REVEAL + NTH[down, rng.below(policy, p, POP[down])]
    present = st[ST_PRES][b, seat]
    if phase == TAKEN:
        return EXCHANGE + NTH[present, rng.below(policy, p, POP[present])]
    down = st[ST_DOWN][b, seat]
    exchanges = POP[present]
    pick = rng.below(policy, p, exchanges + POP[down])
    if pick < exchanges:
        return EXCHANGE + NTH[present, pick]
    return DISCARD_AND_REVEAL + NTH[down, pick - exchanges]


# --- batch loops -------------------------------------------------------------------


@kernel
def new_games(st, cfg, games, seeds):
    for k in range(games.shape[0]):
        new_game(st, cfg, games[k], seeds[k])


@kernel
def legal_masks(st, out):
    """``out[b, code]`` = 1 where ``code`` is legal in game ``b``, else 0."""
    for b in range(out.shape[0]):
        bits = legal_bits(st, b)
        for code in range(NUM_ACTIONS):
            out[b, code] = (bits >> code) & 1


@kernel
def first_illegal(st, games, actions):
    """Index ``i`` of the first game ``games[i]`` for which ``actions[i]`` is illegal
    (or that is over), or -1."""
    for i in range(games.shape[0]):
        if not is_legal(st, games[i], actions[i]):
            return i
    return -1


@kernel
def step_games(st, cfg, games, actions):
    """Apply ``actions[i]`` to game ``games[i]`` (checked legal by the caller)."""
    for i in range(games.shape[0]):
        apply(st, cfg, games[i], actions[i])


@kernel
def play_random(st, cfg, policy):
    """Play every game to its end with the random policy (game ``b`` drawing from
    ``policy[b]``); the number of moves played."""
    moves = 0
    ints = st[ST_INT]
    for b in range(ints.shape[0]):
        while ints[b, F_PHASE] != OVER:
            apply(st, cfg, b, random_action(st, b, policy, b))
            moves += 1
    return moves


#: Length of a :func:`write_row` row for ``n`` players.
def row_size(n: int) -> int:
    return NF + 2 + 16 * n


@kernel
def write_row(st, cfg, b, out):
    """Every field of game ``b`` but its piles, as int64: the scalar fields, the
    generator's state as two 32-bit halves, then per seat present, down, totals and
    last round's points, then the grids."""
    n = cfg[C_PLAYERS]
    k = 0
    for f in range(NF):
        out[k] = st[ST_INT][b, f]
        k += 1
    state = st[ST_RNG][b]
    out[k] = np.int64(state & np.uint64(0xFFFFFFFF))
    out[k + 1] = np.int64(state >> np.uint64(32))
    k += 2
    for seat in range(n):
        out[k] = st[ST_PRES][b, seat]
        out[k + n] = st[ST_DOWN][b, seat]
        out[k + 2 * n] = st[ST_TOT][b, seat]
        out[k + 3 * n] = st[ST_PTS][b, seat]
        k += 1
    k += 3 * n
    for i in range(SLOTS * n):
        out[k] = st[ST_CARD][b, i]
        k += 1

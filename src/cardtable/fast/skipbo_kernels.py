"""The Skip-Bo rules as compiled kernels over a batch of games held in numpy arrays.

Every function here works on game ``b`` of a batch, whose state is the tuple ``st``
of arrays built by :class:`cardtable.fast.skipbo_batch.SkipBoBatch`:

============ ======================= ================================================
index        array                   per game
============ ======================= ================================================
``ST_INT``   int32 (B, NF)           the scalar fields ``F_*`` below
``ST_HAND``  int8 (B, 13 n)          hand counts, 13 values a seat (0 = Skip-Bo)
``ST_HSIZE`` int32 (B, n)            cards in each hand
``ST_STOCK`` int8 (B, 30 n)          stock piles, 30 places a seat, top at its length - 1
``ST_SLEN``  int32 (B, n)            stock lengths
``ST_DISC``  int8 (B, 4 n, 162)      discard piles, 4 a seat, top at its length - 1
``ST_DLEN``  int32 (B, 4 n)          discard pile lengths
``ST_BUILD`` int8 (B, 4, 12)         building piles (a complete one leaves at once)
``ST_BLEN``  int32 (B, 4)            building pile lengths
``ST_DRAW``  int8 (B, 162)           draw pile, top at ``F_DRAW_LEN - 1``
``ST_DONE``  int8 (B, 162)           completed piles set aside, in the order they left
``ST_SCORE`` int32 (B, n)            match scores
``ST_PTS``   int32 (B, n)            points of the last finished round
``ST_FINAL`` int32 (B, n)            the result's scores once the game is over
``ST_RNG``   uint64 (B,)             the game's own SplitMix64 (cut, deals, reshuffles)
============ ======================= ================================================

and ``cfg`` is an int64 array of the rules (``C_*`` below). Seats are bit masks where
a set of them is needed (winners of a round or of the game).

The kernels follow :mod:`cardtable.skipbo.state` step by step (the same order of cards
in every pile, the same draws of the generator), so that a game replayed through the
reference engine matches it exactly at every move; the cross-check compares the two
move by move. Why a rule is as it is, is said in the reference engine.
"""

from __future__ import annotations

import numpy as np

from ..skipbo.moves import DISCARD_BASE, DISCARD_PLAY_BASE, END_TURN, NUM_ACTIONS, STOCK_BASE
from . import rng
from .compiled import inline_kernel, kernel

CARDS = 13
HIGHEST = 12
HAND_SIZE = 5
PILES = 4
DECK_SIZE = 162
STOCK_ROOM = 30
WILD_CARDS = 18
#: "No seat", "no card" (an empty pile's top): the reference's None.
NO_SEAT = -1
NO_CARD = -1

# Scalar fields of ST_INT.
F_CURRENT = 0
F_ROUND = 1  # round_index (from 0)
F_STARTER = 2
F_TURNS = 3
F_IDLE = 4
F_BUILT = 5
F_DRAW_LEN = 6
F_DONE_LEN = 7  # completed cards set aside
F_OVER = 8
F_MOVES = 9  # moves applied (the reference's len(history))
F_ROUNDS_DONE = 10
F_BLOCKED_RUN = 11  # rounds in a row, the last included, that ended blocked
F_WINNERS = 12  # the result's winners (seat mask)
F_FINAL_BLOCKED = 13
F_ROUND_WINNERS = 14  # winners of the last finished round (seat mask)
F_ROUND_TURNS = 15  # turns of the last finished round
F_ROUND_BLOCKED = 16
F_BLOCKED_ROUNDS = 17  # finished rounds that ended blocked
F_ALL_TURNS = 18  # turns of every finished round
F_DEALER = 19  # high_card_deal: the seat that won the cut (NO_SEAT otherwise)
NF = 20

(
    ST_INT,
    ST_HAND,
    ST_HSIZE,
    ST_STOCK,
    ST_SLEN,
    ST_DISC,
    ST_DLEN,
    ST_BUILD,
    ST_BLEN,
    ST_DRAW,
    ST_DONE,
    ST_SCORE,
    ST_PTS,
    ST_FINAL,
    ST_RNG,
) = range(15)

(
    C_PLAYERS,
    C_STOCK,
    C_TEAMS,
    C_TO_PARTNER,
    C_ROUNDS,
    C_TARGET,
    C_BONUS,
    C_PER_CARD,
    C_FIRST,
    C_HIGH_CARD,
    C_IDLE_LIMIT,
    C_TURN_LIMIT,
    C_BLOCKED_LIMIT,
    C_EDITION,
) = range(14)
NC = 14
#: uint64 words of a legal-action bit set (197 codes).
WORDS = 4

#: The 162 cards in the reference's fixed order (18 Skip-Bo cards, then 1..12), to shuffle.
SORTED_DECK = np.array(
    [0] * WILD_CARDS + [n for n in range(1, HIGHEST + 1) for _ in range(12)], dtype=np.int8
)


@inline_kernel
def partner(cfg, seat):
    """The seat opposite ``seat`` in team play, else NO_SEAT."""
    if cfg[C_TEAMS]:
        return (seat + cfg[C_PLAYERS] // 2) % cfg[C_PLAYERS]
    return NO_SEAT


@inline_kernel
def fits(st, b, card):
    """Bit mask of the building piles that take ``card`` now."""
    if card == 0:
        return 15
    lengths = st[ST_BLEN]
    mask = 0
    for pile in range(PILES):
        if lengths[b, pile] == card - 1:
            mask |= 1 << pile
    return mask


@inline_kernel
def stock_top(st, b, seat):
    length = st[ST_SLEN][b, seat]
    return st[ST_STOCK][b, seat * STOCK_ROOM + length - 1] if length else NO_CARD


@inline_kernel
def discard_top(st, b, pile):
    """Top of discard pile ``pile`` (``4 * seat + index``), or NO_CARD."""
    length = st[ST_DLEN][b, pile]
    return st[ST_DISC][b, pile, length - 1] if length else NO_CARD


# --- dealing --------------------------------------------------------------------------


@inline_kernel
def _fill_deck(deck):
    for i in range(DECK_SIZE):
        deck[i] = SORTED_DECK[i]


@kernel
def cut_for_deal(st, cfg, b):
    """Sheet 003's draw for the deal (see the reference's ``cut_for_deal``): the seat
    that deals. Uses the draw pile's row as the cut deck and ``ST_PTS`` as scratch."""
    n = cfg[C_PLAYERS]
    deck = st[ST_DRAW][b]
    ranks = st[ST_PTS][b]
    length = 0
    contenders = (1 << n) - 1
    count = n
    while count > 1:
        if length < count:
            _fill_deck(deck)
            rng.shuffle(deck, DECK_SIZE, st[ST_RNG], b)
            length = DECK_SIZE
        best = 0
        for seat in range(n):
            if contenders >> seat & 1:
                length -= 1
                card = deck[length]
                rank = 13 if card == 0 else card
                ranks[seat] = rank
                best = max(best, rank)
        chosen = 0
        count = 0
        for seat in range(n):
            if contenders >> seat & 1 and ranks[seat] == best:
                chosen |= 1 << seat
                count += 1
        contenders = chosen
    dealer = 0
    for seat in range(n):
        ranks[seat] = 0
        if contenders >> seat & 1:
            dealer = seat
    return dealer


@inline_kernel
def draw_cards(st, b, seat, count):
    """Draw up to ``count`` cards into ``seat``'s hand, recycling the completed piles
    when the draw pile runs out (the reference's ``_draw``)."""
    ints, draw, done = st[ST_INT], st[ST_DRAW], st[ST_DONE]
    got = 0
    while got < count:
        if ints[b, F_DRAW_LEN] == 0:
            length = ints[b, F_DONE_LEN]
            if length == 0:
                break
            for i in range(length):
                draw[b, i] = done[b, i]
            ints[b, F_DONE_LEN] = 0
            rng.shuffle(draw[b], length, st[ST_RNG], b)
            ints[b, F_DRAW_LEN] = length
        ints[b, F_DRAW_LEN] -= 1
        st[ST_HAND][b, seat * CARDS + draw[b, ints[b, F_DRAW_LEN]]] += 1
        got += 1
    st[ST_HSIZE][b, seat] += got


@inline_kernel
def begin_turn(st, b, seat):
    ints = st[ST_INT]
    ints[b, F_CURRENT] = seat
    ints[b, F_TURNS] += 1
    missing = HAND_SIZE - st[ST_HSIZE][b, seat]
    if missing > 0:
        draw_cards(st, b, seat, missing)


@kernel
def deal(st, cfg, b):
    """Shuffle the deck, deal the stocks and start the round with the starter's turn."""
    ints = st[ST_INT]
    n = cfg[C_PLAYERS]
    size = cfg[C_STOCK]
    deck = st[ST_DRAW][b]
    _fill_deck(deck)
    rng.shuffle(deck, DECK_SIZE, st[ST_RNG], b)
    stocks = st[ST_STOCK]
    for seat in range(n):
        for i in range(size):
            stocks[b, seat * STOCK_ROOM + i] = deck[seat * size + i]
        st[ST_SLEN][b, seat] = size
        st[ST_HSIZE][b, seat] = 0
        for card in range(CARDS):
            st[ST_HAND][b, seat * CARDS + card] = 0
    dealt = n * size
    length = DECK_SIZE - dealt
    for i in range(length):
        deck[i] = deck[dealt + i]
    ints[b, F_DRAW_LEN] = length
    for pile in range(PILES * n):
        st[ST_DLEN][b, pile] = 0
    for pile in range(PILES):
        st[ST_BLEN][b, pile] = 0
    ints[b, F_DONE_LEN] = 0
    ints[b, F_TURNS] = 0
    ints[b, F_IDLE] = 0
    ints[b, F_BUILT] = 0
    begin_turn(st, b, ints[b, F_STARTER])


@kernel
def new_game(st, cfg, b, seed):
    """Game ``b`` starts anew from ``seed`` (a uint64), as ``GAME.new_state(rules, seed)``."""
    ints = st[ST_INT]
    n = cfg[C_PLAYERS]
    st[ST_RNG][b] = seed
    for f in range(NF):
        ints[b, f] = 0
    ints[b, F_DEALER] = NO_SEAT
    for seat in range(n):
        st[ST_SCORE][b, seat] = 0
        st[ST_PTS][b, seat] = 0
        st[ST_FINAL][b, seat] = 0
    if cfg[C_FIRST] >= 0:
        ints[b, F_STARTER] = cfg[C_FIRST]
    elif cfg[C_HIGH_CARD]:
        dealer = cut_for_deal(st, cfg, b)
        ints[b, F_DEALER] = dealer
        ints[b, F_STARTER] = (dealer + 1) % n
    else:
        ints[b, F_STARTER] = rng.below(st[ST_RNG], b, n)
    deal(st, cfg, b)


# --- legal moves ----------------------------------------------------------------------


@inline_kernel
def legal_list(st, cfg, b, out):
    """The legal action codes of game ``b``, ascending, into ``out``; how many."""
    ints = st[ST_INT]
    if ints[b, F_OVER]:
        return 0
    seat = ints[b, F_CURRENT]
    hand = st[ST_HAND]
    count = 0
    held = 0
    for card in range(CARDS):
        if hand[b, seat * CARDS + card]:
            held += 1
            mask = fits(st, b, card)
            for pile in range(PILES):
                if mask >> pile & 1:
                    out[count] = card * 4 + pile
                    count += 1
    mate = partner(cfg, seat)
    owners = 1 if mate == NO_SEAT else 2
    for offset in range(owners):
        owner = seat if offset == 0 else mate
        top = stock_top(st, b, owner)
        if top != NO_CARD:
            mask = fits(st, b, top)
            for pile in range(PILES):
                if mask >> pile & 1:
                    out[count] = STOCK_BASE + offset * 4 + pile
                    count += 1
    for offset in range(owners):
        owner = seat if offset == 0 else mate
        for index in range(PILES):
            top = discard_top(st, b, owner * PILES + index)
            if top != NO_CARD:
                mask = fits(st, b, top)
                for pile in range(PILES):
                    if mask >> pile & 1:
                        out[count] = DISCARD_PLAY_BASE + offset * 16 + index * 4 + pile
                        count += 1
    if held:
        sides = 2 if mate != NO_SEAT and cfg[C_TO_PARTNER] else 1
        for side in range(sides):
            for card in range(CARDS):
                if hand[b, seat * CARDS + card]:
                    for index in range(PILES):
                        out[count] = DISCARD_BASE + side * 52 + card * 4 + index
                        count += 1
    else:
        out[count] = END_TURN
        count += 1
    return count


@inline_kernel
def _builds(st, b, card, pile):
    return card == 0 or st[ST_BLEN][b, pile] == card - 1


@inline_kernel
def is_legal(st, cfg, b, action):
    """Whether ``action`` is legal in game ``b`` (the reference's ``is_legal_action``)."""
    ints = st[ST_INT]
    if action < 0 or action >= NUM_ACTIONS or ints[b, F_OVER]:
        return False
    seat = ints[b, F_CURRENT]
    if action < STOCK_BASE:
        card = action >> 2
        return st[ST_HAND][b, seat * CARDS + card] > 0 and _builds(st, b, card, action & 3)
    if action == END_TURN:
        return st[ST_HSIZE][b, seat] == 0
    if action < DISCARD_PLAY_BASE:
        relative = action - STOCK_BASE
        owner = seat if relative < 4 else partner(cfg, seat)
        if owner == NO_SEAT:
            return False
        top = stock_top(st, b, owner)
        return top != NO_CARD and _builds(st, b, top, relative & 3)
    if action < DISCARD_BASE:
        relative = action - DISCARD_PLAY_BASE
        owner = seat if relative < 16 else partner(cfg, seat)
        if owner == NO_SEAT:
            return False
        top = discard_top(st, b, owner * PILES + ((relative & 15) >> 2))
        return top != NO_CARD and _builds(st, b, top, relative & 3)
    relative = action - DISCARD_BASE
    if relative >= 52 and not (cfg[C_TO_PARTNER] and cfg[C_TEAMS]):
        return False
    return st[ST_HAND][b, seat * CARDS + (relative % 52) // 4] > 0


# --- moves ----------------------------------------------------------------------------


@inline_kernel
def _build(st, b, card, pile):
    ints, building, lengths = st[ST_INT], st[ST_BUILD], st[ST_BLEN]
    value = lengths[b, pile]
    building[b, pile, value] = card
    value += 1
    lengths[b, pile] = value
    ints[b, F_BUILT] = 1
    if value == HIGHEST:
        done = ints[b, F_DONE_LEN]
        for i in range(HIGHEST):
            st[ST_DONE][b, done + i] = building[b, pile, i]
        ints[b, F_DONE_LEN] = done + HIGHEST
        lengths[b, pile] = 0


@inline_kernel
def any_card_fits(st, cfg, b):
    """Whether any seat holds a card that fits a building pile now (hand, stock top or
    a discard top), as the reference's ``any_card_fits``."""
    n = cfg[C_PLAYERS]
    hand = st[ST_HAND]
    for seat in range(n):
        if hand[b, seat * CARDS]:
            return True
        for pile in range(PILES):
            if hand[b, seat * CARDS + st[ST_BLEN][b, pile] + 1]:
                return True
        top = stock_top(st, b, seat)
        if top != NO_CARD and fits(st, b, top):
            return True
        for index in range(PILES):
            top = discard_top(st, b, seat * PILES + index)
            if top != NO_CARD and fits(st, b, top):
                return True
    return False


@kernel
def _finish(st, cfg, b, winners, scores, blocked):
    ints = st[ST_INT]
    ints[b, F_OVER] = 1
    ints[b, F_WINNERS] = winners
    ints[b, F_FINAL_BLOCKED] = 1 if blocked else 0
    for seat in range(cfg[C_PLAYERS]):
        st[ST_FINAL][b, seat] = scores[b, seat]


@kernel
def end_round(st, cfg, b, winners):
    """The round ends with the seats of mask ``winners`` (0: blocked); the next one is
    dealt unless the game is over (the reference's ``_end_round``)."""
    ints, scores, points = st[ST_INT], st[ST_SCORE], st[ST_PTS]
    n = cfg[C_PLAYERS]
    left = 0
    for seat in range(n):
        if not winners >> seat & 1:
            left += st[ST_SLEN][b, seat]
    best = -(1 << 30)
    for seat in range(n):
        points[b, seat] = cfg[C_BONUS] + cfg[C_PER_CARD] * left if winners >> seat & 1 else 0
        scores[b, seat] += points[b, seat]
        best = max(best, scores[b, seat])
    blocked = winners == 0
    ints[b, F_ROUNDS_DONE] += 1
    ints[b, F_ROUND_WINNERS] = winners
    ints[b, F_ROUND_TURNS] = ints[b, F_TURNS]
    ints[b, F_ALL_TURNS] += ints[b, F_TURNS]
    ints[b, F_ROUND_BLOCKED] = 1 if blocked else 0
    if blocked:
        ints[b, F_BLOCKED_RUN] += 1
        ints[b, F_BLOCKED_ROUNDS] += 1
    else:
        ints[b, F_BLOCKED_RUN] = 0
    if not cfg[C_ROUNDS]:
        _finish(st, cfg, b, winners, points, blocked)
        return
    leaders = 0
    for seat in range(n):
        if scores[b, seat] == best:
            leaders |= 1 << seat
    if best >= cfg[C_TARGET]:
        _finish(st, cfg, b, leaders, scores, False)
        return
    if cfg[C_EDITION] >= 2 and ints[b, F_BLOCKED_RUN] >= cfg[C_BLOCKED_LIMIT]:
        _finish(st, cfg, b, leaders if best else 0, scores, True)
        return
    ints[b, F_ROUND] += 1
    ints[b, F_STARTER] = (ints[b, F_STARTER] + 1) % n
    deal(st, cfg, b)


@inline_kernel
def _end_turn(st, cfg, b):
    ints = st[ST_INT]
    if ints[b, F_BUILT] or ints[b, F_DRAW_LEN] or ints[b, F_DONE_LEN]:
        ints[b, F_IDLE] = 0
    else:
        ints[b, F_IDLE] += 1
    ints[b, F_BUILT] = 0
    idle = ints[b, F_IDLE]
    # Edition 1 called a round blocked after one idle turn per seat.
    limit = cfg[C_PLAYERS] if cfg[C_EDITION] == 1 else cfg[C_IDLE_LIMIT]
    blocked = idle >= limit
    if blocked or ints[b, F_TURNS] >= cfg[C_TURN_LIMIT]:
        end_round(st, cfg, b, 0)
    else:
        following = ints[b, F_CURRENT] + 1
        if following == cfg[C_PLAYERS]:
            following = 0
        begin_turn(st, b, following)


@inline_kernel
def apply(st, cfg, b, action):
    """Apply the known-legal ``action`` to game ``b`` (the reference's ``advance``)."""
    ints = st[ST_INT]
    seat = ints[b, F_CURRENT]
    ints[b, F_MOVES] += 1
    if action < STOCK_BASE:
        card = action >> 2
        st[ST_HAND][b, seat * CARDS + card] -= 1
        st[ST_HSIZE][b, seat] -= 1
        _build(st, b, card, action & 3)
        if st[ST_HSIZE][b, seat] == 0:
            draw_cards(st, b, seat, HAND_SIZE)
    elif action < DISCARD_PLAY_BASE:
        relative = action - STOCK_BASE
        owner = seat if relative < 4 else partner(cfg, seat)
        length = st[ST_SLEN][b, owner] - 1
        st[ST_SLEN][b, owner] = length
        _build(st, b, st[ST_STOCK][b, owner * STOCK_ROOM + length], relative & 3)
        if length == 0:
            mate = partner(cfg, owner)
            if mate == NO_SEAT:
                end_round(st, cfg, b, 1 << owner)
            elif st[ST_SLEN][b, mate] == 0:
                end_round(st, cfg, b, (1 << owner) | (1 << mate))
    elif action < DISCARD_BASE:
        relative = action - DISCARD_PLAY_BASE
        owner = seat if relative < 16 else partner(cfg, seat)
        pile = owner * PILES + ((relative & 15) >> 2)
        length = st[ST_DLEN][b, pile] - 1
        st[ST_DLEN][b, pile] = length
        _build(st, b, st[ST_DISC][b, pile, length], relative & 3)
    elif action < END_TURN:
        relative = action - DISCARD_BASE
        owner = seat if relative < 52 else partner(cfg, seat)
        relative %= 52
        card = relative >> 2
        st[ST_HAND][b, seat * CARDS + card] -= 1
        st[ST_HSIZE][b, seat] -= 1
        pile = owner * PILES + (relative & 3)
        length = st[ST_DLEN][b, pile]
        st[ST_DISC][b, pile, length] = card
        st[ST_DLEN][b, pile] = length + 1
        _end_turn(st, cfg, b)
    else:
        _end_turn(st, cfg, b)
    if (
        ints[b, F_DRAW_LEN] == 0
        and ints[b, F_DONE_LEN] == 0
        and not ints[b, F_OVER]
        and cfg[C_EDITION] >= 2
        and not any_card_fits(st, cfg, b)
    ):
        end_round(st, cfg, b, 0)


@inline_kernel
def random_action(st, cfg, b, policy, p, scratch):
    """The random bot's choice, ``legal[rng.below(len(legal))]`` with generator
    ``policy[p]`` (``scratch``: room for the legal list)."""
    count = legal_list(st, cfg, b, scratch)
    return scratch[rng.below(policy, p, count)]


# --- batch loops ----------------------------------------------------------------------


@kernel
def new_games(st, cfg, games, seeds):
    for i in range(games.shape[0]):
        new_game(st, cfg, games[i], seeds[i])


@kernel
def legal_masks(st, cfg, out, scratch):
    """``out[b, code]`` = 1 where ``code`` is legal in game ``b``, else 0."""
    for b in range(out.shape[0]):
        for code in range(NUM_ACTIONS):
            out[b, code] = 0
        count = legal_list(st, cfg, b, scratch)
        for i in range(count):
            out[b, scratch[i]] = 1


@kernel
def legal_of(st, cfg, b, out):
    """The legal list of one game (see :func:`legal_list`)."""
    return legal_list(st, cfg, b, out)


@kernel
def first_illegal(st, cfg, games, actions):
    """Index ``i`` of the first game ``games[i]`` for which ``actions[i]`` is illegal
    (or that is over), or -1."""
    for i in range(games.shape[0]):
        if not is_legal(st, cfg, games[i], actions[i]):
            return i
    return -1


@kernel
def step_games(st, cfg, games, actions):
    """Apply ``actions[i]`` to game ``games[i]`` (checked legal by the caller)."""
    for i in range(games.shape[0]):
        apply(st, cfg, games[i], actions[i])


@kernel
def play_random(st, cfg, policy, scratch):
    """Play every game to its end with the random policy (game ``b`` drawing from
    ``policy[b]``); the number of moves played."""
    moves = 0
    ints = st[ST_INT]
    for b in range(ints.shape[0]):
        while not ints[b, F_OVER]:
            apply(st, cfg, b, random_action(st, cfg, b, policy, b, scratch))
            moves += 1
    return moves


def row_size(n: int) -> int:
    """Length of a :func:`write_row` row for ``n`` players."""
    return NF + 2 + 7 * n + CARDS * n + 2 * PILES * n + 2 * PILES


@kernel
def write_row(st, cfg, b, out):
    """Every field of game ``b`` but what lies under the piles' tops, as int64: the
    scalar fields, the generator's state as two 32-bit halves; per seat the hand size,
    stock size, stock top, score, last round's points, result score and partner; the
    hand counts; every discard pile's size and top; every building pile's size and top."""
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
        out[k] = st[ST_HSIZE][b, seat]
        out[k + n] = st[ST_SLEN][b, seat]
        out[k + 2 * n] = stock_top(st, b, seat)
        out[k + 3 * n] = st[ST_SCORE][b, seat]
        out[k + 4 * n] = st[ST_PTS][b, seat]
        out[k + 5 * n] = st[ST_FINAL][b, seat]
        out[k + 6 * n] = partner(cfg, seat)
        k += 1
    k += 6 * n
    for i in range(CARDS * n):
        out[k] = st[ST_HAND][b, i]
        k += 1
    for pile in range(PILES * n):
        out[k] = st[ST_DLEN][b, pile]
        out[k + PILES * n] = discard_top(st, b, pile)
        k += 1
    k += PILES * n
    for pile in range(PILES):
        length = st[ST_BLEN][b, pile]
        out[k] = length
        out[k + PILES] = st[ST_BUILD][b, pile, length - 1] if length else NO_CARD
        k += 1

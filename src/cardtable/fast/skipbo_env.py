"""Compiled kernels of the Skip-Bo vector environment: one learner seat a game, the
other seats played by compiled bots, observations and masks for every game.

The observation is the float32 vector of :func:`cardtable.encoders.skipbo_obs.skipbo_layout`,
written field by field in the same order (the tests require it to equal
``SkipBoEncoder.encode_state`` for every position of the same games); the mask is the
learner's legal actions (all 0 when another seat is to move or the game is over). Each
kernel that lists legal actions takes ``scratch``, room for 197 codes. The opponents
are the tournament bots (``random``, ``greedy``, ``hard``): every kernel that plays them
also takes ``hard``'s weights, work arrays and one-game copy
(:class:`cardtable.fast.skipbo_hard.HardWork`), or None for the three when no seat plays
``hard``, and ``frozen``, a learned policy's network (:mod:`cardtable.fast.frozen_policy`:
every such kernel takes its arrays, or None when no seat plays it).

Rewards: ``WIN``, ``SCORE`` (cardtable.rl.common) and ``STOCK``, the dense reward for
Skip-Bo self-play and training: each stock card the learner plays pays ``1 / stock
size``, each one another seat plays costs ``1 / ((players - 1) stock size)``; the card
that empties a stock ends the round and is paid by the win reward instead (``+1`` to the
round's or game's winners, ``-1`` to the others, as ``WIN``).

For the trainer: :func:`teacher_actions` gives ``hard``'s move in each learner seat (the
imitation term), :func:`hard_priors` ``hard``'s value of each of its legal moves (the
residual policy's prior, ``cardtable.bots.skipbo_hard_values``).
"""

from __future__ import annotations

from ..skipbo.moves import DISCARD_BASE, DISCARD_PLAY_BASE, END_TURN, NUM_ACTIONS, STOCK_BASE
from . import env_common as c
from . import frozen_policy as fp
from . import skipbo_hard as h
from . import skipbo_kernels as k
from .compiled import inline_kernel, kernel
from .skipbo_bots import HARD, TOURNAMENT_NAMES, bot_action, tournament_action

#: Scores are clipped to this, as in cardtable.encoders.skipbo_obs.
SCORE_HIGH = 1_000_000
#: Reward kinds and moments (cardtable.rl.common).
WIN, SCORE, STOCK = 0, 1, 2
AT_GAME, AT_ROUND = 0, 1
_ONE_HOT = k.CARDS + 1  # 0..12 and "empty"
_DEPTH = 2
#: The opponents of the env: the tournament bots, then a frozen learned policy.
OPPONENT_NAMES = (*TOURNAMENT_NAMES, "frozen")
FROZEN = OPPONENT_NAMES.index("frozen")


def observation_size(players: int) -> int:
    piles = players * k.PILES
    return (
        3 * players + k.CARDS + players * _ONE_HOT + piles * (1 + _ONE_HOT + _DEPTH)
        + k.PILES + 2 + k.CARDS + 2 * players + 3
    )  # fmt: skip


@inline_kernel
def encode(st, cfg, b, seat, out):
    """The observation of ``seat`` in game ``b`` into ``out`` (float32, zeroed here)."""
    ints = st[k.ST_INT]
    n = cfg[k.C_PLAYERS]
    for i in range(out.shape[0]):
        out[i] = 0.0
    if not ints[b, k.F_OVER]:
        out[(ints[b, k.F_CURRENT] - seat) % n] = 1.0
    o = n
    hand = o
    seen = o + k.CARDS + 2 * n + n * _ONE_HOT + n * k.PILES * (1 + _ONE_HOT + _DEPTH) + k.PILES + 2
    for card in range(k.CARDS):
        count = st[k.ST_HAND][b, seat * k.CARDS + card]
        out[hand + card] = count
        out[seen + card] += count
    o += k.CARDS
    for rel in range(n):
        owner = (seat + rel) % n
        out[o + rel] = st[k.ST_HSIZE][b, owner]
        out[o + n + rel] = st[k.ST_SLEN][b, owner]
        top = k.stock_top(st, b, owner)
        if top == k.NO_CARD:
            out[o + 2 * n + rel * _ONE_HOT + k.CARDS] = 1.0
        else:
            out[o + 2 * n + rel * _ONE_HOT + top] = 1.0
            out[seen + top] += 1.0
    o += 2 * n + n * _ONE_HOT
    piles = n * k.PILES
    sizes, tops, below = o, o + piles, o + piles + piles * _ONE_HOT
    discards = st[k.ST_DISC]
    for rel in range(n):
        owner = (seat + rel) % n
        for index in range(k.PILES):
            at = rel * k.PILES + index
            pile = owner * k.PILES + index
            length = st[k.ST_DLEN][b, pile]
            out[sizes + at] = length
            if length:
                out[tops + at * _ONE_HOT + discards[b, pile, length - 1]] = 1.0
            else:
                out[tops + at * _ONE_HOT + k.CARDS] = 1.0
            out[below + 2 * at] = discards[b, pile, length - 2] if length >= 2 else -1.0
            out[below + 2 * at + 1] = discards[b, pile, length - 3] if length >= 3 else -1.0
            for i in range(length):
                out[seen + discards[b, pile, i]] += 1.0
    o = below + piles * _DEPTH
    for pile in range(k.PILES):
        length = st[k.ST_BLEN][b, pile]
        out[o + pile] = length + 1
        for i in range(length):
            out[seen + st[k.ST_BUILD][b, pile, i]] += 1.0
    o += k.PILES
    out[o] = ints[b, k.F_DRAW_LEN]
    out[o + 1] = ints[b, k.F_DONE_LEN]
    o = seen + k.CARDS
    for rel in range(n):
        out[o + rel] = min(st[k.ST_SCORE][b, (seat + rel) % n], SCORE_HIGH)
    o += n
    mate = k.partner(cfg, seat)
    if mate != k.NO_SEAT:
        out[o + (mate - seat) % n] = 1.0
    o += n
    out[o] = cfg[k.C_ROUNDS]
    out[o + 1] = cfg[k.C_TEAMS]
    out[o + 2] = cfg[k.C_TO_PARTNER]


@inline_kernel
def learner_mask(st, cfg, b, seat, out, scratch):
    """The legal actions of ``seat`` in game ``b`` into ``out`` (int8), 0 if not to move."""
    ints = st[k.ST_INT]
    for code in range(NUM_ACTIONS):
        out[code] = 0
    if ints[b, k.F_OVER] or ints[b, k.F_CURRENT] != seat:
        return
    count = k.legal_list(st, cfg, b, scratch)
    for i in range(count):
        out[scratch[i]] = 1


@inline_kernel
def _win_loss(winners, n, seat):
    """+1 for a winner, -1 for another seat, 0 when nobody or everybody won."""
    if winners == 0 or winners == (1 << n) - 1:
        return 0.0
    return 1.0 if winners >> seat & 1 else -1.0


@inline_kernel
def _frozen_action(st, cfg, b, scratch, frozen):
    """The move of the frozen policy (:mod:`.frozen_policy`, row ``b`` modulo the
    pool's size) in game ``b``: the legal move with the highest logit for the mover's
    own observation (what its seat sees, as the learner's encoder shows it)."""
    mover = st[k.ST_INT][b, k.F_CURRENT]
    encode(st, cfg, b, mover, frozen[2])
    scores = frozen[3][fp.evaluate(frozen, b % frozen[0].shape[0])]
    count = k.legal_list(st, cfg, b, scratch)
    best = -1
    best_value = 0.0
    for i in range(count):
        code = scratch[i]
        if fp.better(scores[code], code, best_value, best):
            best = code
            best_value = scores[code]
    return best


@inline_kernel
def _opponent_action(bot, st, cfg, b, policy, scratch, params, work, copy, frozen):
    """The move of opponent ``bot``. Without ``hard`` among the opponents ``params``,
    ``work`` and ``copy`` are None, without a frozen policy ``frozen`` is, and numba
    prunes those branches before typing them: the envs that never meet ``hard`` compile
    without it (its code would triple the compile time), those without ``frozen``
    without the network."""
    if frozen is not None and bot == FROZEN:
        return _frozen_action(st, cfg, b, scratch, frozen)
    if params is None:
        return bot_action(bot, st, cfg, b, policy, b, scratch)
    return tournament_action(bot, st, cfg, b, policy, b, scratch, params, work, copy)


@inline_kernel
def play_bots(st, cfg, policy, kinds, b, seat, kind, scratch, params, work, copy, frozen):
    """The bots (``kinds[b, s]``: the bot code of seat ``s``, all drawing from the game's
    one generator ``policy[b]``, as the single-agent env's bots share ``bot_rng``) move
    until ``seat`` is to move or the game is over. The learner's rewards of ``kind``:
    for the rounds they finished (each move ends at most one round), and ``STOCK``'s
    cost of their stock cards."""
    ints = st[k.ST_INT]
    rounds = 0.0
    dense = 0.0
    while not ints[b, k.F_OVER] and ints[b, k.F_CURRENT] != seat:
        mover = ints[b, k.F_CURRENT]
        bot = kinds[b, mover]
        before = ints[b, k.F_ROUNDS_DONE]
        stock = st[k.ST_SLEN][b, mover]
        action = _opponent_action(bot, st, cfg, b, policy, scratch, params, work, copy, frozen)
        k.apply(st, cfg, b, action)
        if ints[b, k.F_ROUNDS_DONE] != before:
            rounds += _round_reward(st, cfg, b, seat, kind)
        elif kind == STOCK and st[k.ST_SLEN][b, mover] < stock:
            dense -= 1.0 / ((cfg[k.C_PLAYERS] - 1) * cfg[k.C_STOCK])
    return rounds, dense


@inline_kernel
def _round_reward(st, cfg, b, seat, kind):
    if kind == SCORE:
        return float(st[k.ST_PTS][b, seat])
    return _win_loss(st[k.ST_INT][b, k.F_ROUND_WINNERS], cfg[k.C_PLAYERS], seat)


@kernel
def legal_for(st, cfg, games, actions, out):
    """``out[i]``: whether ``actions[i]`` is legal in game ``games[i]``."""
    for i in range(games.shape[0]):
        out[i] = k.is_legal(st, cfg, games[i], actions[i])


@inline_kernel
def _deal(st, cfg, ev, conf, b, scratch, params, work, copy, frozen):
    """Env ``b``'s next game, dealt from its stream as the single-agent env's ``deal``
    does: the bots play up to the learner (what they earn is paid to nobody; a deal
    they finish is replaced by the next one). The learner's seat."""
    seat = c.begin_deal(ev, conf, b, cfg[k.C_PLAYERS])
    while True:
        k.new_game(st, cfg, b, c.game_seed(ev, b))
        policy, kinds = ev[c.E_POLICY], ev[c.E_KINDS]
        play_bots(st, cfg, policy, kinds, b, seat, WIN, scratch, params, work, copy, frozen)
        if not st[k.ST_INT][b, k.F_OVER]:
            return seat


@inline_kernel
def _observe(st, cfg, b, seat, observations, masks, scratch):
    encode(st, cfg, b, seat, observations[b])
    learner_mask(st, cfg, b, seat, masks[b], scratch)


@kernel
def deal_envs(st, cfg, ev, conf, games, out, scratch, params, work, copy, frozen):
    """``reset``: deal each listed env's next game; its observation and mask."""
    for i in range(games.shape[0]):
        b = games[i]
        seat = _deal(st, cfg, ev, conf, b, scratch, params, work, copy, frozen)
        ev[c.E_STATE][b] = c.PLAYING
        _observe(st, cfg, b, seat, out[c.O_OBS], out[c.O_MASK], scratch)


@inline_kernel
def _ends(st, cfg, b, ends):
    """The result of finished game ``b``: the final scores, then the winners' seat mask."""
    n = cfg[k.C_PLAYERS]
    for seat in range(n):
        ends[b, seat] = st[k.ST_FINAL][b, seat]
    ends[b, n] = st[k.ST_INT][b, k.F_WINNERS]


@inline_kernel
def _learner_move(st, cfg, ev, b, seat, action, kind, at, scratch, params, work, copy, frozen):
    """The learner's legal ``action``, the bots' replies; the learner's reward."""
    ints = st[k.ST_INT]
    before = ints[b, k.F_ROUNDS_DONE]
    stock = st[k.ST_SLEN][b, seat]
    k.apply(st, cfg, b, action)
    rounds = 0.0
    dense = 0.0
    if ints[b, k.F_ROUNDS_DONE] != before:
        rounds = _round_reward(st, cfg, b, seat, kind)
    elif kind == STOCK and st[k.ST_SLEN][b, seat] < stock:
        dense = 1.0 / cfg[k.C_STOCK]
    policy, kinds = ev[c.E_POLICY], ev[c.E_KINDS]
    more, cost = play_bots(
        st, cfg, policy, kinds, b, seat, kind, scratch, params, work, copy, frozen
    )
    rounds += more
    dense += cost
    if at == AT_ROUND:
        return rounds + dense
    if not ints[b, k.F_OVER]:
        return dense
    if kind == SCORE:
        return float(st[k.ST_FINAL][b, seat])
    return _win_loss(ints[b, k.F_WINNERS], cfg[k.C_PLAYERS], seat) + dense


@kernel
def step_envs(st, cfg, ev, conf, penalty, actions, out, scratch, params, work, copy, frozen):
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
            seat = _deal(st, cfg, ev, conf, b, scratch, params, work, copy, frozen)
            state[b] = c.PLAYING
            c.quiet(out, b)
        else:
            action = actions[b]
            reward = penalty
            illegal = not k.is_legal(st, cfg, b, action)
            if not illegal:
                reward = _learner_move(
                    st, cfg, ev, b, seat, action, kind, at, scratch, params, work, copy, frozen
                )
            else:
                status |= c.ILLEGAL
            over = ints[b, k.F_OVER] != 0
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
                    final_obs, final_masks = out[c.O_FINAL_OBS], out[c.O_FINAL_MASK]
                    _observe(st, cfg, b, seat, final_obs, final_masks, scratch)
                    seat = _deal(st, cfg, ev, conf, b, scratch, params, work, copy, frozen)
        _observe(st, cfg, b, seat, observations, masks, scratch)
    return status


@kernel
def teacher_actions(st, cfg, ev, rngs, out, scratch, params, work, copy):
    """``out[b]``: the move ``hard`` (weights ``params``) would play in env ``b``'s
    learner seat now, or -1 where that seat is not to move (``hard`` draws nothing
    from ``rngs``; it is taken for the shape of the Skyjo kernel)."""
    ints = st[k.ST_INT]
    seats = ev[c.E_SEATS]
    for b in range(out.shape[0]):
        if not ints[b, k.F_OVER] and ints[b, k.F_CURRENT] == seats[b]:
            out[b] = tournament_action(HARD, st, cfg, b, rngs, b, scratch, params, work, copy)
        else:
            out[b] = -1


@inline_kernel
def _play_slot(st, b, action):
    """The ``best`` slot of a play's first step (``skipbo_hard_values.play_step``), or
    -1 for a play from a partner's pile, which the planner never makes."""
    if action < STOCK_BASE:
        source, pile = -2 - action // 4, action % 4
    elif action < STOCK_BASE + k.PILES:
        source, pile = h.STOCK_SOURCE, action - STOCK_BASE
    elif action < DISCARD_PLAY_BASE:
        return -1
    elif action < DISCARD_PLAY_BASE + 16:
        source, pile = (action - DISCARD_PLAY_BASE) // 4 + 1, (action - DISCARD_PLAY_BASE) % 4
    else:
        return -1
    return h.per_first_slot(source, st[k.ST_BLEN][b, pile] + 1)


@inline_kernel
def _values_of_moves(st, cfg, b, seat, count, scratch, values, shape, params, work):
    """``move_values`` (``cardtable.bots.skipbo_hard_values``) of the first ``count``
    legal moves in ``scratch`` into ``values`` (``-1e18``: no value); the highest."""
    w, best = work[0], work[1]
    w[h.W_PER_FIRST] = 1
    h.search(st, cfg, b, seat, params, work)
    w[h.W_PER_FIRST] = 0
    stop = best[h.per_first_slot(h.NO_SOURCE, 0)]
    stock, empties, numbers = h.discard_context(st, b, seat)
    top = -1e18
    for i in range(count):
        action = scratch[i]
        values[action] = -1e18
        if DISCARD_BASE <= action < DISCARD_BASE + k.CARDS * k.PILES:  # onto an own pile
            card, index = (action - DISCARD_BASE) // 4, (action - DISCARD_BASE) % 4
            if h.discard_considered(st, b, seat, card, numbers):
                values[action] = h.discard_score(st, b, seat, card, index, stock, empties)
                top = max(top, values[action])
    high = -1e18
    for i in range(count):
        action = scratch[i]
        if action < DISCARD_BASE:
            slot = _play_slot(st, b, action)
            if slot >= 0:
                values[action] = best[slot]
        elif action == END_TURN:
            values[action] = stop
        elif values[action] != -1e18:
            values[action] = stop - shape[0] * (top - values[action])
        high = max(high, values[action])
    return high


@kernel
def hard_priors(st, cfg, ev, out, values, shape, scratch, params, work, copy):
    """``out[b]`` (float32): ``prior_row`` (``cardtable.bots.skipbo_hard_values``) of
    env ``b``'s learner seat: ``value - best`` of ``hard``'s value of each legal move,
    never below ``-shape[1]`` (the floor, also where a legal move has no value), 0 for
    the other codes; a row of 0 where the learner is not to move, has a single legal
    move or a partner's stock top to play, or the table is frozen. ``shape[0]``: the
    weight of a discard score; ``values``: a float64 scratch row of one entry per code;
    the rest as :func:`cardtable.fast.skipbo_hard.hard_action`."""
    ints = st[k.ST_INT]
    seats = ev[c.E_SEATS]
    floor = shape[1]
    for b in range(out.shape[0]):
        for code in range(NUM_ACTIONS):
            out[b, code] = 0.0
        if ints[b, k.F_OVER] or ints[b, k.F_CURRENT] != seats[b]:
            continue
        count = k.legal_list(st, cfg, b, scratch)
        if count < 2 or h.is_frozen(st, cfg, b):
            continue
        partner = False
        for i in range(count):
            if STOCK_BASE + 4 <= scratch[i] < DISCARD_PLAY_BASE:
                partner = True
        if partner:
            continue
        high = _values_of_moves(st, cfg, b, seats[b], count, scratch, values, shape, params, work)
        for i in range(count):
            action = scratch[i]
            out[b, action] = max(values[action] - high, -floor)

"""The game-independent parts of the vector env's step kernels (``skyjo_env``,
``skipbo_env``): the layout of the tuples they take, and the draws of a new deal.

A step of every env is one kernel call; it takes

- ``ev``, the envs' arrays (``E_*``): the bots' generator of each game, the bot code
  of each seat, the learner's seat, the opponents' bot codes in seat order, each env's
  ``np_random`` as a :mod:`cardtable.fast.pcg64` row, its step count and its
  :data:`PLAYING` / :data:`RESET_DUE` / :data:`ENDED` state;
- ``conf``, int64 options (``K_*``): the fixed seat (-1: drawn at each deal),
  ``max_steps`` (0: none), the autoreset mode (``MODE_*``), the reward kind and moment;
- ``out``, the arrays it writes (``O_*``): rewards, terminated, truncated and illegal
  flags, observations, masks, and for the envs that ended this step their last
  observation and mask (``SAME_STEP``) and result (``ENDS``: the scores, then the
  winners as a seat bit mask);

and returns a status of ``DONE`` (some episode terminated or was truncated),
``ILLEGAL`` and ``TERMINATED`` bits, so that the Python side builds the infos of ended
episodes and illegal actions only when there are some.
"""

from __future__ import annotations

import numpy as np

from . import pcg64
from .compiled import inline_kernel

E_POLICY, E_KINDS, E_SEATS, E_OPPONENTS, E_STREAMS, E_STEPS, E_STATE = range(7)
PLAYING, RESET_DUE, ENDED = 0, 1, 2
K_SEAT, K_MAX_STEPS, K_MODE, K_REWARD, K_AT = range(5)
NK = 5
MODE_NEXT_STEP, MODE_SAME_STEP, MODE_DISABLED = 0, 1, 2
O_REWARD, O_TERMINATED, O_TRUNCATED, O_ILLEGAL, O_OBS, O_MASK = range(6)
O_FINAL_OBS, O_FINAL_MASK, O_ENDS = 6, 7, 8
DONE, ILLEGAL, TERMINATED = 1, 2, 4


@inline_kernel
def begin_deal(ev, conf, b, players):
    """The draws the single-agent env's ``deal`` makes before the game's seed: the
    learner's seat (``integers(players)``) unless it is fixed, then the bots' seed
    (``integers(2**63)``); the other seats get the opponents in seat order. The seat."""
    seats, kinds, opponents = ev[E_SEATS], ev[E_KINDS], ev[E_OPPONENTS]
    if conf[K_SEAT] < 0:
        seats[b] = pcg64.integers_small(ev[E_STREAMS], b, players)
    seat = seats[b]
    other = 0
    for s in range(players):
        if s != seat:
            kinds[b, s] = opponents[other]
            other += 1
    ev[E_POLICY][b] = np.uint64(pcg64.integers_2_63(ev[E_STREAMS], b))
    ev[E_STEPS][b] = 0
    return seat


@inline_kernel
def game_seed(ev, b):
    """The next game's seed from env ``b``'s stream (``integers(2**63)``)."""
    return np.uint64(pcg64.integers_2_63(ev[E_STREAMS], b))


@inline_kernel
def finish(ev, conf, out, b, reward, illegal, over):
    """Count env ``b``'s step and write its reward and flags; whether it ended."""
    steps = ev[E_STEPS]
    steps[b] += 1
    limit = conf[K_MAX_STEPS]
    truncated = not over and limit > 0 and steps[b] >= limit
    out[O_REWARD][b] = reward
    out[O_TERMINATED][b] = over
    out[O_TRUNCATED][b] = truncated
    out[O_ILLEGAL][b] = illegal
    return over or truncated


@inline_kernel
def quiet(out, b):
    """Env ``b`` did not act (it was dealt a new game): reward 0, no flags."""
    out[O_REWARD][b] = 0.0
    out[O_TERMINATED][b] = False
    out[O_TRUNCATED][b] = False
    out[O_ILLEGAL][b] = False

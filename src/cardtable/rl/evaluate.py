"""A learned policy's strength on the compiled vector env: the same deals every time.

:func:`evaluate` plays ``games`` games (one per env of a fast vector env reset with
one fixed seed, so two evaluations of two policies meet exactly the same deals, seats
and opponents' draws as far as their own moves leave them equal) with the policy's
best legal move (what the ``learned`` bot plays, evaluated with numpy), and reports
the learner's win rate and points per round against the opponents'. It is the
trainer's periodic check; the published figures come from ``cardtable sim`` with
paired deals (docs/bots.md).

Weights with a prior (``prior == "hard"``) are given the env's
``hard_priors()`` at every step, as the ``learned`` bot computes them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..bots.learned_net import PolicyWeights
from .gym_env import make_vector_env


@dataclass(frozen=True)
class Evaluation:
    games: int
    wins: float  # a game shared by several winners counts 1 / (number of winners)
    learner_points: float  # per round (Skyjo) or per game (Skip-Bo)
    opponent_points: float  # the opponents' mean, per round or per game

    @property
    def win_rate(self) -> float:
        return self.wins / self.games


def evaluate(
    weights: PolicyWeights,
    game: str,
    rules: dict[str, Any],
    opponents: str | Sequence[str],
    *,
    games: int,
    seed: int,
    sample_seed: int | None = None,
) -> Evaluation:
    """Play ``games`` whole games of ``weights`` against ``opponents`` (fast engine):
    the best legal move, or with ``sample_seed`` a move drawn from the policy's
    softmax over the legal moves (what the learner plays while training; uniform for
    an untrained network, whose logits are nearly equal)."""
    if weights.prior and weights.prior != "hard":
        raise ValueError(f"prior {weights.prior!r}: only the 'hard' prior can be evaluated")
    sampler = None if sample_seed is None else np.random.default_rng(sample_seed)
    env: Any = make_vector_env(
        game, games, engine="fast", rules=rules, opponents=opponents, seat=None
    )
    obs, infos = env.reset(seed=seed)
    masks = infos["action_mask"]
    players = env.num_players
    done = np.zeros(games, dtype=np.bool_)
    wins = 0.0
    learner = 0.0
    others = 0.0
    rounds = 0
    while not done.all():
        priors = env.hard_priors() if weights.prior else None
        logits = np.where(masks.astype(bool), weights.logits(obs, priors), -np.inf)
        if sampler is not None:  # Gumbel noise: argmax draws from the softmax
            logits = logits - np.log(-np.log(sampler.random(logits.shape)))
        actions = np.argmax(logits, axis=1)
        seats = env.seats.copy()
        obs, _, terminated, truncated, infos = env.step(actions)
        masks = infos["action_mask"]
        for b in np.flatnonzero((terminated | truncated) & ~done).tolist():
            done[b] = True
            if not terminated[b]:
                continue
            scores = infos["scores"][b]
            winners = infos["winners"][b]
            seat = int(seats[b])
            if seat in winners:
                wins += 1.0 / len(winners)
            played = _rounds(env, b) if game == "skyjo" else 1
            rounds += played
            learner += scores[seat]
            others += (sum(scores) - scores[seat]) / (players - 1)
    rounds = max(rounds, 1)
    return Evaluation(games, wins, learner / rounds, others / rounds)


def _rounds(env: Any, b: int) -> int:
    from ..fast import skyjo_kernels as k

    return int(env.batch.st[k.ST_INT][b, k.F_ROUNDS_DONE])

"""Gymnasium's door to cardtable: importing this module registers the ids
``cardtable/Skyjo-v0`` and ``cardtable/SkipBo-v0``; :func:`gym_env` builds one env and
:func:`make_vector_env` N of them stepped together.

The env, one learner's seat against bots, is
:class:`cardtable.rl.learner.CardtableGymEnv` (``SkyjoGymEnv``, ``SkipBoGymEnv``; known by
this module's names too); the vector envs are :mod:`cardtable.rl.vector` and
:mod:`cardtable.rl.fast_vector`. This module stands above the three, so that none of them
imports it.
"""

from __future__ import annotations

import functools
from typing import Any

import gymnasium

from .learner import SEED_BOUND, CardtableGymEnv, SkipBoGymEnv, SkyjoGymEnv
from .vector import CardtableVectorEnv

# The env's names as this module has always offered them (the registry's entry points,
# the examples, docs/rl.md).
__all__ = [
    "GYM_IDS",
    "SEED_BOUND",
    "CardtableGymEnv",
    "SkipBoGymEnv",
    "SkyjoGymEnv",
    "gym_env",
    "make_vector_env",
    "register_envs",
]


GYM_IDS = {"skyjo": "cardtable/Skyjo-v0", "skipbo": "cardtable/SkipBo-v0"}


def register_envs() -> None:
    """Register ``cardtable/Skyjo-v0`` and ``cardtable/SkipBo-v0`` with Gymnasium (idempotent).

    ``gymnasium.make_vec(id, num_envs=N)`` then builds a :class:`CardtableVectorEnv`
    (``vectorization_mode="sync"`` gives Gymnasium's ``SyncVectorEnv``).
    """
    entry = {"skyjo": "Skyjo", "skipbo": "SkipBo"}
    for game_name, env_id in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point=f"cardtable.rl.gym_env:{entry[game_name]}GymEnv",
                vector_entry_point=f"cardtable.rl.vector:{entry[game_name]}VectorEnv",
            )


register_envs()


def gym_env(game_name: str, **kwargs: Any) -> CardtableGymEnv:
    """``gym_env("skyjo", rules={"players": 2}, opponents="greedy")``."""
    if game_name not in GYM_IDS:
        raise KeyError(f"unknown game {game_name!r}; known: {', '.join(GYM_IDS)}")
    return CardtableGymEnv(game_name, **kwargs)


def make_vector_env(
    game_name: str, num_envs: int, *, sync: bool = False, engine: str = "reference", **kwargs: Any
) -> gymnasium.vector.VectorEnv:
    """``num_envs`` copies of the single-agent env stepped together (Gymnasium vector API).

    By default a :class:`cardtable.rl.vector.CardtableVectorEnv`, which steps the envs
    in one loop into batched arrays (``autoreset_mode=`` NEXT_STEP by default, SAME_STEP
    or DISABLED); ``sync=True`` gives Gymnasium's own ``SyncVectorEnv`` of the same envs
    (it returns the same arrays, more slowly; ``autoreset_mode`` is passed to it too).
    Masks come batched in ``infos["action_mask"]`` (shape ``(num_envs, num_actions)``);
    ``reset(seed=s)`` seeds env ``i`` with ``s + i``.

    ``engine="fast"`` (extra ``fast``) gives a
    :class:`cardtable.rl.fast_vector.SkyjoFastVectorEnv` or ``SkipBoFastVectorEnv``: the
    same arrays for the same seeds and actions, every game on the compiled batch engine
    (opponents ``random`` by default, or ``greedy``).
    """
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
        raise ValueError(f"num_envs must be at least 1, got {num_envs!r}")
    if engine not in ("reference", "fast"):
        raise ValueError(f"engine must be 'reference' or 'fast', got {engine!r}")
    if engine == "fast":
        if game_name not in ("skyjo", "skipbo") or sync:
            raise ValueError("engine='fast' is a batch engine's vector env (no sync)")
        from .fast_vector import SkipBoFastVectorEnv, SkyjoFastVectorEnv

        kind = SkyjoFastVectorEnv if game_name == "skyjo" else SkipBoFastVectorEnv
        return kind(num_envs, **kwargs)
    if sync:
        vector_options = {}
        if "autoreset_mode" in kwargs:
            vector_options["autoreset_mode"] = kwargs.pop("autoreset_mode")
        factory = functools.partial(gym_env, game_name, **kwargs)
        return gymnasium.vector.SyncVectorEnv([factory] * num_envs, **vector_options)
    return CardtableVectorEnv(game_name, num_envs, **kwargs)

"""Reinforcement-learning adapters (extra ``rl``: numpy, gymnasium, pettingzoo).

- :mod:`cardtable.rl.aec`: PettingZoo AEC envs ``SkyjoAECEnv``, ``SkipBoAECEnv``, ``aec_env``;
- :mod:`cardtable.rl.gym_env`: Gymnasium envs ``SkyjoGymEnv``, ``SkipBoGymEnv``, ``gym_env``,
  ``make_vector_env`` and the ids ``cardtable/Skyjo-v0``, ``cardtable/SkipBo-v0``, over
  :mod:`cardtable.rl.learner` (the single-agent env), :mod:`cardtable.rl.vector` and
  :mod:`cardtable.rl.fast_vector` (the vector envs), which import in that order;
- :mod:`cardtable.rl.skyjo_obs`, :mod:`cardtable.rl.skipbo_obs`: the observation encoders.

Nothing here is imported by the rest of cardtable except :mod:`cardtable.rl.bench`'s
argument parser, so this package imports numpy, gymnasium and pettingzoo only in
the submodules that need them. See docs/rl.md.
"""

"""Reinforcement-learning adapters (extra ``rl``: numpy, gymnasium, pettingzoo).

- :mod:`cardtable.rl.aec`: PettingZoo AEC envs ``SkyjoAECEnv``, ``SkipBoAECEnv``, ``aec_env``;
- :mod:`cardtable.rl.gym_env`: Gymnasium envs ``SkyjoGymEnv``, ``SkipBoGymEnv``, ``gym_env``,
  ``make_vector_env`` and the ids ``cardtable/Skyjo-v0``, ``cardtable/SkipBo-v0``, over
  :mod:`cardtable.rl.learner` (the single-agent env), :mod:`cardtable.rl.vector` and
  :mod:`cardtable.rl.fast_vector` (the vector envs), which import in that order;
- :mod:`cardtable.rl.skyjo_obs`, :mod:`cardtable.rl.skipbo_obs`: the observation encoders.

Nothing of cardtable imports this package but the environments' benchmark
(:mod:`cardtable.bench.rl_envs`, inside its functions), so it imports numpy, gymnasium
and pettingzoo only in the submodules that need them. See docs/rl.md.
"""

"""Reinforcement-learning adapters (extra ``rl``: numpy, gymnasium, pettingzoo).

- :mod:`cardtable.rl.aec`: PettingZoo AEC envs ``SkyjoAECEnv``, ``SkipBoAECEnv``, ``aec_env``;
- :mod:`cardtable.rl.gym_env`: Gymnasium envs ``SkyjoGymEnv``, ``SkipBoGymEnv``, ``gym_env``,
  ``make_vector_env`` and the ids ``cardtable/Skyjo-v0``, ``cardtable/SkipBo-v0``, over
  :mod:`cardtable.rl.learner` (the single-agent env), :mod:`cardtable.rl.vector` and
  :mod:`cardtable.rl.fast_vector` (the vector envs), which import in that order;
- :mod:`cardtable.rl.train` (extra ``train``): masked PPO on the compiled vector envs,
  the ``learned`` bots' trainer (:mod:`cardtable.rl.policy_net`, :mod:`cardtable.rl.evaluate`).

The observation encoders are :mod:`cardtable.encoders` (the ``learned`` bots use them too).

Nothing of cardtable imports this package but the environments' benchmark
(:mod:`cardtable.bench.rl_envs`, inside its functions), so it imports numpy, gymnasium
and pettingzoo only in the submodules that need them. See docs/rl.md.
"""

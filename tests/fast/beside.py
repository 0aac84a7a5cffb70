"""The compiled vector env stepped beside the reference one: the prior tests compare
what ``hard_priors`` reads off each game with the Python bots on the same game."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from cardtable.rl.gym_env import make_vector_env


def prior_rows_beside(
    game: str,
    options: dict[str, Any],
    steps: int,
    pick: Callable[[Any, Any], Any],
    *,
    envs: int = 6,
    seed: int = 5,
) -> Iterator[tuple[Any, Any, Any, Any]]:
    """``(fast env, reference games, masks, prior rows)`` at each of ``steps`` steps of
    ``envs`` games dealt alike in both envs; ``pick(fast, masks)`` gives the actions both
    envs then play. Asking for the rows is checked to change no game."""
    fast = make_vector_env(game, envs, engine="fast", autoreset_mode="SameStep", **options)
    reference = make_vector_env(game, envs, autoreset_mode="SameStep", **options)
    _, infos = fast.reset(seed=seed)
    reference.reset(seed=seed)
    for _ in range(steps):
        masks = infos["action_mask"]
        before = [array.copy() for array in fast.batch.st]
        priors = fast.hard_priors()
        assert all(np.array_equal(a, b) for a, b in zip(before, fast.batch.st, strict=True))
        yield fast, [env.game_state for env in reference.envs], masks, priors
        actions = pick(fast, masks)
        _, _, _, _, infos = fast.step(actions)
        reference.step(actions)

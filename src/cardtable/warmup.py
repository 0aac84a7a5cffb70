"""``cardtable fast warm``: compile every kernel of the compiled engines ahead of use.

numba compiles a kernel the first time it is called with new argument types and then
keeps its machine code in the cache of :mod:`cardtable.fast.compiled`. This plays a
few tiny games through every path that compiles one (the batch engines' random play,
every compiled bot's tournament games, the reinforcement-learning vector envs, the
cross-checks against the reference engines and the coach's judge) with the very
argument types those paths use, so that later processes (the test suite's workers, a
benchmark, a training run) load everything from the cache. Each game is warmed in its
own process, up to ``jobs`` at once, as the two games share almost no kernel.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

#: The games with compiled engines, in the order they are warmed.
WARM_GAMES = ("skyjo", "skipbo")


@dataclass(frozen=True)
class WarmResult:
    game: str
    seconds: float  # wall time of the game's process
    cpu_seconds: float


def _warm_batch_and_bots(game_name: str) -> None:
    from .fast.engines import POLICY_SALT, batch_engine
    from .games import get_game
    from .sim.fast_tournament import fast_bot_names, run_fast_tournament

    game = get_game(game_name)
    rules = game.rules_from_json({})
    engine = batch_engine(game_name, rules, 2)
    engine.reset(range(2))
    engine.step(engine.legal_mask().argmax(axis=1))  # each game's first legal action
    engine.legal_actions(0)
    engine.play_random([seed ^ POLICY_SALT for seed in range(2)])
    # Every compiled bot's tournament games and their records (as sim, ladder and bench).
    for name in fast_bot_names(game_name):
        run_fast_tournament(game, rules, [name], rules.players, 0, paired=True)  # type: ignore[attr-defined]


def _any_policy(game_name: str) -> Any:
    """A network of the trainer's shape for the default rules (the kernels compile the
    same for any weights and layer widths)."""
    from .bots.learned_net import blank_weights
    from .encoders import skipbo_obs, skyjo_obs
    from .fast import skipbo_env, skyjo_env
    from .games import get_game

    game = get_game(game_name)
    players = game.rules_from_json({}).players  # type: ignore[attr-defined]
    if game_name == "skyjo":
        size, version = skyjo_env.observation_size(players), skyjo_obs.ENCODER_VERSION
    else:
        size, version = skipbo_env.observation_size(players), skipbo_obs.ENCODER_VERSION
    widths = [size, 256, 256, game.num_actions]
    return blank_weights(game_name, players, version, widths)


def _warm_vector_envs(game_name: str) -> None:
    import numpy as np

    from .rl.gym_env import make_vector_env

    # Against hard the kernels are compiled with it (the trainer's envs), else without;
    # likewise Skyjo's with a frozen policy's network (the trainer's self-play league;
    # Skip-Bo's, 23 s of CPU, only its crosscheck test and league runs compile).
    cases = [("penalty", "greedy"), ("raise", "greedy"), ("penalty", "hard")]
    if game_name == "skyjo":
        cases.append(("penalty", "frozen"))
    for illegal, opponents in cases:
        options = {"frozen": _any_policy(game_name)} if opponents == "frozen" else {}
        envs = make_vector_env(
            game_name, 2, engine="fast", opponents=opponents, illegal=illegal, **options
        )
        _, infos = envs.reset(seed=0)
        rng = np.random.default_rng(0)
        for _ in range(4):
            masks = infos["action_mask"]
            actions = (rng.random(masks.shape) * masks).argmax(axis=1)
            *_, infos = envs.step(actions)
        envs.close()


def _warm_cross_checks(game_name: str) -> None:
    from .games import get_game

    rules = get_game(game_name).rules_from_json({})
    # One traced kernel plays every bot (the bot is an argument), so random covers them.
    if game_name == "skyjo":
        from .fast import skyjo_check

        skyjo_check.cross_check(rules, range(1))  # type: ignore[arg-type]
    else:
        from .fast import skipbo_check

        skipbo_check.cross_check(rules, range(1))  # type: ignore[arg-type]


def _warm_judge(game_name: str) -> None:
    """The coach's judge (:mod:`cardtable.sim.judge`): one verdict on a move of a seeded
    game compiles its rollouts, re-deals and ``hard``'s values."""
    from .bots import make_bot
    from .bots.review import has_choice
    from .core import Rng
    from .games import get_game
    from .sim.judge import judge_position

    game = get_game(game_name)
    state = game.new_state(game.rules_from_json({}), 0)
    bot, rng = make_bot(game_name, "greedy"), Rng(0)
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        action = bot.choose(state, rng)
        if has_choice(state, seat):
            judge_position(state, seat, action, 0)
            return
        state.apply_action(action)


#: What is warmed for a game, in order.
_PARTS: tuple[Callable[[str], None], ...] = (
    _warm_batch_and_bots,
    _warm_vector_envs,
    _warm_cross_checks,
    _warm_judge,
)


def warm_game(game_name: str) -> WarmResult:
    """Compile (or load) every kernel of ``game_name``'s compiled engine."""
    wall, cpu = time.perf_counter(), time.process_time()
    for part in _PARTS:
        part(game_name)
    return WarmResult(game_name, time.perf_counter() - wall, time.process_time() - cpu)


def warm(
    games: Sequence[str] = WARM_GAMES,
    jobs: int | None = None,
    done: Callable[[WarmResult], None] | None = None,
) -> list[WarmResult]:
    """Warm ``games``, ``jobs`` processes at once (default: one per game, at most one
    per core); ``done`` is told of each game as it ends."""
    unknown = sorted(set(games) - set(WARM_GAMES))
    if unknown:
        raise ValueError(f"no compiled engine for {', '.join(unknown)} (games: skyjo, skipbo)")
    if jobs is None:
        jobs = min(len(games), os.cpu_count() or 1)
    results: list[WarmResult] = []
    if jobs <= 1:
        for game_name in games:
            results.append(warm_game(game_name))
            if done is not None:
                done(results[-1])
        return results
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for result in pool.map(warm_game, games):
            results.append(result)
            if done is not None:
                done(result)
    return results

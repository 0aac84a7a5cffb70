"""Screen Skyjo ``expert`` settings one decision at a time, judged by the true deal.

    python -m lab skyjo_decision_screen --positions 400 \
        --variant base: --variant hard-rollouts:rollout=1,iterations=8

Positions come from seeded four-``hard`` games (game ``g`` dealt from
``game_seed(seed, g)``): every ``--every``-th decision after the set-up where
``hard`` has more than one option. Each variant (``NAME:key=value,...``, keys as in
``lab/skyjo_expert_experiments.py``: ``iterations``, ``width``, ``z``,
``objective``, ``late``, ``rollout``; ``objective`` is 0, the round, unless given)
chooses a move there, seeing only what its seat
sees. Each move is then judged on the *true* state (the real face-down cards and
draw order): it is applied and every seat plays ``hard`` to the end of the round,
which with the real cards is exact. The judged value is the seat's round points
minus the others' average, negated (higher is better). A variant's gain at a
position is the judged value of its move minus that of ``hard``'s move; every
variant is judged on the same positions (paired differences are printed too).

``best-of-N`` is the headroom: at each position, the best judged value among
``hard``'s N best options (a choice no fair bot can make, since it reads the
real cards). This is a screen for settings, not a measure of strength: the
tournament decides.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from multiprocessing import Pool
from typing import Any

from cardtable.bots.montecarlo import ROLLOUT_MOVE_LIMIT
from cardtable.bots.skyjo_expert import skyjo_outcome, skyjo_round_over
from cardtable.bots.skyjo_hard import HardBot
from cardtable.core import Rng
from cardtable.games import get_game
from cardtable.sim.tournament import game_seed
from cardtable.skyjo.state import SETUP, SkyjoState

from .skyjo_expert_experiments import variant as make_variant

Variant = tuple[str, dict[str, float]]


def parse_variant(text: str) -> Variant:
    name, _, rest = text.partition(":")
    params = {k: float(v) for k, _, v in (p.partition("=") for p in rest.split(",") if p)}
    params.setdefault("objective", 0.0)
    return name, params


def judge(state: SkyjoState, action: int) -> float:
    """The move's value on the true state: the rest of the round played by ``hard``."""
    copy = state.clone()
    copy.advance(action)
    policy = HardBot()
    rng = Rng(0)
    moves = 0
    while not skyjo_round_over(state, copy) and moves < ROLLOUT_MOVE_LIMIT:
        copy.advance(policy.choose(copy, rng))
        moves += 1
    return skyjo_outcome(state, copy, state.player)[0]


def positions(seed: int, game_index: int, every: int) -> list[SkyjoState]:
    game = get_game("skyjo")
    state = game.new_state(game.rules_from_json({"players": 4}), game_seed(seed, game_index))
    assert isinstance(state, SkyjoState)
    hard = HardBot()
    found: list[SkyjoState] = []
    count = 0
    while state.current_player is not None:
        if state.phase != SETUP and len(state.legal_actions()) > 1:
            if count % every == 0:
                found.append(state.clone())
            count += 1
        state.advance(hard.choose(state, Rng(0)))
    return found


def screen(job: tuple[SkyjoState, list[Variant], int, int]) -> tuple[list[float], list[float]]:
    """Each variant's gain over ``hard`` (then the best-of-N headroom) and CPU seconds."""
    state, variants, width, index = job
    ranked = [action for _, action in HardBot().ranked(state)]
    values: dict[int, float] = {}

    def value(action: int) -> float:
        if action not in values:
            values[action] = judge(state, action)
        return values[action]

    base = value(ranked[0])
    gains, cpu = [], []
    for _, params in variants:
        start = time.process_time()
        choice = make_variant(params).choose(state, Rng(index))
        cpu.append(time.process_time() - start)
        gains.append(value(choice) - base)
    gains.append(max(value(a) for a in ranked[:width]) - base)
    return gains, cpu


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--every", type=int, default=7, help="keep every N-th decision of a game")
    parser.add_argument("--width", type=int, default=4, help="N of the best-of-N headroom")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--variant", action="append", default=[], metavar="NAME:k=v,k=v")
    args = parser.parse_args(argv)
    variants = [parse_variant(v) for v in args.variant] or [("base", {"objective": 0.0})]
    found: list[SkyjoState] = []
    game_index = 0
    while len(found) < args.positions:
        found += positions(args.seed, game_index, args.every)
        game_index += 1
    found = found[: args.positions]
    jobs = [(state, variants, args.width, i) for i, state in enumerate(found)]
    with Pool(args.workers) as pool:
        results: list[Any] = pool.map(screen, jobs, chunksize=2)
    n = len(results)
    print(f"{n} positions from {game_index} four-hard games, seed {args.seed}")
    names = [name for name, _ in variants] + [f"best-of-{args.width}"]
    for k, name in enumerate(names):
        gains = [r[0][k] for r in results]
        mean = sum(gains) / n
        error = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1) / n)
        moved = sum(g != 0 for g in gains)
        cpu = sum(r[1][k] for r in results) / n if k < len(variants) else 0.0
        print(
            f"{name:14} gain {mean:+.4f} ± {error:.4f} points a decision "
            f"(judged value changed at {moved}), {1000 * cpu:.0f} ms CPU a decision"
        )


if __name__ == "__main__":
    main()

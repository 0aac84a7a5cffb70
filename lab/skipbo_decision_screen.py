"""Screen Skip-Bo ``expert`` settings one decision at a time, judged by the true deal.

    python -m lab skipbo_decision_screen --positions 600 --stock 30 \
        --variant base: --variant it48:iterations=48 --variant z05:z=0.5

Positions come from seeded ``hard``-vs-``hard`` games (game ``g`` dealt from
``game_seed(seed, g)``): every decision where ``hard`` would not play its stock
and has a close rival (margin 6, discard margin 2, wider than the default's);
``--every`` keeps one in N of them.
Each variant (``NAME:key=value,key=value``, keys of :class:`SkipBoExpert`:
``iterations``, ``horizon``, ``z``, ``margin``, ``dmargin``) chooses a move there,
seeing only what its seat sees. Each move is then judged on the *true* state (the
real hands, stocks and draw order): it is applied and every seat plays on as
plan-following ``hard`` to the end of the round, read at checkpoints: the stock
race after 4, 8 and 16 turns (stock cards played minus the opponent's, a finished
round worth 30) and the round's margin (the loser's stock cards left). With the
real cards the continuation is exact, so a variant's gain at a position is the
judged value of its move minus that of ``hard``'s move; averaged over many
positions it estimates what the variant's choices are worth, with every variant
judged on the same positions (paired). This is a screen for settings, not a
measure of strength: the tournament (``lab/expert_experiments.py`` or
``cardtable sim``) decides.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from multiprocessing import Pool
from typing import Any

from cardtable.bots.skipbo_expert import SkipBoExpert, skipbo_progress
from cardtable.bots.skipbo_hard import HardBot, PlanFollowingBot
from cardtable.core import Rng
from cardtable.games import get_game
from cardtable.sim.tournament import bot_rng, game_seed
from cardtable.skipbo.moves import DISCARD_PLAY_BASE, STOCK_BASE
from cardtable.skipbo.state import SkipBoState

from .expert_experiments import variant

Variant = tuple[str, dict[str, float]]


def parse_variant(text: str) -> Variant:
    name, _, rest = text.partition(":")
    params = {k: float(v) for k, _, v in (p.partition("=") for p in rest.split(",") if p)}
    return name, params


def make_variant(params: dict[str, float]) -> SkipBoExpert:
    expert: SkipBoExpert = variant("expert", params)
    return expert


#: Turns after which the judge reads the stock race (0: the end of the round).
CHECKPOINTS = (4, 8, 16, 0)


def judge(state: SkipBoState, action: int) -> tuple[float, ...]:
    """The move's values on the true state, plan-following ``hard`` playing on.

    One value per checkpoint: the stock race after 4, 8 and 16 turns (a finished
    round worth 30), then the round's end: the loser's stock cards left, positive
    when the seat's side won (0 for a blocked round).
    """
    copy = state.clone()
    copy.advance(action)
    policies = [PlanFollowingBot() for _ in range(state.n)]
    rng = Rng(0)
    values: list[float] = []
    moves = 0
    for turns in CHECKPOINTS[:-1]:
        while (
            copy.final is None
            and len(copy.round_log) == len(state.round_log)
            and copy.turns < state.turns + turns
        ):
            copy.advance(policies[copy.current].choose(copy, rng))
            moves += 1
        values.append(skipbo_progress(state, copy, state.current)[0])
    while copy.final is None and len(copy.round_log) == len(state.round_log) and moves < 20000:
        copy.advance(policies[copy.current].choose(copy, rng))
        moves += 1
    team = state.rules.team(state.current)
    if len(copy.round_log) == len(state.round_log) or not copy.round_log[-1].winners:
        values.append(0.0)
    else:
        won = state.current in copy.round_log[-1].winners
        losers = [s for s in range(state.n) if (s in team) != won]
        values.append((1 if won else -1) * (1 + min(len(copy.stocks[s]) for s in losers)))
    return tuple(values)


def positions(stock: int, seed: int, game_index: int, every: int) -> list[SkipBoState]:
    game = get_game("skipbo")
    state = game.new_state(game.rules_from_json({"stock_size": stock}), game_seed(seed, game_index))
    assert isinstance(state, SkipBoState)
    hard = HardBot()
    wide = SkipBoExpert(margin=6.0, dmargin=2.0)
    rngs = [bot_rng(game_index, s) for s in range(state.n)]
    found: list[SkipBoState] = []
    count = 0
    while state.current_player is not None:
        move = hard.choose(state, rngs[state.current])
        if not STOCK_BASE <= move < DISCARD_PLAY_BASE and wide.rivals(state, move):
            if count % every == 0:
                found.append(state.clone())
            count += 1
        state.advance(move)
    return found


def screen(
    job: tuple[SkipBoState, list[Variant], int],
) -> tuple[list[tuple[float, ...]], list[float], list[bool]]:
    """Each variant's gain over ``hard`` at one position, its CPU seconds, whether it left it."""
    state, variants, index = job
    hard_move = HardBot().choose(state, Rng(0))
    values: dict[int, tuple[float, ...]] = {}

    def gain(action: int) -> tuple[float, ...]:
        if action == hard_move:
            return (0.0,) * len(CHECKPOINTS)
        for move in (action, hard_move):
            if move not in values:
                values[move] = judge(state, move)
        return tuple(x - y for x, y in zip(values[action], values[hard_move], strict=True))

    gains, cpu, left = [], [], []
    for _, params in variants:
        start = time.process_time()
        choice = make_variant(params).choose(state, Rng(index))
        cpu.append(time.process_time() - start)
        gains.append(gain(choice))
        left.append(choice != hard_move)
    return gains, cpu, left


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=600)
    parser.add_argument("--stock", type=int, default=30)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--every", type=int, default=5, help="keep every N-th position of a game")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--variant", action="append", default=[], metavar="NAME:k=v,k=v")
    args = parser.parse_args(argv)
    variants = [parse_variant(v) for v in args.variant] or [("base", {})]
    found: list[SkipBoState] = []
    game_index = 0
    while len(found) < args.positions:
        found += positions(args.stock, args.seed, game_index, args.every)
        game_index += 1
    found = found[: args.positions]
    jobs = [(state, variants, i) for i, state in enumerate(found)]
    with Pool(args.workers) as pool:
        results: list[Any] = pool.map(screen, jobs, chunksize=4)
    n = len(results)
    print(f"{n} positions from {game_index} games, stock {args.stock}, seed {args.seed}")
    labels = [f"race {t}" if t else "round" for t in CHECKPOINTS]
    for k, (name, params) in enumerate(variants):
        left = sum(r[2][k] for r in results)
        cpu = sum(r[1][k] for r in results) / n
        print(f"{name} {params or ''}: left hard's move at {left}, {1000 * cpu:.0f} ms CPU")
        for c, label in enumerate(labels):
            gains = [r[0][k][c] for r in results]
            mean, error = _mean_error(gains)
            line = f"    {label:8} gain {mean:+.4f} ± {error:.4f}"
            if k:
                base = [r[0][0][c] for r in results]
                diff, derr = _mean_error([g - b for g, b in zip(gains, base, strict=True)])
                line += f"   minus {variants[0][0]}: {diff:+.4f} ± {derr:.4f}"
            print(line)


def _mean_error(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


if __name__ == "__main__":
    main()

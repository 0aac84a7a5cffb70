"""Skyjo ``expert`` variants seated with three ``hard``, all four seats in turn.

    python -m lab skyjo_expert_experiments --games 200 --set objective=1 --set late=40

Game ``i`` is dealt from ``game_seed(seed, i // 4)`` with the variant in seat ``i % 4``
and ``hard`` in the three others, so every deal is played from every seat. The line
printed gives the variant's wins (a shared lowest total counts, as in ``cardtable
sim``), the 95% Wilson interval, points per round of the variant and of the ``hard``
seats, and the variant's CPU seconds per game.

Settings (``--set name=value``) of :class:`~cardtable.bots.skyjo_expert.SkyjoExpert`:
``iterations`` (16), ``width`` (4), ``z`` (2.5), ``objective`` (1: the chance to win
the game, 0: round points against the others' average), ``late`` (search only when
the highest total is within this many points of the end score; -1: always),
``rollout`` (0: ``greedy``, 1: ``hard``), ``seat_draws`` (0; 1: each seat draws
from its own part of the re-dealt pile), ``short`` (0; 1: rollouts stop at the
seat's next turn, scored by the fitted round points to come; with ``objective=0``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from multiprocessing import Pool
from typing import Any

from cardtable.bots.montecarlo import Budget
from cardtable.bots.skyjo_expert import SkyjoExpert
from cardtable.bots.skyjo_hard import HardBot
from cardtable.games import get_game
from cardtable.sim.stats import wilson_interval
from cardtable.sim.tournament import game_seed, play_game


def variant(params: dict[str, float]) -> SkyjoExpert:
    late = params.get("late", -1.0)
    return SkyjoExpert(
        Budget(iterations=int(params.get("iterations", 16)), milliseconds=None),
        rollout="hard" if params.get("rollout", 0) else "greedy",
        width=int(params.get("width", 4)),
        z=params.get("z", 2.5),
        objective="game" if params.get("objective", 1) else "round",  # the script's default
        late=None if late < 0 else late,
        seat_draws=bool(params.get("seat_draws", 0)),
        short=bool(params.get("short", 0)),
    )


def _one(job: tuple[dict[str, float], int, int]) -> tuple[bool, list[int], list[int], float]:
    params, seed, index = job
    game = get_game("skyjo")
    rules = game.rules_from_json({"players": 4})
    seat = index % 4
    bots: list[Any] = [HardBot() for _ in range(4)]
    bots[seat] = variant(params)
    start = time.process_time()
    record = play_game(game, rules, bots, game_seed(seed, index // 4))
    mine = [points[seat] for points in record.round_points]
    theirs = [p for points in record.round_points for s, p in enumerate(points) if s != seat]
    return seat in record.winners, mine, theirs, time.process_time() - start


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    params = {}
    for item in args.set:
        name, _, value = item.partition("=")
        params[name] = float(value)
    jobs = [(params, args.seed, index) for index in range(args.games)]
    wins = 0
    mine: list[int] = []
    theirs: list[int] = []
    cpu = 0.0
    with Pool(args.workers) as pool:
        for done, (won, own, others, seconds) in enumerate(pool.imap(_one, jobs), start=1):
            wins += won
            mine.extend(own)
            theirs.extend(others)
            cpu += seconds
            if done % 20 == 0:
                print(f"  {done} games: {wins} wins", file=sys.stderr, flush=True)
    interval = wilson_interval(wins, args.games)
    print(
        f"{params} seed {args.seed}: {wins}/{args.games} wins, {wins / args.games:.1%} "
        f"({interval.low:.1%}-{interval.high:.1%}); points per round "
        f"{sum(mine) / len(mine):.2f} against hard's {sum(theirs) / len(theirs):.2f}; "
        f"{cpu / args.games:.1f} CPU s a game"
    )


if __name__ == "__main__":
    main()

"""Skyjo ``hard`` with other weights, seated with three default ``hard`` (or ``greedy``).

    python -m lab skyjo_hard_weights --games 2000 --seed 2 --set pair_weight=1.2
    python -m lab skyjo_hard_weights --games 2000 --expert
    python -m lab skyjo_hard_weights --games 2000 --expert --against greedy

Game ``i`` is dealt from ``game_seed(seed, i // 4)`` with the variant in seat ``i % 4``
and the ``--against`` bot in the three others, so every deal is played from every
seat (4-player default rules). ``--set NAME=VALUE`` sets a keyword argument of
:class:`~cardtable.bots.skyjo_hard.HardBot` (``pair_weight``, ``pair_draws``,
``take_margin``, ``reveal_bonus``, ...); ``--expert`` starts from the weights the
``expert`` plays (:data:`~cardtable.bots.skyjo_expert.EXPERT_WEIGHTS`) instead of
``hard``'s own. No search: this measures the evaluation alone, about 0.06 CPU
seconds a game. The line printed gives the variant's wins (a shared lowest total
counts, as in ``cardtable sim``), the 95% Wilson interval and its points per round.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from multiprocessing import Pool
from typing import Any

from cardtable.bots.skyjo import GreedyBot
from cardtable.bots.skyjo_expert import EXPERT_WEIGHTS
from cardtable.bots.skyjo_hard import HardBot
from cardtable.games import get_game
from cardtable.sim.stats import wilson_interval
from cardtable.sim.tournament import game_seed, play_game

Job = tuple[dict[str, float], str, int, int]


def _one(job: Job) -> tuple[bool, int, int]:
    weights, against, seed, index = job
    game = get_game("skyjo")
    rules = game.rules_from_json({"players": 4})
    seat = index % 4
    bots: list[Any] = [HardBot() if against == "hard" else GreedyBot() for _ in range(4)]
    bots[seat] = HardBot(**weights)
    record = play_game(game, rules, bots, game_seed(seed, index // 4))
    mine = [points[seat] for points in record.round_points]
    return seat in record.winners, sum(mine), len(mine)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--against", choices=("hard", "greedy"), default="hard")
    parser.add_argument("--expert", action="store_true", help="start from the expert's weights")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    weights = dict(EXPERT_WEIGHTS) if args.expert else {}
    for item in args.set:
        name, _, value = item.partition("=")
        weights[name] = float(value)
    HardBot(**weights)  # a misspelt weight fails here, before any game
    jobs = [(weights, args.against, args.seed, index) for index in range(args.games)]
    start = time.monotonic()
    with Pool(args.workers) as pool:
        results = pool.map(_one, jobs, chunksize=20)
    wins = sum(won for won, _, _ in results)
    points = sum(total for _, total, _ in results)
    rounds = sum(count for _, _, count in results)
    interval = wilson_interval(wins, args.games)
    print(
        f"{weights or 'hard'} against three {args.against}, seed {args.seed}: "
        f"{wins}/{args.games} wins, {wins / args.games:.1%} "
        f"({interval.low:.1%}-{interval.high:.1%}); {points / rounds:.2f} points per round; "
        f"{time.monotonic() - start:.0f} s"
    )


if __name__ == "__main__":
    main()

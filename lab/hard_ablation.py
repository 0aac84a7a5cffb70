"""Skip-Bo ``hard`` with one part changed, against ``hard`` itself (paired seats).

    python -m lab hard_ablation no-danger --games 1000 --stock 20
    python -m lab hard_ablation weights --set gift=60 --games 1000

What each part of ``hard`` is worth: ``no-danger`` ignores what a line opens for
the next player's stock, ``random-discard`` discards at random, ``no-prospects``
ignores how close the piles come to its own stock top, ``weights`` changes the
planner's weights (``--set name=value``, names below). Game ``i`` is dealt from
``game_seed(seed, i // 2)`` with the variant in seat ``i % 2``.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
from collections.abc import Sequence
from multiprocessing import Pool
from typing import Any

from cardtable.bots.skipbo_hard import HARD_WEIGHTS, HardBot, TurnPlanner
from cardtable.core import GameState, Rng
from cardtable.games import get_game
from cardtable.sim.tournament import game_seed, play_game
from cardtable.skipbo.moves import DISCARD_BASE, END_TURN

#: ``--set NAME=VALUE`` names and the field of ``hard``'s ``PlanWeights`` each sets.
WEIGHTS = {
    "gift": "gift",
    "empty": "hand_emptied",
    "wild": "wild_used",
    "from_discard": "from_discard",
    "from_hand": "from_hand",
}


class _NoDanger(TurnPlanner):
    def danger(self) -> float:
        return 0.0


class _NoProspects(TurnPlanner):
    def prospects(self) -> float:
        return 0.0


class _RandomDiscard(HardBot):
    def choose(self, state: GameState[Any], rng: Rng) -> int:
        action = super().choose(state, rng)
        if DISCARD_BASE <= action < END_TURN:
            discards = [a for a in state.legal_actions() if DISCARD_BASE <= a < END_TURN]
            return discards[rng.below(len(discards))]
        return action


def variant(name: str, weights: dict[str, float]) -> HardBot:
    if name == "random-discard":
        return _RandomDiscard()
    if name == "no-danger":
        return HardBot(planner=_NoDanger)
    if name == "no-prospects":
        return HardBot(planner=_NoProspects)
    if name == "weights":
        changed: dict[str, Any] = dict(weights)  # each a float field of PlanWeights
        return HardBot(weights=dataclasses.replace(HARD_WEIGHTS, **changed))
    return HardBot()


def _one(job: tuple[str, dict[str, float], int, int, int]) -> bool:
    name, weights, stock, seed, index = job
    game = get_game("skipbo")
    rules = game.rules_from_json({"stock_size": stock})
    seat = index % 2
    bots = [HardBot(), HardBot()]
    bots[seat] = variant(name, weights)
    record = play_game(game, rules, bots, game_seed(seed, index // 2))
    return seat in record.winners


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "variant", choices=["no-danger", "random-discard", "no-prospects", "weights"]
    )
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--stock", type=int, default=20)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    weights = {}
    for item in args.set:
        key, _, value = item.partition("=")
        if key not in WEIGHTS:
            parser.error(f"--set {item}: the weights are {', '.join(WEIGHTS)}")
        try:
            weights[WEIGHTS[key]] = float(value)
        except ValueError:
            parser.error(f"--set {item}: {value!r} is not a number")
    jobs = [(args.variant, weights, args.stock, args.seed, i) for i in range(args.games)]
    with Pool(args.workers) as pool:
        wins = sum(pool.map(_one, jobs, chunksize=20))
    rate = wins / args.games
    half = 1.96 * math.sqrt(rate * (1 - rate) / args.games)
    print(
        f"{args.variant} {weights or ''} stock {args.stock}: {wins}/{args.games} wins, "
        f"{100 * rate:.1f}% (± {100 * half:.1f})"
    )


if __name__ == "__main__":
    main()

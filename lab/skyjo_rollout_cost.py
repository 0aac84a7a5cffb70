"""CPU time of a Skyjo rollout: one whole first round played by one bot in every seat.

    python -m lab skyjo_rollout_cost --rounds 20 --players 4

What the Skyjo ``expert`` pays per rollout with ``greedy`` or ``hard`` as its policy
(a rollout from the middle of a round is shorter).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from cardtable.bots.skyjo import GreedyBot
from cardtable.bots.skyjo_hard import HardBot
from cardtable.core import Rng
from cardtable.games import get_game


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args(argv)
    game = get_game("skyjo")
    rules = game.rules_from_json({"players": args.players})
    for name, bot in (("greedy", GreedyBot()), ("hard", HardBot())):
        start = time.process_time()
        moves = 0
        for seed in range(args.rounds):
            state = game.new_state(rules, seed)
            rng = Rng(seed)
            while not state.rounds():
                state.advance(bot.choose(state, rng))
                moves += 1
        seconds = time.process_time() - start
        print(
            f"{name}: {seconds / args.rounds * 1000:.1f} ms CPU per round, "
            f"{moves / args.rounds:.0f} moves per round ({args.rounds} first rounds)"
        )


if __name__ == "__main__":
    main()

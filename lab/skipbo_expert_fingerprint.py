"""A hash of every move of seeded Skip-Bo ``expert``-vs-``hard`` games, and their CPU time.

    python -m lab skipbo_expert_fingerprint --games 2 --stock 30

A change meant only to make the search faster must give the same hash. The games
seat the expert in seat 0 (defaults unless ``--iterations``, ``--horizon``,
``--shared-pile``, ``--value`` or ``--race`` say otherwise) and ``hard`` in seat 1, dealt from
seeds 0 to N-1.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from collections.abc import Sequence

from cardtable.bots.montecarlo import Budget
from cardtable.bots.skipbo_expert import SkipBoExpert
from cardtable.bots.skipbo_hard import HardBot
from cardtable.games import get_game
from cardtable.sim.tournament import bot_rng


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--stock", type=int, default=30)
    parser.add_argument("--iterations", type=int, default=48)
    parser.add_argument("--horizon", type=int, default=4)
    parser.add_argument("--shared-pile", action="store_true", help="no seat draws")
    parser.add_argument("--value", type=float, default=1.0, help="weight of the fitted value")
    parser.add_argument(
        "--race",
        action="store_true",
        help="score rollouts by the stock race, not the chance to win (the code before 2026-12-02)",
    )
    args = parser.parse_args(argv)
    game = get_game("skipbo")
    rules = game.rules_from_json({"stock_size": args.stock})
    digest = hashlib.sha256()
    moves = 0
    start = time.process_time()
    for seed in range(args.games):
        expert = SkipBoExpert(
            Budget(iterations=args.iterations, milliseconds=None),
            horizon=args.horizon,
            seat_draws=not args.shared_pile,
            value=args.value,
            win=not args.race,
        )
        hard = HardBot()
        state = game.new_state(rules, seed)
        while not state.is_over:
            seat = state.current_player
            bot = expert if seat == 0 else hard
            state.apply_action(bot.choose(state, bot_rng(seed, 0 if seat == 0 else 1)))
            moves += 1
        digest.update(str(state.history).encode())
    print(
        f"{args.games} games, {moves} moves, sha256 {digest.hexdigest()[:16]}, "
        f"{time.process_time() - start:.1f} CPU s"
    )


if __name__ == "__main__":
    main()

"""rlskyjo's numba Skyjo engine as an outside yardstick for ``cardtable bench skyjo``.

    python -m venv /tmp/rlsk && /tmp/rlsk/bin/pip install rlskyjo
    taskset -c 1 /tmp/rlsk/bin/python -m lab rlskyjo_yardstick --players 4 --seconds 6

rlskyjo (not a dependency of cardtable; it brings torch and ray) plays one round a
game; each move here is what its own sample loop does: ``collect_observation`` for
the player to move (the only way it gives the action mask), its random admissible
policy, ``act``. Prints moves and rounds per CPU second after an untimed warm-up that
compiles its numba functions. The tool imports nothing of cardtable, so it runs from
the repository root in a venv that holds rlskyjo alone; without rlskyjo it says how to
install it.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from typing import Any

INSTALL = "python -m venv /tmp/rlsk && /tmp/rlsk/bin/pip install rlskyjo"


def play(game: Any, seconds: float) -> tuple[int, int, float]:
    from rlskyjo.models.random_admissible_policy import policy_ra  # type: ignore[import-not-found]

    moves = rounds = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        game.reset()
        while not game.is_terminated:
            player, _ = game.expected_action
            observation, mask = game.collect_observation(player)
            game.act(player, policy_ra(observation, mask))
            moves += 1
        rounds += 1
    return moves, rounds, time.process_time() - start


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=6.0)
    args = parser.parse_args(argv)
    try:
        from rlskyjo.game.skyjo import SkyjoGame  # type: ignore[import-not-found]
    except ImportError:
        parser.exit(
            2, f"{parser.prog}: rlskyjo is not installed here; in a venv of its own: {INSTALL}\n"
        )
    game = SkyjoGame(num_players=args.players)
    game.set_seed(0)
    play(game, 1.0)
    moves, rounds, seconds = play(game, args.seconds)
    print(
        json.dumps(
            {
                "engine": "rlskyjo",
                "players": args.players,
                "moves_per_cpu_s": moves / seconds,
                "rounds_per_cpu_s": rounds / seconds,
                "moves_per_round": moves / rounds,
            }
        )
    )


if __name__ == "__main__":
    main()

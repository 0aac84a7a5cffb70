"""Decision time of a bot on positions sampled from seeded games (median, 90th percentile, max).

    python -m lab bot_speed skipbo hard --positions 2000 --option stock_size=20
    python -m lab bot_speed skyjo expert --positions 50

Positions come from games between ``--seats`` bots (default: ``hard`` in every
seat); every 3rd position with a choice is timed once. Both the wall-clock and the
CPU time of each decision are reported: on a shared machine the CPU time is what a
decision costs one core.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Sequence

from cardtable.bots import make_bot
from cardtable.core import Rng
from cardtable.games import get_game
from cardtable.sim.tournament import bot_rng


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("bot")
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seats", default="hard", help="bot playing the games that give positions")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    game = get_game(args.game)
    rules = game.rules_from_json({k: json.loads(v) for k, v in (o.split("=") for o in args.option)})
    bot = make_bot(args.game, args.bot)
    times: list[float] = []
    cpu: list[float] = []
    seed = 0
    while len(times) < args.positions:
        state = game.new_state(rules, seed)
        players = [make_bot(args.game, args.seats) for _ in range(state.num_players)]
        rngs = [bot_rng(seed, s) for s in range(state.num_players)]
        count = 0
        while not state.is_over and len(times) < args.positions:
            seat = state.current_player
            assert seat is not None
            count += 1
            if count % 3 == 0 and len(state.legal_actions()) > 1:
                start, start_cpu = time.perf_counter(), time.process_time()
                bot.choose(state, Rng(count))
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
            state.apply_action(players[seat].choose(state, rngs[seat]))
        seed += 1
    # CPU time is what a decision costs one core; the wall clock adds whatever else
    # the machine was doing meanwhile.
    for label, samples in (("wall", times), ("CPU", cpu)):
        ms = sorted(t * 1000 for t in samples)
        print(
            f"{args.game} {args.bot} ({label}): {len(ms)} decisions, "
            f"median {statistics.median(ms):.2f} ms, "
            f"90th percentile {ms[int(0.9 * (len(ms) - 1))]:.2f} ms, max {ms[-1]:.2f} ms"
        )


if __name__ == "__main__":
    main()

"""Decision time of a bot on positions sampled from seeded games (median, 90th percentile, max).

    python scripts/bot_speed.py skipbo hard --positions 2000 --option stock_size=20
    python scripts/bot_speed.py skyjo expert --positions 50

Positions come from games between ``--players-bots`` (default: the bot itself in
every seat); every 3rd position where the bot's seat is to move is timed once.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from cardtable.bots import make_bot
from cardtable.core import Rng
from cardtable.games import get_game
from cardtable.sim.tournament import bot_rng


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("bot")
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seats", default="hard", help="bot playing the games that give positions")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    game = get_game(args.game)
    rules = game.rules_from_json({k: json.loads(v) for k, v in (o.split("=") for o in args.option)})
    bot = make_bot(args.game, args.bot)
    times: list[float] = []
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
                start = time.perf_counter()
                bot.choose(state, Rng(count))
                times.append(time.perf_counter() - start)
            state.apply_action(players[seat].choose(state, rngs[seat]))
        seed += 1
    ms = sorted(t * 1000 for t in times)
    print(
        f"{args.game} {args.bot}: {len(ms)} decisions, median {statistics.median(ms):.2f} ms, "
        f"90th percentile {ms[int(0.9 * (len(ms) - 1))]:.2f} ms, max {ms[-1]:.2f} ms"
    )


if __name__ == "__main__":
    main()

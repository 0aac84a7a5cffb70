"""How Skip-Bo rounds end between given bots, and how close they come to the house rules.

    python -m lab skipbo_round_ends --bots hard --games 10000 --players 2
    python -m lab skipbo_round_ends --bots expert,hard --games 100 --workers 2

Plays seeded games (the tournament's seeds and bot generators) with the house rules
out of reach (``idle_limit`` 100000, ``turn_limit`` 1000000) and reports how many
rounds ended for each reason, the longest run of turns without a card built while
nothing was left to draw (what ``idle_limit`` counts), and the longest round in turns
(what ``turn_limit`` counts). These figures chose the defaults in docs/rules/skipbo.md.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from cardtable.bots import make_bot
from cardtable.sim.tournament import bot_rng, game_seed
from cardtable.skipbo import GAME, RoundEnded, SkipBoRules

OUT_OF_REACH = {"idle_limit": 100_000, "turn_limit": 1_000_000}


@dataclass
class Tally:
    games: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    longest_idle: int = 0
    longest_round: int = 0
    worst_seed: int | None = None

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.reasons += other.reasons
        if other.longest_idle > self.longest_idle:
            self.longest_idle, self.worst_seed = other.longest_idle, other.worst_seed
        self.longest_round = max(self.longest_round, other.longest_round)


def play(
    rules_json: dict[str, object], bots: list[str], seed: int, first: int, count: int
) -> Tally:
    rules = SkipBoRules.from_json(rules_json)
    players = [make_bot("skipbo", name) for name in bots]
    tally = Tally()
    for index in range(first, first + count):
        state = GAME.new_state(rules, game_seed(seed, index))
        rngs = [bot_rng(state.seed, seat) for seat in range(rules.players)]
        while (seat := state.current_player) is not None:
            outcome = state.apply_action(players[seat].choose(state, rngs[seat]))
            if state.idle > tally.longest_idle:
                tally.longest_idle, tally.worst_seed = state.idle, state.seed
            for event in outcome.events:
                if isinstance(event, RoundEnded):
                    tally.reasons[event.reason] += 1
            tally.longest_round = max(tally.longest_round, state.turns)
        tally.games += 1
    return tally


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="hard", help="one name, or one per seat")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    options = {k: json.loads(v) for k, v in (o.split("=", 1) for o in args.option)}
    rules = SkipBoRules.from_json({"players": args.players, **OUT_OF_REACH, **options})
    names = args.bots.split(",")
    bots = names * rules.players if len(names) == 1 else names
    chunk = -(-args.games // args.workers)
    parts = [(i, min(chunk, args.games - i)) for i in range(0, args.games, chunk)]
    total = Tally()
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [
            pool.submit(play, rules.to_json(), bots, args.seed, first, count)
            for first, count in parts
        ]
        for future in futures:
            total.add(future.result())
    print(f"rules {json.dumps(rules.to_json(), sort_keys=True)}")
    print(f"bots {','.join(bots)}; games {total.games}; seed {args.seed}")
    print("round ends: " + ", ".join(f"{r} {n}" for r, n in total.reasons.most_common()))
    print(f"longest run of idle turns with nothing to draw: {total.longest_idle}", end="")
    print(f" (game seed {total.worst_seed})" if total.worst_seed is not None else "")
    print(f"longest round: {total.longest_round} turns")


if __name__ == "__main__":
    main()

"""Legality sweep: bots choose a legal move, without crashing, in many random positions.

    python -m lab bot_sweep --positions 100000

Positions come from random play over many seeds and rules (2 to 6 Skip-Bo
players, teams, short stocks; 2 to 8 Skyjo players, rows rule); each game's
positions alternate between the two games. In each position every listed bot
(default naive, greedy, hard) chooses once and the choice is checked against
``legal_actions()``. Prints the counts and exits 1 on the first failure.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from cardtable.bots import make_bot
from cardtable.core import Rng
from cardtable.games import get_game

RULES = {
    "skipbo": [
        {"players": 2, "stock_size": 5},
        {"players": 3, "stock_size": 10},
        {"players": 4, "teams": True, "stock_size": 5},
        {"players": 6, "teams": True, "discard_to_partner": True, "stock_size": 5},
        {"players": 2, "stock_size": 5, "rounds": True, "target": 60},
    ],
    "skyjo": [{"players": 2}, {"players": 4}, {"players": 8}, {"players": 3, "rows_rule": True}],
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=100_000, help="positions in all")
    parser.add_argument("--bots", default="naive,greedy,hard")
    args = parser.parse_args(argv)
    names = args.bots.split(",")
    checked = {game: 0 for game in RULES}
    seed = 0
    while sum(checked.values()) < args.positions:
        game_name = "skipbo" if seed % 2 == 0 else "skyjo"
        game = get_game(game_name)
        options = RULES[game_name][(seed // 2) % len(RULES[game_name])]
        state = game.new_state(game.rules_from_json(options), seed)
        bots = [make_bot(game_name, name) for name in names]
        rng = Rng(seed)
        while not state.is_over and sum(checked.values()) < args.positions:
            legal = state.legal_actions()
            where = f"{game_name} seed {seed} move {len(state.history)}"
            for bot in bots:
                try:
                    choice = bot.choose(state, rng.spawn())
                except Exception as error:
                    print(f"{where}: {bot.name} raised {error!r}")
                    return 1
                if choice not in legal:
                    print(f"{where}: {bot.name} chose illegal {choice}")
                    return 1
            checked[game_name] += 1
            state.apply_action(legal[rng.below(len(legal))])
        seed += 1
    total = sum(checked.values())
    print(
        f"{total} positions ({checked['skipbo']} Skip-Bo, {checked['skyjo']} Skyjo) from "
        f"{seed} random games, bots {', '.join(names)}: every choice legal, no crash"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

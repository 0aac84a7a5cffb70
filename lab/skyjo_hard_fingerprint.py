"""SHA-256 over seeded Skyjo games of the ``hard`` bot: every move and every ranking.

    python -m lab skyjo_hard_fingerprint --games 200
    PYTHONPATH=/tmp/clone/src python -m lab skyjo_hard_fingerprint --games 200

Plays ``--games`` seeded games with ``hard`` in every seat: most with 4 players,
every 5th with 2 and every 5th with 3, and every 4th with the ``rows_rule``
option. The hash covers each game's rules and seed, every action played and, at
every decision after set-up, ``HardBot.ranked()`` with its values rounded to 9
decimals. Two versions of the bot that print the same hash chose the same moves
and ranked them the same way over those games; run it against a clean checkout
(second line above) to compare a change with the code before it.

``hard`` cannot value a grid that lost a row (an AssertionError in ``ranked()``),
so a ``rows_rule`` game stops at that decision; the hash records where.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from collections.abc import Callable, Sequence

from cardtable.bots.skyjo_hard import HardBot
from cardtable.sim.tournament import bot_rng
from cardtable.skyjo import GAME, SkyjoRules
from cardtable.skyjo.state import SETUP, SkyjoState


def game_rules(index: int, end_score: int) -> SkyjoRules:
    """The rules of game ``index``: player count and ``rows_rule`` vary with it."""
    players = 2 if index % 5 == 1 else 3 if index % 5 == 3 else 4
    return SkyjoRules(players=players, end_score=end_score, rows_rule=index % 4 == 2)


def play(index: int, end_score: int, update: Callable[[bytes], None]) -> tuple[int, bool]:
    """Play game ``index``, feeding it to ``update``: the rankings fed, and whether it stopped."""
    rules = game_rules(index, end_score)
    state = GAME.new_state(rules, index)
    assert isinstance(state, SkyjoState)
    bots = [HardBot() for _ in range(state.n)]
    rngs = [bot_rng(index, seat) for seat in range(state.n)]
    update(f"game {index} {rules}\n".encode())
    rankings = 0
    while not state.is_over:
        seat = state.player
        if state.phase != SETUP and len(state.legal_actions()) > 1:
            try:
                ranked = bots[seat].ranked(state)
            except AssertionError:
                # A grid that lost a row (rows_rule): see the module docstring.
                update(f"ranked failed at move {len(state.history)}\n".encode())
                return rankings, True
            update(repr([(round(v, 9), a) for v, a in ranked]).encode())
            rankings += 1
        action = bots[seat].choose(state, rngs[seat])
        update(f" {action}\n".encode())
        state.apply_action(action)
    update(f"totals {state.totals}\n".encode())
    return rankings, False


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="index (and seed) of the first game")
    parser.add_argument("--end-score", type=int, default=100, help="rules option end_score")
    args = parser.parse_args(argv)
    digest = hashlib.sha256()
    rankings = stopped = 0
    start = time.process_time()
    for index in range(args.first, args.first + args.games):
        count, failed = play(index, args.end_score, digest.update)
        rankings += count
        stopped += failed
    seconds = time.process_time() - start
    print(
        f"{args.games} games ({stopped} stopped where hard failed), "
        f"{rankings} rankings, {seconds:.1f} s CPU"
    )
    print(digest.hexdigest())


if __name__ == "__main__":
    main()

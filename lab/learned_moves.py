"""Where the learned bot's moves differ from hard's, on positions from seeded games.

    python -m lab learned_moves skyjo --positions 2000 --option players=4 --show 3
    python -m lab learned_moves skipbo --positions 2000 --option stock_size=30 --show 3

Positions come from games of ``--seats`` bots (default ``hard`` in every seat); at every
3rd position with more than one legal move, both bots choose. Prints how often they
agree, by the kind of move ``hard`` plays, and ``--show`` positions where they differ
(the spectator's picture, the seat's hand for Skip-Bo, both moves). It also gives
``hard``'s own value of both moves, the one a residual policy's prior is made of, and
counts the differences ``hard`` values as a tie: in Skyjo in points, lower is better
(none in the set-up, where ``hard`` reveals at random); in Skip-Bo the value of the
best line of the turn a move starts (:mod:`cardtable.bots.skipbo_hard_values`), higher
is better.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Sequence

from cardtable.bots import make_bot, skipbo_hard_values, skyjo_hard
from cardtable.core import GameState, Rng
from cardtable.games import get_game
from cardtable.rl.common import render_text
from cardtable.sim.tournament import bot_rng
from cardtable.skipbo.state import SkipBoState
from cardtable.skyjo.state import SkyjoState


def _kind(text: str) -> str:
    """A move's kind: its description up to its first number."""
    words = []
    for word in text.split():
        if any(ch.isdigit() for ch in word):
            break
        words.append(word)
    return " ".join(words)


def _values(state: GameState[object]) -> dict[int, float]:
    """``hard``'s value of each legal move (see the module)."""
    if isinstance(state, SkyjoState):
        return skyjo_hard.move_values(state)
    if isinstance(state, SkipBoState):
        return skipbo_hard_values.move_values(state)
    return {}


def _valued(values: dict[int, float], action: int) -> str:
    return f" (hard's value {values[action]:.2f})" if action in values else ""


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--seats", default="hard", help="bot playing the games that give positions")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--show", type=int, default=3, help="positions that differ to print")
    args = parser.parse_args(argv)
    game = get_game(args.game)
    rules = game.rules_from_json({k: json.loads(v) for k, v in (o.split("=") for o in args.option)})
    learned = make_bot(args.game, "learned")
    hard = make_bot(args.game, "hard")
    seats = make_bot(args.game, args.seats)
    seen: Counter[str] = Counter()
    agreed: Counter[str] = Counter()
    shown = 0
    ties = valued = 0
    seed = 0
    while sum(seen.values()) < args.positions:
        state = game.new_state(rules, seed)
        rng = bot_rng(seed, 0)
        index = 0
        while not state.is_over and sum(seen.values()) < args.positions:
            legal = state.legal_actions()
            if len(legal) > 1:
                index += 1
                if index % 3 == 0:
                    mine = learned.choose(state, Rng(seed * 7919 + index))
                    theirs = hard.choose(state, Rng(seed * 7919 + index))
                    kind = _kind(str(game.decode(theirs)))
                    seen[kind] += 1
                    agreed[kind] += mine == theirs
                    values = _values(state)
                    if mine != theirs and values:
                        valued += 1
                        ties += mine in values and abs(values[mine] - values[theirs]) < 1e-9
                    if mine != theirs and shown < args.show:
                        shown += 1
                        print(f"--- seed {seed}, decision {index}, seat {state.current_player}")
                        print(render_text(state))
                        if args.game == "skipbo":
                            print(f"seat's hand: {state.view(state.current_player)['hand']}")
                        print(f"hard:    {game.decode(theirs)}{_valued(values, theirs)}")
                        print(f"learned: {game.decode(mine)}{_valued(values, mine)}\n")
            state.advance(seats.choose(state, rng))
        seed += 1
    total = sum(seen.values())
    print(f"{args.game}, {total} decisions from {seed} games of {args.seats}:")
    same = sum(agreed.values())
    print(f"  learned plays hard's move in {same} ({same / total:.1%})")
    for kind, count in seen.most_common():
        print(f"  when hard plays '{kind}': {agreed[kind]} of {count} ({agreed[kind] / count:.1%})")
    if valued:
        print(f"  of the {valued} differences hard values, {ties} are ties in its values")

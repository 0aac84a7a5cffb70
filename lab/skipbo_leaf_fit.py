"""Fit a value of a Skip-Bo position for the expert's rollouts: stock cards to come.

    python -m lab skipbo_leaf_fit --games 400 --stock 30 --turns 8

Plays seeded ``hard``-vs-``hard`` games (2 players) and, at the start of every
turn, records each side's features (:func:`cardtable.bots.skipbo_value.features`)
and the stock cards that side plays in the next ``--turns`` turns of the round.
Least squares on the features gives, per side (the one to move and the other),
the expected stock cards to come; the script prints the coefficients as Python
tuples to paste into ``skipbo_value.py``, the fit's R² on held-out games, and the
R² of the stock top alone, for comparison.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import numpy as np

from cardtable.bots.skipbo_hard import HardBot
from cardtable.bots.skipbo_value import FEATURES, features
from cardtable.core import Rng
from cardtable.games import get_game
from cardtable.sim.tournament import game_seed
from cardtable.skipbo.state import SkipBoState

from .least_squares import fit, r2


def _samples(
    seed: int, stock: int, turns: int
) -> tuple[list[list[float]], list[float], list[list[float]], list[float]]:
    """(mover features, mover targets, other features, other targets) of one game."""
    game = get_game("skipbo")
    state = game.new_state(game.rules_from_json({"stock_size": stock}), seed)
    assert isinstance(state, SkipBoState)
    bots = [HardBot(), HardBot()]
    rng = Rng(seed)
    # Per turn start: (turn number, features of mover and other, stock sizes).
    starts: list[tuple[int, int, list[float], list[float]]] = []
    sizes: dict[int, tuple[int, int]] = {}
    last_turn = -1
    while not state.is_over:
        if state.turns != last_turn:
            last_turn = state.turns
            mover = state.current
            other = 1 - mover
            starts.append((state.turns, mover, features(state, mover), features(state, other)))
            sizes[state.turns] = (len(state.stocks[0]), len(state.stocks[1]))
        state.apply_action(bots[state.current].choose(state, rng))
    final = (len(state.stocks[0]), len(state.stocks[1]))
    moving_x: list[list[float]] = []
    moving_y: list[float] = []
    other_x: list[list[float]] = []
    other_y: list[float] = []
    for turn, mover, mine, theirs in starts:
        later = sizes.get(turn + turns, final)
        now = sizes[turn]
        moving_x.append(mine)
        moving_y.append(float(now[mover] - later[mover]))
        other_x.append(theirs)
        other_y.append(float(now[1 - mover] - later[1 - mover]))
    return moving_x, moving_y, other_x, other_y


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--stock", type=int, default=30)
    parser.add_argument("--turns", type=int, default=8)
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args(argv)
    if args.games < 5:  # every fifth game is held out to measure the fit
        parser.error(f"--games must be at least 5 (one held-out game in five), got {args.games}")
    data: dict[str, tuple[list[list[float]], list[float]]] = {
        "train mover": ([], []),
        "train other": ([], []),
        "test mover": ([], []),
        "test other": ([], []),
    }
    for index in range(args.games):
        part = "test" if index % 5 == 4 else "train"
        mx, my, ox, oy = _samples(game_seed(args.seed, index), args.stock, args.turns)
        data[f"{part} mover"][0].extend(mx)
        data[f"{part} mover"][1].extend(my)
        data[f"{part} other"][0].extend(ox)
        data[f"{part} other"][1].extend(oy)
    print(f"features: {', '.join(FEATURES)}")
    for side in ("mover", "other"):
        x, y = (np.array(v, dtype=float) for v in data[f"train {side}"])
        tx, ty = (np.array(v, dtype=float) for v in data[f"test {side}"])
        coef = fit(x, y)
        top = fit(x[:, :4], y)  # the stock top's gap alone
        print(
            f"{side}: {len(y)} positions, mean {y.mean():.3f} stock cards in {args.turns} turns; "
            f"held-out R2 {r2(coef, tx, ty):.3f} (stock top alone {r2(top, tx[:, :4], ty):.3f})"
        )
        print(f"{side.upper()} = ({', '.join(f'{c:.4f}' for c in coef)})")


if __name__ == "__main__":
    main()

"""Fit a value of a Skyjo position for the expert's short rollouts: round points to come.

    python -m lab skyjo_leaf_fit --games 100 --players 4

Plays seeded four-``hard`` games and, at the start of every turn, records each
player's features (:func:`cardtable.bots.skyjo_value.features`) and the points
that player scores when the round ends. Least squares on the features gives the
expected round points; the script prints the coefficients as a Python tuple to
paste into ``skyjo_value.py``, the fit's R² on held-out games, and the R² of
``hard``'s own value of the grid alone, for comparison.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import numpy as np

from cardtable.bots.skyjo_hard import HardBot
from cardtable.bots.skyjo_value import FEATURES, features
from cardtable.core import Rng
from cardtable.games import get_game
from cardtable.sim.tournament import game_seed
from cardtable.skyjo.state import TURN, SkyjoState

from .least_squares import fit, r2


def _samples(seed: int, players: int) -> tuple[list[list[float]], list[float]]:
    """(features, round points) of every player at every turn start of one game."""
    game = get_game("skyjo")
    state = game.new_state(game.rules_from_json({"players": players}), seed)
    assert isinstance(state, SkyjoState)
    bot = HardBot()
    rng = Rng(seed)
    pending: list[tuple[int, int, list[float]]] = []  # (round index, seat, features)
    xs: list[list[float]] = []
    ys: list[float] = []
    last = -1
    while not state.is_over:
        if state.phase == TURN and state.turns != last:
            last = state.turns
            for seat in range(state.n):
                pending.append((len(state.finished), seat, features(state, seat)))
        state.apply_action(bot.choose(state, rng))
        while pending and pending[0][0] < len(state.finished):
            index, seat, row = pending.pop(0)
            xs.append(row)
            ys.append(float(state.finished[index].points[seat]))
    return xs, ys


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args(argv)
    if args.games < 5:  # every fifth game is held out to measure the fit
        parser.error(f"--games must be at least 5 (one held-out game in five), got {args.games}")
    train_x: list[list[float]] = []
    train_y: list[float] = []
    test_x: list[list[float]] = []
    test_y: list[float] = []
    for index in range(args.games):
        rows, targets = _samples(game_seed(args.seed, index), args.players)
        if index % 5 == 4:
            test_x += rows
            test_y += targets
        else:
            train_x += rows
            train_y += targets
    x, y = np.array(train_x), np.array(train_y)
    tx, ty = np.array(test_x), np.array(test_y)
    coef = fit(x, y)
    own = FEATURES.index("hard's value")
    alone = fit(x[:, [own]], y)
    print(f"features: {', '.join(FEATURES)}")
    print(
        f"{len(y)} positions, mean {y.mean():.2f} round points; held-out R2 "
        f"{r2(coef, tx, ty):.3f} (hard's value alone {r2(alone, tx[:, [own]], ty):.3f})"
    )
    print(f"WEIGHTS = ({', '.join(f'{c:.4f}' for c in coef)})")


if __name__ == "__main__":
    main()

"""Fit the chance to win a 2-player Skip-Bo round from a position, for the expert's rollouts.

    python -m lab skipbo_win_fit --games 2000 --stock 30

Plays seeded ``hard``-vs-``hard`` games and, at the start of every turn, records
the mover's win features (:func:`cardtable.bots.skipbo_value.win_features`) and
whether the mover won the round. A logistic regression without intercept (the
features are antisymmetric, so the two sides' chances add up to one) gives the
weights to paste into ``skipbo_value.py`` as ``WIN``. The script prints the
held-out log loss and Brier score of the fit, of the stock sizes alone, and of
the fixed logistic the advisor uses (``1 / (1 + exp((mine - theirs) / 3))``).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence

import numpy as np

from cardtable.bots.skipbo_hard import HardBot
from cardtable.bots.skipbo_value import WIN_FEATURES, win_features
from cardtable.core import Rng
from cardtable.games import get_game
from cardtable.sim.tournament import game_seed
from cardtable.skipbo.state import SkipBoState


def _samples(seed: int, stock: int) -> tuple[list[list[float]], list[float], list[float]]:
    """(mover's win features, mover won, the fixed logistic's chance) at each turn start."""
    game = get_game("skipbo")
    state = game.new_state(game.rules_from_json({"stock_size": stock}), seed)
    assert isinstance(state, SkipBoState)
    bots = [HardBot(), HardBot()]
    rng = Rng(seed)
    rows: list[tuple[int, list[float], float]] = []
    last_turn = -1
    while not state.round_log:
        if state.turns != last_turn:
            last_turn = state.turns
            mover = state.current
            gap = len(state.stocks[mover]) - len(state.stocks[1 - mover])
            rows.append((mover, win_features(state, mover), 1.0 / (1.0 + math.exp(gap / 3.0))))
        state.apply_action(bots[state.current].choose(state, rng))
    winners = state.round_log[0].winners
    x = [features for _, features, _ in rows]
    y = [1.0 if mover in winners else 0.0 if winners else 0.5 for mover, _, _ in rows]
    fixed = [chance for _, _, chance in rows]
    return x, y, fixed


def logistic_fit(x: np.ndarray, y: np.ndarray, iterations: int = 30) -> np.ndarray:
    """Maximum-likelihood weights of ``P(y) = 1 / (1 + exp(-x @ w))`` by Newton's method."""
    weights = np.zeros(x.shape[1])
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(x @ weights)))
        gradient = x.T @ (y - p)
        hessian = (x * (p * (1.0 - p))[:, None]).T @ x + 1e-6 * np.eye(x.shape[1])
        step = np.linalg.solve(hessian, gradient)
        weights += step
        if np.max(np.abs(step)) < 1e-9:
            break
    return weights


def scores(p: np.ndarray, y: np.ndarray) -> str:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    loss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    brier = np.mean((p - y) ** 2)
    return f"log loss {loss:.4f}, Brier {brier:.4f}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--stock", type=int, default=30)
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args(argv)
    parts: dict[str, tuple[list[list[float]], list[float], list[float]]] = {
        "train": ([], [], []),
        "test": ([], [], []),
    }
    for index in range(args.games):
        part = parts["test" if index % 5 == 4 else "train"]
        rows, won, fixed = _samples(game_seed(args.seed, index), args.stock)
        part[0].extend(rows)
        part[1].extend(won)
        part[2].extend(fixed)
    x, y = np.array(parts["train"][0]), np.array(parts["train"][1])
    tx, ty = np.array(parts["test"][0]), np.array(parts["test"][1])
    weights = logistic_fit(x, y)
    sizes = [i for i, name in enumerate(WIN_FEATURES) if "stock" in name or "mover" in name]
    sizes_only = logistic_fit(x[:, sizes], y)
    print(f"features: {', '.join(WIN_FEATURES)}")
    print(f"train {len(y)} positions, test {len(ty)} (every fifth game)")
    print(f"fit:               {scores(1 / (1 + np.exp(-(tx @ weights))), ty)}")
    print(f"stock sizes alone: {scores(1 / (1 + np.exp(-(tx[:, sizes] @ sizes_only))), ty)}")
    print(f"fixed logistic:    {scores(np.array(parts['test'][2]), ty)}")
    print(f"coin:              {scores(np.full(len(ty), 0.5), ty)}")
    print(f"WIN = ({', '.join(f'{w:.4f}' for w in weights)})")


if __name__ == "__main__":
    main()

"""A round robin of bots and a Bradley-Terry rating with 95% intervals.

Every pair of bots plays a paired tournament (each deal once per seat rotation).
A game counts as a win for a bot when one of its seats is among the winners and
none of the other bot's seats is; shared wins count half to each, blocked games
count for nobody. The Bradley-Terry model says bot ``i`` beats ``j`` with
probability ``1 / (1 + exp(r_j - r_i))``; ratings are fitted by maximum
likelihood, shown on the Elo scale (400 points = a factor 10 in odds). The first
bot is the anchor: its rating is fixed at 0, not estimated, and every other rating
and interval is relative to it. Each interval is ``rating ± 1.96`` cluster-robust
standard errors: the sandwich of the inverse Fisher information around the scores
of the deals, each deal (its seat rotations) one cluster, since the games of one
deal are not independent. One virtual half win each way per pair keeps a bot that
never loses at a finite rating.

With ``engine="fast"`` every pair's games are played by the compiled batch engine
(:func:`~cardtable.sim.fast_tournament.run_fast_tournament`, extra ``fast``): the
same deals, seats and bot choices as the reference tournament, so the same table
for a seed, with only the bots the batch engine has (``random``, ``greedy``, and
``hard`` for Skyjo).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..bots import Bot
from ..core import JSON, Game, RulesBase
from .stats import z_score
from .tournament import TournamentResult, run_tournament

ELO = 400.0 / math.log(10.0)
PRIOR = 0.5


@dataclass(frozen=True, slots=True)
class Rating:
    name: str
    rating: float
    low: float
    high: float
    wins: float
    games: int

    def to_json(self) -> JSON:
        return {
            "name": self.name,
            "rating": self.rating,
            "low": self.low,
            "high": self.high,
            "wins": self.wins,
            "games": self.games,
        }


@dataclass(frozen=True)
class LadderResult:
    game: str
    rules: JSON
    seed: int
    games_per_pair: int
    ratings: tuple[Rating, ...]
    """Best first."""
    pairs: tuple[tuple[str, str, float, float], ...]
    """(a, b, wins of a, wins of b) per pair."""
    anchor: str = ""
    """The bot whose rating is fixed at 0; the others are relative to it."""

    def to_json(self) -> JSON:
        return {
            "anchor": self.anchor,
            "game": self.game,
            "rules": self.rules,
            "seed": self.seed,
            "games_per_pair": self.games_per_pair,
            "ratings": [rating.to_json() for rating in self.ratings],
            "pairs": [{"a": a, "b": b, "wins_a": wa, "wins_b": wb} for a, b, wa, wb in self.pairs],
        }


def pair_wins(result: TournamentResult, a: str, b: str) -> tuple[float, float]:
    """Wins of ``a`` and of ``b`` in a tournament between the two (shared wins count half)."""
    wins_a = wins_b = 0.0
    for record in result.records:
        won = {record.bots[seat] for seat in record.winners}
        if won == {a}:
            wins_a += 1
        elif won == {b}:
            wins_b += 1
        elif won == {a, b}:
            wins_a += 0.5
            wins_b += 0.5
    return wins_a, wins_b


def deal_wins(result: TournamentResult, a: str, b: str) -> list[tuple[float, float]]:
    """:func:`pair_wins` per deal (the records sharing a deal seed), in deal order."""
    per_deal: dict[int, list[float]] = {}
    for record in result.records:
        tally = per_deal.setdefault(record.seed, [0.0, 0.0])
        won = {record.bots[seat] for seat in record.winners}
        if won == {a}:
            tally[0] += 1
        elif won == {b}:
            tally[1] += 1
        elif won == {a, b}:
            tally[0] += 0.5
            tally[1] += 0.5
    return [(wins_a, wins_b) for wins_a, wins_b in per_deal.values()]


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gauss-Jordan elimination with partial pivoting (small dense systems)."""
    n = len(vector)
    rows = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        if abs(lead) < 1e-300:
            raise ZeroDivisionError("singular matrix")
        rows[col] = [value / lead for value in rows[col]]
        for r in range(n):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [row[n] for row in rows]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    n = len(matrix)
    columns = [_solve(matrix, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[columns[j][i] for j in range(n)] for i in range(n)]


def bradley_terry(
    names: Sequence[str],
    wins: dict[tuple[int, int], float],
    deals: Sequence[tuple[int, int, float, float]] | None = None,
) -> list[tuple[float, float]]:
    """Ratings (natural log-odds scale, ``names[0]`` at 0) and their standard errors.

    ``wins[i, j]`` is how often ``i`` beat ``j``. Fitted by Newton's method on the
    log-likelihood with the prior of :data:`PRIOR` virtual wins each way per pair.
    ``names[0]`` is the anchor, fixed at 0 (its error is 0): the errors of the others
    are those of their difference to it. Without ``deals`` they come from the inverse
    Fisher information (games independent); with ``deals``, one ``(i, j, wins of i,
    wins of j)`` per deal, from the cluster-robust sandwich ``I^-1 B I^-1`` where ``B``
    sums the outer products of each deal's score (with the ``C / (C - 1)`` factor over
    the ``C`` deals), since the seat rotations of one deal are not independent games.
    """
    k = len(names)
    w = [[0.0] * k for _ in range(k)]
    for (i, j), count in wins.items():
        w[i][j] += count
    for i, j in itertools.permutations(range(k), 2):
        w[i][j] += PRIOR
    theta = [0.0] * k
    free = list(range(1, k))

    def fisher(theta: list[float]) -> tuple[list[float], list[list[float]]]:
        grad = [0.0] * k
        info = [[0.0] * k for _ in range(k)]
        for i, j in itertools.combinations(range(k), 2):
            n = w[i][j] + w[j][i]
            p = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
            grad[i] += w[i][j] - n * p
            grad[j] -= w[i][j] - n * p
            h = n * p * (1.0 - p)
            info[i][i] += h
            info[j][j] += h
            info[i][j] -= h
            info[j][i] -= h
        return grad, info

    for _ in range(100):
        grad, info = fisher(theta)
        step = _solve([[info[a][b] for b in free] for a in free], [grad[a] for a in free])
        for a, delta in zip(free, step, strict=True):
            theta[a] += delta
        if max((abs(s) for s in step), default=0.0) < 1e-10:
            break
    _, info = fisher(theta)
    errors = [0.0] * k
    if free:
        cov = _inverse([[info[a][b] for b in free] for a in free])
        if deals:
            cov = _sandwich(cov, _deal_meat(theta, free, deals))
        for index, a in enumerate(free):
            errors[a] = math.sqrt(max(0.0, cov[index][index]))
    return list(zip(theta, errors, strict=True))


def _deal_meat(
    theta: list[float], free: list[int], deals: Sequence[tuple[int, int, float, float]]
) -> list[list[float]]:
    """``C / (C - 1) * sum_d g_d g_d^T`` over the free ratings, ``g_d`` the score of deal d."""
    position = {a: index for index, a in enumerate(free)}
    size = len(free)
    meat = [[0.0] * size for _ in range(size)]
    for i, j, wins_i, wins_j in deals:
        p = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
        g = wins_i - (wins_i + wins_j) * p
        score = [0.0] * size
        if i in position:
            score[position[i]] += g
        if j in position:
            score[position[j]] -= g
        for a in range(size):
            for b in range(size):
                meat[a][b] += score[a] * score[b]
    count = len(deals)
    factor = count / (count - 1) if count > 1 else 1.0
    return [[factor * value for value in row] for row in meat]


def _sandwich(bread: list[list[float]], meat: list[list[float]]) -> list[list[float]]:
    size = len(bread)

    def product(x: list[list[float]], y: list[list[float]]) -> list[list[float]]:
        return [
            [math.fsum(x[a][c] * y[c][b] for c in range(size)) for b in range(size)]
            for a in range(size)
        ]

    return product(product(bread, meat), bread)


def run_ladder(
    game: Game[Any],
    rules: RulesBase,
    names: Sequence[str],
    games_per_pair: int,
    seed: int,
    *,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    bot_factory: Callable[[str], Bot] | None = None,
    cluster: str | None = None,
    engine: str = "reference",
) -> LadderResult:
    """Round robin of ``names`` (paired games, ``games_per_pair`` each) and its ratings;
    ``cluster``: a Dask scheduler address to play the games on (see ``run_tournament``).
    ``engine``: ``"reference"`` (the default) or ``"fast"``, the compiled batch engine on
    one core (the same result for a seed). Every refusal (ValueError; KeyError for a
    game without a batch engine) comes before any game is played."""
    if len(names) < 2:
        raise ValueError("a ladder needs at least two bots")
    if engine not in ("reference", "fast"):
        raise ValueError(f"engine must be 'reference' or 'fast', got {engine!r}")
    if engine == "fast":
        from .fast_tournament import fast_bot_names

        known = fast_bot_names(game.name)
        unknown = sorted(set(names) - set(known))
        if unknown:
            raise ValueError(
                f"--engine fast plays the bots {', '.join(known)} only, not {', '.join(unknown)}"
            )
        if workers != 1 or cluster is not None or bot_factory is not None:
            raise ValueError(
                "--engine fast plays on one core with its own bots: "
                "leave out --workers and --cluster"
            )
    index = {name: i for i, name in enumerate(names)}
    wins: dict[tuple[int, int], float] = {}
    deals: list[tuple[int, int, float, float]] = []
    pairs = []
    done = 0
    for a, b in itertools.combinations(names, 2):
        offset = done

        def step(count: int, offset: int = offset) -> None:
            if progress is not None:
                progress(offset + count)

        if engine == "fast":
            from .fast_tournament import run_fast_tournament

            result = run_fast_tournament(
                game, rules, [a, b], games_per_pair, seed, paired=True, progress=step
            )
        else:
            result = run_tournament(
                game,
                rules,
                [a, b],
                games_per_pair,
                seed,
                paired=True,
                workers=workers,
                progress=step,
                bot_factory=bot_factory,
                cluster=cluster,
            )
        done += games_per_pair
        wins_a, wins_b = pair_wins(result, a, b)
        wins[index[a], index[b]] = wins_a
        wins[index[b], index[a]] = wins_b
        pairs.append((a, b, wins_a, wins_b))
        deals += [(index[a], index[b], *counts) for counts in deal_wins(result, a, b)]
    fitted = bradley_terry(names, wins, deals)
    z = z_score(0.95)
    ratings = []
    for i, name in enumerate(names):
        theta, error = fitted[i]
        won = sum(wins.get((i, j), 0.0) for j in range(len(names)) if j != i)
        ratings.append(
            Rating(
                name,
                ELO * theta,
                ELO * (theta - z * error),
                ELO * (theta + z * error),
                won,
                games_per_pair * (len(names) - 1),
            )
        )
    ratings.sort(key=lambda r: -r.rating)
    return LadderResult(
        game.name, rules.to_json(), seed, games_per_pair, tuple(ratings), tuple(pairs), names[0]
    )

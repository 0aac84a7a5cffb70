"""Plots of tournament results (matplotlib, extra ``plots``).

The trainer's curves are :mod:`cardtable.rl.training_plot`'s."""

from __future__ import annotations

from pathlib import Path

from .tournament import TournamentResult


def plot_tournament(result: TournamentResult, path: Path) -> None:
    """Win rates with their 95% intervals, and the distribution of points per round."""
    import matplotlib

    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    names = [bot.name for bot in result.bots]
    rates = [bot.win_rate.estimate for bot in result.bots]
    errors = [
        [bot.win_rate.estimate - bot.win_rate.low for bot in result.bots],
        [bot.win_rate.high - bot.win_rate.estimate for bot in result.bots],
    ]
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    left.bar(names, rates, yerr=errors, capsize=6, color="#4c78a8")
    left.set_ylim(0, 1)
    left.set_ylabel("win rate (95% Wilson interval)")
    left.set_title(f"{result.game}: {result.games} games" + (", paired" if result.paired else ""))
    for bot in result.bots:
        points = [
            round_points[seat]
            for record in result.records
            for seat, name in enumerate(record.bots)
            if name == bot.name
            for round_points in record.round_points
        ]
        if points:
            right.hist(points, bins=30, alpha=0.55, label=bot.name)
    right.set_xlabel("points per round")
    right.set_ylabel("rounds")
    right.set_title("score distribution")
    right.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)

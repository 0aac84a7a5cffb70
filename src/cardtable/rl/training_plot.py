"""The trainer's curves: ``python -m cardtable.rl.training_plot FOLDER OUT.png`` (extra
``plots``).

Reads ``FOLDER/log.csv`` (:mod:`cardtable.rl.train`) and draws, against the training
steps, the evaluation's win rate and the points of the learner and of its opponents
(per round for Skyjo, per game for Skip-Bo), with the entropy of the policy.
"""

from __future__ import annotations

import argparse
import csv
from collections.abc import Sequence
from pathlib import Path


def read_log(folder: Path) -> list[dict[str, str]]:
    with (folder / "log.csv").open(newline="") as handle:
        return list(csv.DictReader(handle))


def plot_training(folder: Path, path: Path, title: str | None = None) -> None:
    import matplotlib

    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    rows = read_log(folder)
    evals = [row for row in rows if row.get("eval_win_rate")]
    if not evals:
        raise SystemExit(f"{folder / 'log.csv'} holds no evaluation yet")
    steps = [int(row["steps"]) / 1e6 for row in evals]
    opponents = evals[-1]["eval_opponents"]
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    left.plot(steps, [float(row["eval_win_rate"]) for row in evals], color="#4c78a8")
    left.set_xlabel("training steps (millions)")
    left.set_ylabel(f"win rate against {opponents}")
    left.set_ylim(0, max(0.6, max(float(row["eval_win_rate"]) for row in evals) + 0.05))
    left.grid(alpha=0.3)
    right.plot(steps, [float(row["eval_points"]) for row in evals], label="learner")
    right.plot(
        steps, [float(row["eval_opponent_points"]) for row in evals], label=f"{opponents} (mean)"
    )
    right.set_xlabel("training steps (millions)")
    right.set_ylabel("points (per round for Skyjo, per game for Skip-Bo)")
    right.legend()
    right.grid(alpha=0.3)
    figure.suptitle(title or f"{folder.name}: {evals[-1]['eval_games']} games an evaluation")
    figure.tight_layout()
    figure.savefig(path, dpi=90)
    plt.close(figure)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cardtable.rl.training_plot")
    parser.add_argument("folder", type=Path, help="a training run's folder (its log.csv)")
    parser.add_argument("out", type=Path, help="the picture to write (.png)")
    parser.add_argument("--title", default=None)
    args = parser.parse_args(argv)
    plot_training(args.folder, args.out, args.title)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

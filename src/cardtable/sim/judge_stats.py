"""The judge's arithmetic (:mod:`cardtable.sim.judge`): paired losses with a control variate.

Every re-deal plays every candidate (column 0: the played move), so the loss of the
played move against candidate ``m`` is a mean of paired differences. Where a move
brings a hidden card to light (a card turned up, the card drawn), that card is
recorded as its *control*: its mean over the re-deals is known exactly (the mean of
the cards it is dealt from), so the part of the difference it explains, fitted by
least squares on the two moves' controls, is taken out at no bias. Luck of the card
turned up is most of a Skyjo rollout's spread; the standard error shrinks with it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray


@dataclass
class Samples:
    """The candidates' outcomes, re-deal by re-deal, and their controls."""

    higher_better: bool
    means: Sequence[float]
    """Each candidate's control's exact mean (``nan``: the candidate has none)."""
    values: list[NDArray[np.float64]] = field(default_factory=list)
    controls: list[NDArray[np.float64]] = field(default_factory=list)

    def add(self, values: NDArray[np.float64], controls: NDArray[np.float64] | None) -> None:
        self.values.append(values)
        self.controls.append(np.full_like(values, np.nan) if controls is None else controls)

    def keep(self, columns: Sequence[int]) -> None:
        """Keep the candidates ``columns`` alone, in that order."""
        index = list(columns)
        self.means = [self.means[m] for m in index]
        self.values = [block[:, index] for block in self.values]
        self.controls = [block[:, index] for block in self.controls]

    @property
    def count(self) -> int:
        return sum(len(block) for block in self.values)

    def _arrays(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        return np.concatenate(self.values), np.concatenate(self.controls)

    def _regressors(self, controls: NDArray[np.float64], columns: Sequence[int]) -> Any:
        """The centred controls of ``columns`` that vary, as columns of a matrix."""
        kept = []
        for m in columns:
            mean = self.means[m]
            column = controls[:, m]
            if math.isnan(mean) or np.isnan(column).any():
                continue
            centred = column - mean
            if np.ptp(centred) > 0:
                kept.append(centred)
        return np.stack(kept, axis=1) if kept else None

    def _adjusted(self, samples: NDArray[np.float64], x: Any) -> NDArray[np.float64]:
        """``samples`` less the part the centred controls ``x`` explain (least squares)."""
        if x is None or len(samples) <= x.shape[1] + 1:
            return samples
        centred = x - x.mean(axis=0)
        beta, *_ = np.linalg.lstsq(centred, samples - samples.mean(), rcond=None)
        adjusted: NDArray[np.float64] = samples - x @ beta
        return adjusted

    def column_means(self) -> list[float]:
        """Each candidate's mean outcome, its control's luck taken out."""
        values, controls = self._arrays()
        return [
            float(self._adjusted(values[:, m], self._regressors(controls, [m])).mean())
            for m in range(values.shape[1])
        ]

    def best(self) -> int:
        """The candidate with the best mean outcome (ties: the earlier; 0 is the played)."""
        means = self.column_means()
        sign = 1.0 if self.higher_better else -1.0
        return max(range(len(means)), key=lambda m: (sign * means[m], -m))

    def best_other(self) -> int:
        """The best candidate other than the played move (None without one: 0)."""
        means = self.column_means()
        if len(means) < 2:
            return 0
        sign = 1.0 if self.higher_better else -1.0
        return max(range(1, len(means)), key=lambda m: (sign * means[m], -m))

    def loss(self, m: int) -> tuple[float, float]:
        """The played move's mean loss against candidate ``m`` and its standard error."""
        values, controls = self._arrays()
        if m == 0:
            return 0.0, 0.0
        differences = values[:, m] - values[:, 0]
        if not self.higher_better:
            differences = -differences
        adjusted = self._adjusted(differences, self._regressors(controls, [0, m]))
        count = len(adjusted)
        if count < 2:
            return float(adjusted.mean()), math.inf
        return float(adjusted.mean()), float(adjusted.std(ddof=1) / math.sqrt(count))

"""Small, exact statistics for reporting simulation results (standard library only)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist


@dataclass(frozen=True, slots=True)
class Interval:
    """A confidence interval ``[low, high]`` around a point estimate."""

    estimate: float
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class Estimate:
    """A sample mean with its standard error (``stderr`` is 0 for fewer than two samples)."""

    mean: float
    stderr: float
    n: int


def z_score(confidence: float) -> float:
    """The two-sided normal quantile, e.g. 1.95996... for 95%."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def wilson_interval(successes: int, trials: int, confidence: float = 0.95) -> Interval:
    """Wilson score interval for a binomial proportion.

    Preferred over the normal ("Wald") interval because it stays inside [0, 1] and
    keeps a sensible width when the proportion is 0 or 1, which happens often with
    a strong bot against a random one. With no trials nothing is known: [0, 1].
    """
    if trials < 0 or not 0 <= successes <= max(trials, 0):
        raise ValueError(f"need 0 <= successes <= trials, got {successes}/{trials}")
    if trials == 0:
        return Interval(0.0, 0.0, 1.0)
    z = z_score(confidence)
    p = successes / trials
    z2n = z * z / trials
    centre = (p + z2n / 2.0) / (1.0 + z2n)
    half = z * math.sqrt(p * (1.0 - p) / trials + z2n / (4.0 * trials)) / (1.0 + z2n)
    # The exact ends are 0 and 1 at the edges; clamping removes rounding noise there.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return Interval(p, low, high)


def mean_estimate(values: Sequence[float]) -> Estimate:
    """Sample mean and its standard error (sample standard deviation / sqrt(n))."""
    n = len(values)
    if n == 0:
        return Estimate(0.0, 0.0, 0)
    mean = math.fsum(values) / n
    if n < 2:
        return Estimate(mean, 0.0, n)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return Estimate(mean, math.sqrt(variance / n), n)

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


def cluster_mean(clusters: Sequence[tuple[float, int]]) -> Estimate:
    """The mean of values that come in correlated clusters, with a cluster-robust error.

    ``clusters`` holds, per cluster, the sum of its values and how many there are (for
    instance the wins of a bot and its games in the seat rotations of one deal: games of
    one deal are not independent). The mean is the ratio of the sums; its variance is the
    cluster-robust ("sandwich", CR1) estimate ``C / (C - 1) * sum_c (y_c - mean m_c)^2 /
    (sum_c m_c)^2`` over the ``C`` clusters, which treats clusters, not values, as the
    independent draws. With one value a cluster it is the usual standard error of a mean
    (up to its ``n / (n - 1)`` factor). ``n`` is the number of clusters; fewer than two
    give a standard error of 0.
    """
    used = [(float(total), count) for total, count in clusters if count > 0]
    size = sum(count for _, count in used)
    if size == 0:
        return Estimate(0.0, 0.0, 0)
    mean = math.fsum(total for total, _ in used) / size
    c = len(used)
    if c < 2:
        return Estimate(mean, 0.0, c)
    spread = math.fsum((total - mean * count) ** 2 for total, count in used)
    return Estimate(mean, math.sqrt(c / (c - 1) * spread) / size, c)


def cluster_interval(clusters: Sequence[tuple[float, int]], confidence: float = 0.95) -> Interval:
    """A proportion's normal interval from :func:`cluster_mean`, kept inside [0, 1]."""
    estimate = cluster_mean(clusters)
    if estimate.n == 0:
        return Interval(0.0, 0.0, 1.0)
    half = z_score(confidence) * estimate.stderr
    return Interval(estimate.mean, max(0.0, estimate.mean - half), min(1.0, estimate.mean + half))

import math

import pytest

from cardtable.sim.stats import Estimate, mean_estimate, wilson_interval, z_score


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # Reference values from R: prop.test(x, n, correct = FALSE)$conf.int
        (5, 10, 0.2365931, 0.7634069),
        (1, 10, 0.0178762, 0.4041500),
        (81, 263, 0.2552885, 0.3662096),
    ],
)
def test_wilson_matches_reference_values(successes: int, trials: int, low: float, high: float):
    interval = wilson_interval(successes, trials)
    assert interval.estimate == pytest.approx(successes / trials)
    assert interval.low == pytest.approx(low, abs=1e-6)
    assert interval.high == pytest.approx(high, abs=1e-6)


def test_wilson_at_zero_successes_starts_at_zero():
    interval = wilson_interval(0, 10)
    assert (interval.estimate, interval.low) == (0.0, 0.0)
    # Closed form at the edge: z^2 / (n + z^2).
    z2 = z_score(0.95) ** 2
    assert interval.high == pytest.approx(z2 / (10 + z2))


def test_wilson_at_all_successes_ends_at_one():
    interval = wilson_interval(10, 10)
    assert (interval.estimate, interval.high) == (1.0, 1.0)
    z2 = z_score(0.95) ** 2
    assert interval.low == pytest.approx(10 / (10 + z2))


def test_wilson_without_trials_knows_nothing():
    interval = wilson_interval(0, 0)
    assert (interval.low, interval.high) == (0.0, 1.0)


def test_wilson_is_symmetric_and_narrows_with_more_trials():
    left, right = wilson_interval(3, 20), wilson_interval(17, 20)
    assert left.low == pytest.approx(1 - right.high)
    assert left.high == pytest.approx(1 - right.low)
    small, large = wilson_interval(30, 100), wilson_interval(300, 1000)
    assert large.high - large.low < small.high - small.low


def test_wilson_confidence_level_widens_the_interval():
    assert z_score(0.95) == pytest.approx(1.959964, abs=1e-6)
    narrow, wide = wilson_interval(5, 10, 0.90), wilson_interval(5, 10, 0.99)
    assert wide.low < narrow.low and narrow.high < wide.high


@pytest.mark.parametrize(("successes", "trials"), [(-1, 10), (11, 10), (0, -1)])
def test_wilson_rejects_impossible_counts(successes: int, trials: int):
    with pytest.raises(ValueError):
        wilson_interval(successes, trials)


@pytest.mark.parametrize("confidence", [0.0, 1.0, 1.5])
def test_confidence_must_be_a_proper_fraction(confidence: float):
    with pytest.raises(ValueError):
        z_score(confidence)


def test_mean_and_standard_error():
    estimate = mean_estimate([1, 2, 3, 4])
    assert estimate.mean == 2.5
    assert estimate.n == 4
    # sample sd = sqrt(5/3); stderr = sd / 2
    assert estimate.stderr == pytest.approx(math.sqrt(5 / 3) / 2)


def test_mean_of_few_values():
    assert mean_estimate([]) == Estimate(0.0, 0.0, 0)
    assert mean_estimate([7]) == Estimate(7.0, 0.0, 1)
    assert mean_estimate([3, 3, 3]).stderr == 0.0

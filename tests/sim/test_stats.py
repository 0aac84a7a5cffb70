import math

import pytest

from cardtable.sim.stats import Estimate, Interval, mean_estimate, wilson_interval, z_score


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


def test_cluster_mean_by_hand():
    """Three clusters (2/4, 3/4, 0/2): mean 5/10; residuals 0, 1, -1; CR1 variance
    3/2 * 2 / 100."""
    from cardtable.sim.stats import cluster_mean

    estimate = cluster_mean([(2, 4), (3, 4), (0, 2)])
    assert estimate.mean == pytest.approx(0.5)
    assert estimate.stderr == pytest.approx(math.sqrt(1.5 * 2 / 100))
    assert estimate.n == 3
    assert cluster_mean([]) == Estimate(0.0, 0.0, 0)
    assert cluster_mean([(3, 4)]) == Estimate(0.75, 0.0, 1)


def test_cluster_mean_of_singletons_is_the_usual_standard_error():
    from cardtable.sim.stats import cluster_mean

    values = [1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0]
    plain = mean_estimate(values)
    clustered = cluster_mean([(v, 1) for v in values])
    assert clustered.mean == pytest.approx(plain.mean)
    # CR1 over n singletons: n/(n-1) * sum e^2 / n^2, the plain one sum e^2 / ((n-1) n).
    assert clustered.stderr == pytest.approx(plain.stderr)


def test_correlated_games_widen_the_interval():
    """Four rotations of one deal that always end alike carry one deal's information:
    the cluster interval is as wide as that of the deals alone, twice the naive one."""
    from cardtable.sim.stats import cluster_interval

    deals = [1, 0, 1, 1, 0, 1, 1, 0, 1, 0, 1, 1]
    alone = cluster_interval([(w, 1) for w in deals])
    repeated = cluster_interval([(4 * w, 4) for w in deals])
    naive = cluster_interval([(w, 1) for w in deals for _ in range(4)])
    assert repeated.estimate == alone.estimate == naive.estimate
    assert repeated.high - repeated.low == pytest.approx(alone.high - alone.low)
    assert repeated.high - repeated.low > 1.9 * (naive.high - naive.low)
    assert cluster_interval([]) == Interval(0.0, 0.0, 1.0)


def test_bradley_terry_intervals_treat_a_deal_as_one_cluster():
    """Two rotations of each deal that always go the same way carry half the games'
    information: the deal-clustered error is sqrt(2) times the independent-games one;
    rotations that always split make the error smaller instead. The anchor stays at 0."""
    from cardtable.sim.ladder import bradley_terry

    names = ["anchor", "other"]
    same = [(0, 1, 2.0, 0.0)] * 60 + [(0, 1, 0.0, 2.0)] * 40
    split = [(0, 1, 1.0, 1.0)] * 100
    wins = {(0, 1): 120.0, (1, 0): 80.0}
    plain = bradley_terry(names, wins)
    clustered = bradley_terry(names, wins, same)
    assert plain[0] == clustered[0] == (0.0, 0.0)
    assert clustered[1][0] == pytest.approx(plain[1][0])
    assert clustered[1][1] / plain[1][1] == pytest.approx(math.sqrt(2), rel=0.05)
    even = {(0, 1): 100.0, (1, 0): 100.0}
    assert bradley_terry(names, even, split)[1][1] < 0.1 * bradley_terry(names, even)[1][1]

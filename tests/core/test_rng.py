from collections import Counter

import pytest

from cardtable.core import Rng
from cardtable.core.rng import BATCH_MIN


def test_same_seed_same_sequence_and_known_first_values() -> None:
    a, b = Rng(2024), Rng(2024)
    assert [a.next64() for _ in range(5)] == [b.next64() for _ in range(5)]
    # SplitMix64 reference value for seed 0 (the generator's published first output).
    assert Rng(0).next64() == 0xE220A8397B1DCDAF


def test_below_is_in_range_and_roughly_uniform() -> None:
    rng = Rng(7)
    counts = Counter(rng.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(9_000 < count < 11_000 for count in counts.values())


def test_below_rejects_an_empty_range() -> None:
    with pytest.raises(ValueError):
        Rng(1).below(0)


def test_shuffle_is_a_permutation_and_depends_on_the_seed() -> None:
    items = list(range(50))
    a, b = items[:], items[:]
    Rng(1).shuffle(a)
    Rng(2).shuffle(b)
    assert sorted(a) == items and sorted(b) == items
    assert a != b != items


def test_clone_and_from_state_continue_identically() -> None:
    rng = Rng(5)
    rng.next64()
    copy, restored = rng.clone(), Rng.from_state(rng.state)
    assert [rng.below(100) for _ in range(10)] == [copy.below(100) for _ in range(10)]
    assert restored.state == Rng(5).next64() * 0 + restored.state
    assert copy == rng


def test_random_floats_lie_in_the_unit_interval() -> None:
    rng = Rng(3)
    values = [rng.random() for _ in range(1000)]
    assert all(0.0 <= value < 1.0 for value in values)
    assert 0.4 < sum(values) / len(values) < 0.6


def test_seed_must_be_an_integer() -> None:
    with pytest.raises(TypeError):
        Rng("seed")  # type: ignore[arg-type]


def _reference_below(rng: Rng, n: int) -> int:
    """Lemire's method written plainly over next64(), as below() was first written."""
    m = rng.next64() * n
    low = m & ((1 << 64) - 1)
    if low < n:
        threshold = ((1 << 64) - n) % n
        while low < threshold:
            m = rng.next64() * n
            low = m & ((1 << 64) - 1)
    return m >> 64


def test_inlined_below_and_shuffle_draw_exactly_as_the_plain_method() -> None:
    # Huge bounds make the rejection branch common, so it is exercised too.
    bounds = [1, 2, 3, 7, 150, 162, 2**63 + 12345, 2**64 - 1]
    for seed in range(200):
        fast, plain = Rng(seed), Rng(seed)
        for n in bounds:
            assert fast.below(n) == _reference_below(plain, n)
        assert fast.state == plain.state
        items = list(range(seed % 170))
        expected = items[:]
        for i in range(len(expected) - 1, 0, -1):
            j = _reference_below(plain, i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        fast.shuffle(items)
        assert items == expected and fast.state == plain.state


def _reference_shuffle(rng: Rng, items: list[int]) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = _reference_below(rng, i + 1)
        items[i], items[j] = items[j], items[i]


@pytest.mark.parametrize("size", [0, 1, 2, BATCH_MIN - 1, BATCH_MIN, 40, 150, 162, 1500])
def test_batched_shuffle_draws_exactly_as_the_plain_method(size: int) -> None:
    for seed in range(40):
        fast, plain = Rng(seed * 7919), Rng(seed * 7919)
        items, expected = list(range(size)), list(range(size))
        fast.shuffle(items)
        _reference_shuffle(plain, expected)
        assert items == expected and fast.state == plain.state
        assert fast.below(1000) == plain.below(1000)


@pytest.mark.parametrize(("size", "draw"), [(20, 1), (20, 7), (20, 18), (150, 1), (150, 90)])
def test_batched_shuffle_follows_a_rejected_draw_exactly(size: int, draw: int) -> None:
    """A rejected draw (Lemire's retry, about once in 2**57 draws) leaves the batch.

    SplitMix64 maps the state 0 to the output 0, which every bound that is not a power
    of two rejects; the start is chosen so that draw number ``draw`` meets that state.
    """
    start = (-draw * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
    assert Rng.from_state((start + (draw - 1) * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)).next64() == 0
    n = size - draw + 1
    assert (1 << 64) % n, "the bound must reject 0"
    fast, plain = Rng.from_state(start), Rng.from_state(start)
    items, expected = list(range(size)), list(range(size))
    fast.shuffle(items)
    _reference_shuffle(plain, expected)
    assert items == expected and fast.state == plain.state
    # The rejected draw took one more number than the plain count of size - 1.
    assert fast.state != (start + (size - 1) * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)

"""Our vectorised HDR helpers against HdrHistogram's own methods on the same values, exactly.

The reference is a histogram built here with YCSB's settings (1 µs .. 1 h, 3 significant digits)
and filled one ``record_value`` at a time; its percentiles, mean, min, max and encoding are
HdrHistogram's, not ours.
"""

from __future__ import annotations

import numpy as np
import pytest
from hdrh.histogram import HdrHistogram

from ycsbctl.results import histogram as hdr

pytestmark = pytest.mark.truth

ONE_HOUR_US = 3_600_000_000
PERCENTILES = (0.0, 0.001, 1.0, 10.0, 25.0, 50.0, 75.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.99, 99.999, 100.0)


def _reference(values) -> HdrHistogram:
    h = HdrHistogram(1, ONE_HOUR_US, 3)
    for v in values:
        assert h.record_value(int(v))
    return h


def _ours(values) -> HdrHistogram:
    h = hdr.new_histogram()
    hdr.record_many(h, np.asarray(values, dtype=np.int64))
    return h


def _latencies(seed: int, n: int) -> np.ndarray:
    """Latency-like µs values over six decades, with every bucket edge of the first buckets."""
    rng = np.random.default_rng(seed)
    body = rng.lognormal(mean=6.0, sigma=1.5, size=n).astype(np.int64)
    tail = rng.integers(0, 50_000_000, size=n // 20)
    edges = np.array([0, 1, 2, 1023, 1024, 2047, 2048, 2049, 4095, 4096, 8191, 8192, 65_535, 65_536, 1_000_000,
                      ONE_HOUR_US - 1, ONE_HOUR_US])
    return np.concatenate([body, tail, edges])


def _same_counts(a: HdrHistogram, b: HdrHistogram) -> None:
    assert a.counts_len == b.counts_len
    assert np.array_equal(np.ctypeslib.as_array(a.counts), np.ctypeslib.as_array(b.counts))
    assert a.get_total_count() == b.get_total_count()
    assert a.get_min_value() == b.get_min_value() and a.get_max_value() == b.get_max_value()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_record_many_fills_the_same_buckets_as_record_value(seed):
    values = _latencies(seed, 5000)
    ours, ref = _ours(values), _reference(values)
    _same_counts(ours, ref)
    assert hdr.encode(ours) == ref.encode().decode("ascii")


def test_record_many_adds_to_what_is_already_recorded():
    a, b = _latencies(4, 800), _latencies(5, 800)
    h = _ours(a)
    hdr.record_many(h, b)
    hdr.record_many(h, [])
    _same_counts(h, _reference(np.concatenate([a, b])))


def test_each_single_value_lands_in_its_own_bucket():
    # One value at a time: a bucket index one off, or value+1, shows on the first value it moves.
    for v in [0, 1, 2, 3, 7, 100, 2047, 2048, 2049, 3000, 4096, 10_001, 123_456, 7_654_321]:
        ours, ref = _ours([v]), _reference([v])
        _same_counts(ours, ref)
        assert hdr.percentiles_us(ours, [50.0])[50.0] == ref.get_value_at_percentile(50.0), v


def test_negative_values_count_as_zero_and_values_past_one_hour_as_one_hour():
    _same_counts(_ours([-5, -1]), _reference([0, 0]))
    _same_counts(_ours([ONE_HOUR_US + 1, 10 * ONE_HOUR_US]), _reference([ONE_HOUR_US, ONE_HOUR_US]))


@pytest.mark.parametrize("seed", [6, 7])
def test_percentiles_are_hdrhistograms_own(seed):
    rng = np.random.default_rng(seed)
    values = _latencies(seed, 3000)
    ours, ref = _ours(values), _reference(values)
    points = list(PERCENTILES) + sorted(rng.uniform(0, 100, size=20).round(3).tolist())
    got = hdr.percentiles_us(ours, points)
    assert got == {p: ref.get_value_at_percentile(p) for p in points}


@pytest.mark.parametrize("n", [1, 2, 3, 10, 99, 100, 101, 1000])
def test_percentile_ranks_on_small_counts(n):
    # With few values every rank is its own value: a rank one off shows.
    values = np.arange(1, n + 1) * 37
    ours, ref = _ours(values), _reference(values)
    points = list(PERCENTILES) + [100 * k / n for k in range(n + 1)][:200]
    assert hdr.percentiles_us(ours, points) == {p: ref.get_value_at_percentile(p) for p in points}


def test_mean_is_hdrhistograms_own():
    for seed in (8, 9):
        values = _latencies(seed, 2000)
        assert hdr.mean_us(_ours(values)) == pytest.approx(_reference(values).get_mean_value(), rel=1e-12)
    assert hdr.mean_us(_ours([1000] * 7)) == _reference([1000] * 7).get_mean_value() == 1000.0


def test_empty_histogram_gives_zeros_and_no_mean():
    h = hdr.new_histogram()
    assert hdr.percentiles_us(h, [50.0, 99.0]) == {50.0: 0, 99.0: 0}
    assert np.isnan(hdr.mean_us(h))


def test_merge_of_per_process_histograms_equals_one_histogram_of_all_values():
    values = _latencies(10, 6000)
    parts = np.array_split(values, 3)
    # As the engine does: each worker records its part, encodes it; the parent decodes and merges.
    shipped = [hdr.decode(hdr.encode(_ours(p))) for p in parts]
    merged = hdr.merge([shipped[0], None, hdr.new_histogram(), *shipped[1:]])
    ref = _reference(values)
    _same_counts(merged, ref)
    assert hdr.percentiles_us(merged, PERCENTILES) == {p: ref.get_value_at_percentile(p) for p in PERCENTILES}
    assert hdr.mean_us(merged) == pytest.approx(ref.get_mean_value(), rel=1e-12)
    # HdrHistogram's own add of the parts: the same histogram.
    added = _reference(parts[0])
    for p in parts[1:]:
        added.add(_reference(p))
    _same_counts(merged, added)


def test_merge_of_nothing_is_empty_and_decode_is_the_inverse_of_encode():
    assert hdr.merge([]).get_total_count() == 0
    assert hdr.merge([None, hdr.new_histogram()]).get_total_count() == 0
    ref = _reference(_latencies(11, 500))
    back = hdr.decode(ref.encode())
    _same_counts(back, ref)
    assert hdr.decode(hdr.encode(back)).get_total_count() == ref.get_total_count()


def test_record_many_and_percentiles_follow_any_histograms_layout():
    # A coarser histogram (lowest discernible value 1000 µs: unit magnitude 9) exercises the
    # layout arithmetic that YCSB's 1 µs setting leaves at zero.
    values = _latencies(12, 2000)
    values = values[values < 10_000_000]
    ours, ref = HdrHistogram(1000, 3_600_000_000, 2), HdrHistogram(1000, 3_600_000_000, 2)
    hdr.record_many(ours, values)
    for v in values:
        ref.record_value(int(v))
    _same_counts(ours, ref)
    assert hdr.percentiles_us(ours, PERCENTILES) == {p: ref.get_value_at_percentile(p) for p in PERCENTILES}
    assert hdr.mean_us(ours) == pytest.approx(ref.get_mean_value(), rel=1e-12)


def test_min_and_max_are_hdrhistograms_own_when_no_value_is_zero():
    # A zero count at index 0 makes HdrHistogram's min 0 whatever min_value says: the other tests'
    # values include 0, so here none does (record_many and from_counts set min and max themselves).
    values = _latencies(13, 3000)
    values = values[values > 0]
    for chunk in (values, values[values < 2048], values[values >= 5000], np.array([7, 7, 9]), np.array([4096, 3])):
        ours, ref = _ours(chunk), _reference(chunk)
        _same_counts(ours, ref)
        assert ours.get_min_value() == ref.get_min_value() == ref.get_lowest_equivalent_value(int(chunk.min()))
        back = hdr.from_counts(hdr.counts_of(ref))  # the controller's path: dense counts -> histogram
        _same_counts(back, ref)
    h = _ours([5, 9])
    hdr.record_many(h, [3, 40])  # a second batch with a lower minimum and a higher maximum
    _same_counts(h, _reference([5, 9, 3, 40]))


def test_a_percentile_past_100_is_the_maximum_as_hdrhistogram_says():
    values = _latencies(14, 1000)
    ours, ref = _ours(values), _reference(values)
    points = [100.0, 100.5, 101.0, 150.0]
    assert hdr.percentiles_us(ours, points) == {p: ref.get_value_at_percentile(p) for p in points}
    assert ref.get_value_at_percentile(150.0) == ref.get_max_value()


def test_percentile_ranks_round_half_up_as_hdrhistogram_does():
    # the rank is int(p·n/100 + 0.5): points whose p·n/100 falls just below, on and just above a half
    values = np.arange(1, 1001) * 3
    ours, ref = _ours(values), _reference(values)
    points = [0.04975, 0.05, 0.05025, 49.94975, 49.95, 49.95025, 99.94975, 99.95, 99.95025, 12.3496, 12.3504]
    assert hdr.percentiles_us(ours, points) == {p: ref.get_value_at_percentile(p) for p in points}


def test_a_negative_value_has_the_index_of_zero_as_record_many_counts_it():
    h = hdr.new_histogram()
    for v in (-1, -2, -2049, -(10**12)):
        ours = _ours([v])
        assert hdr.counts_index(v) == h._counts_index_for(0) == int(np.flatnonzero(hdr.counts_of(ours))[0]), v

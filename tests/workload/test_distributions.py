"""Shapes of YCSB's number generators: chi-square and share tests with fixed seeds.

Bounds are generous (p > 1e-3, shares within several standard deviations) yet fail on a wrong
constant, a wrong range or a wrong mapping. The zipfian reference is the exact distribution of
Gray et al.'s algorithm (``gray_pmf``), which YCSB implements, and theoretical zipf(0.99) for
its shape.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from ycsbctl.workload import distributions as d
from ycsbctl.workload.core import SCAN, CoreWorkload
from ycsbctl.workload.generators import RunGenerator
from ycsbctl.workload.keys import fnvhash64, fnvhash64_array
from ycsbctl.workload.properties import load_properties

THETA = 0.99
P_MIN = 1e-3  # chi-square p-value below which a shape is rejected


def gray_pmf(items: int, zetan: float | None = None, head: int | None = None,
             eta_items: int | None = None) -> np.ndarray:
    """Exact probabilities of values base+0 … base+head−1 of YCSB's ZipfianGenerator over ``items``:
    base with u·ζn < 1, base+1 with u·ζn < 1 + 0.5^θ, else ⌊n·(ηu − η + 1)^α⌋, whose value is ≥ k
    exactly when u ≥ 1 + ((k/n)^(1−θ) − 1)/η."""
    zn = d.zeta(items, THETA) if zetan is None else zetan
    head = items if head is None else head
    n_eta = items if eta_items is None else eta_items
    eta = (1 - (2.0 / n_eta) ** (1 - THETA)) / (1 - d.zeta(2, THETA) / zn)
    u1 = min(1.0, (1 + 0.5**THETA) / zn)
    k = np.arange(head + 1, dtype=np.float64)
    t = 1 + ((k / items) ** (1 - THETA) - 1) / eta
    p = np.maximum(np.clip(t[1:], u1, 1.0) - np.clip(t[:-1], u1, 1.0), 0.0)
    p[0] += min(1.0, 1 / zn)
    if head > 1:
        p[1] += u1 - min(1.0, 1 / zn)
    return p


def zipf_pmf(items: int) -> np.ndarray:
    """Theoretical zipf(θ) probabilities of ranks 1..items."""
    w = np.arange(1, items + 1, dtype=np.float64) ** -THETA
    return w / w.sum()


def chisquare_p(values: np.ndarray, expected_p: np.ndarray, offset: int = 0) -> float:
    counts = np.bincount(values - offset, minlength=len(expected_p))
    assert len(counts) == len(expected_p), "values outside the expected range"
    possible = expected_p > 0
    assert counts[~possible].sum() == 0, "values the distribution never draws"
    exp = expected_p[possible] / expected_p.sum() * counts.sum()
    return float(stats.chisquare(counts[possible], exp).pvalue)


def workload(name: str, *overrides: str) -> CoreWorkload:
    return CoreWorkload.from_properties(load_properties(name, (), overrides))


# -- uniform -----------------------------------------------------------------------------------


def test_uniform_covers_both_bounds_evenly() -> None:
    x = d.Uniform(5, 24).draw(100_000, np.random.default_rng(1))
    assert x.min() == 5 and x.max() == 24
    assert chisquare_p(x, np.ones(20), offset=5) > P_MIN


def test_uniform_chi_square_rejects_an_off_by_one_range() -> None:
    x = d.Uniform(0, 19).draw(100_000, np.random.default_rng(1))
    assert chisquare_p(np.minimum(x, 18), np.ones(19)) < P_MIN  # the test can fail


# -- zipfian -----------------------------------------------------------------------------------


@pytest.mark.parametrize("items", [3, 10, 100])
def test_zipfian_draws_follow_grays_algorithm_exactly(items: int) -> None:
    x = d.Zipfian(0, items - 1).draw(400_000, np.random.default_rng(items))
    assert chisquare_p(x, gray_pmf(items)) > P_MIN


def test_zipfian_rank_frequency_is_zipf_099_on_ten_items() -> None:
    x = d.Zipfian(0, 9).draw(400_000, np.random.default_rng(2))
    freq = np.bincount(x, minlength=10) / len(x)
    theory = zipf_pmf(10)
    assert (np.diff(freq) < 0).all(), "rank 1 is the most popular, then 2, …"
    # Ranks 1 and 2 are exact in Gray's algorithm; the rest approximate zipf within 8%.
    assert freq[:2] == pytest.approx(theory[:2], rel=0.02)
    assert freq[2:] == pytest.approx(theory[2:], rel=0.10)
    slope = np.polyfit(np.log(np.arange(1, 11)), np.log(freq), 1)[0]
    assert -1.1 < slope < -0.85


def test_zipfian_rank_frequency_rejects_a_flatter_zipf() -> None:
    x = d.Zipfian(0, 9, theta=0.5).draw(100_000, np.random.default_rng(2))
    freq = np.bincount(x, minlength=10) / len(x)
    assert freq[0] != pytest.approx(zipf_pmf(10)[0], rel=0.02)


def test_zipfian_most_popular_value_is_its_lower_bound() -> None:
    x = d.Zipfian(7, 56).draw(100_000, np.random.default_rng(3))
    assert x.min() == 7 and x.max() <= 56
    assert chisquare_p(x, gray_pmf(50), offset=7) > P_MIN


def test_zipfian_of_two_items_draws_both_like_java() -> None:
    # ζn = ζ(2) makes η 0/0 (NaN in Java); every draw is base or base+1.
    x = d.Zipfian(1, 2).draw(100_000, np.random.default_rng(4))
    assert set(np.unique(x).tolist()) == {1, 2}
    assert chisquare_p(x, np.array([1.0, 0.5**THETA]), offset=1) > P_MIN


def test_zipfian_grown_by_item_count_keeps_eta_of_construction_like_ycsb() -> None:
    z = d.Zipfian(0, 99)
    x = z.draw(200_000, np.random.default_rng(5), items=150)
    assert z.zetan == pytest.approx(d.zeta(150, THETA), rel=1e-12)  # zeta grown incrementally
    assert x.max() <= 149
    assert 2 not in x  # a quirk of YCSB's stale η: value 2 is never drawn after this growth
    assert chisquare_p(x, gray_pmf(150, eta_items=100)) > P_MIN


# -- scrambled zipfian ------------------------------------------------------------------------


def test_hot_key_of_workloada_is_144_then_610() -> None:
    gen = RunGenerator(workload("workloada"), np.random.default_rng(6))
    x = gen.choose_keys(500_000)
    counts = np.bincount(x)
    assert np.argsort(-counts)[:2].tolist() == [144, 610]
    # 144 = fnvhash64(0) % 1001 and 610 = fnvhash64(1) % 1001: the two most popular zipfian items.
    assert (fnvhash64(0) % 1001, fnvhash64(1) % 1001) == (144, 610)
    share = counts[144] / len(x)
    assert 1 / d.SCRAMBLED_ZETAN <= share < 0.041  # about 3.8%
    assert share == pytest.approx(0.0385, abs=0.0015)


def test_scrambled_zipfian_matches_hashed_zipf_popularity() -> None:
    """Expected popularity: exact probabilities of the 10^5 most popular zipfian items mapped by
    fnvhash64 % n, plus their long tail (half the mass) spread evenly."""
    n = 1001
    head = gray_pmf(d.SCRAMBLED_ITEM_COUNT + 1, d.SCRAMBLED_ZETAN, head=100_000)
    expected = np.bincount(fnvhash64_array(np.arange(len(head))) % n, weights=head, minlength=n)
    expected += (1 - head.sum()) / n
    x = d.ScrambledZipfian(0, n - 1).draw(1_000_000, np.random.default_rng(7))
    assert x.min() >= 0 and x.max() <= n - 1
    assert chisquare_p(x, expected) > P_MIN
    assert chisquare_p(x, np.ones(n)) < P_MIN  # and it is far from uniform


def test_scrambled_zipfian_offsets_by_insertstart() -> None:
    w = workload("workloada", "insertstart=500", "recordcount=1501", "insertcount=1000")
    x = RunGenerator(w, np.random.default_rng(8)).choose_keys(100_000)
    assert x.min() >= 500 and x.max() <= 1500
    assert np.bincount(x).argmax() == 500 + fnvhash64(0) % 1001


def test_keys_not_inserted_yet_are_redrawn_without_bending_the_popularity() -> None:
    w = workload("workloade", "recordcount=100", "operationcount=100000")  # 10^4 expected new keys
    x = RunGenerator(w, np.random.default_rng(19)).choose_keys(50_000)
    assert x.min() >= 0 and x.max() <= 99
    raw = d.ScrambledZipfian(0, 100 + 10_000).draw(5_000_000, np.random.default_rng(20))
    reference = np.bincount(raw[raw <= 99], minlength=100)
    table = np.vstack([np.bincount(x, minlength=100), reference])
    assert stats.chi2_contingency(table).pvalue > P_MIN


# -- latest -----------------------------------------------------------------------------------


def test_latest_is_heaviest_at_the_latest_key_and_never_zero() -> None:
    w = workload("workloadd")
    gen = RunGenerator(w, np.random.default_rng(9))
    x = gen.choose_keys(200_000)
    assert x.min() >= 1 and x.max() == 999
    counts = np.bincount(x, minlength=1000)
    assert counts[0] == 0
    assert counts.argmax() == 999
    # L − zipf(L): key L−i has the probability of zipfian item i over 999 items.
    assert chisquare_p(999 - x, gray_pmf(999)) > P_MIN


def test_latest_follows_acknowledged_inserts() -> None:
    gen = RunGenerator(workload("workloadd"), np.random.default_rng(10))
    for keynum in gen.inserts.allocate(50).tolist():
        gen.inserts.acknowledge(keynum)
    assert gen.inserts.limit() == 1049
    x = gen.choose_keys(100_000)
    assert x.min() >= 1 and x.max() == 1049
    assert np.bincount(x).argmax() == 1049


def test_latest_with_one_record_always_picks_it() -> None:
    x = d.SkewedLatest(1).draw(1000, np.random.default_rng(11), 1)
    assert set(x.tolist()) == {1}


# -- hotspot ----------------------------------------------------------------------------------


def test_hotspot_gives_80_percent_of_draws_to_the_first_20_percent_of_keys() -> None:
    x = d.Hotspot(0, 999, 0.2, 0.8).draw(200_000, np.random.default_rng(12))
    hot = x < 200
    assert hot.mean() == pytest.approx(0.8, abs=0.005)  # σ ≈ 0.0009
    assert x.min() == 0 and x.max() == 999
    assert chisquare_p(x[hot], np.ones(200)) > P_MIN
    assert chisquare_p(x[~hot] - 200, np.ones(800)) > P_MIN


def test_hotspot_from_properties_uses_the_fractions_and_insertstart() -> None:
    w = workload("workloada", "requestdistribution=hotspot", "hotspotdatafraction=0.1",
                 "hotspotopnfraction=0.5", "insertstart=100", "insertcount=900")
    x = RunGenerator(w, np.random.default_rng(13)).choose_keys(100_000)
    assert x.min() == 100 and x.max() == 999
    assert (x < 190).mean() == pytest.approx(0.5, abs=0.01)


# -- sequential -------------------------------------------------------------------------------


def test_sequential_cycles_over_the_interval() -> None:
    seq = d.Sequential(10, 14)
    rng = np.random.default_rng(0)
    assert seq.draw(7, rng).tolist() == [10, 11, 12, 13, 14, 10, 11]
    assert seq.draw(4, rng).tolist() == [12, 13, 14, 10]


def test_two_sequential_processes_walk_one_counter_together() -> None:
    rng = np.random.default_rng(0)
    p0, p1 = d.Sequential(0, 9, process=0, processes=2), d.Sequential(0, 9, process=1, processes=2)
    a, b = p0.draw(5, rng), p1.draw(5, rng)
    assert set(a.tolist()).isdisjoint(b.tolist())
    assert sorted(a.tolist() + b.tolist()) == list(range(10))  # one cycle, each key once
    a, b = np.concatenate([a, p0.draw(7, rng)]), np.concatenate([b, p1.draw(7, rng)])
    merged = np.empty(24, dtype=np.int64)
    merged[0::2], merged[1::2] = a, b
    assert merged.tolist() == d.Sequential(0, 9).draw(24, rng).tolist()


# -- exponential ------------------------------------------------------------------------------


def test_exponential_puts_95_percent_of_draws_in_the_last_857_permille() -> None:
    span = 1000 * 0.8571428571
    x = d.Exponential(95.0, span).draw(200_000, np.random.default_rng(14))
    assert x.min() >= 0
    assert (x < span).mean() == pytest.approx(0.95, abs=0.003)  # σ ≈ 0.0005


def test_exponential_keys_count_back_from_the_latest_and_redraw_below_zero() -> None:
    w = workload("workloada", "requestdistribution=exponential")
    x = RunGenerator(w, np.random.default_rng(15)).choose_keys(200_000)
    assert x.min() >= 0 and x.max() == 999
    # Draws beyond key 0 are redrawn, so the 95% becomes 0.95 / P(draw ≤ 999).
    kept = 1 - 0.05 ** (1000 / (1000 * 0.8571428571))
    assert (x > 999 - 1000 * 0.8571428571).mean() == pytest.approx(0.95 / kept, abs=0.003)
    deciles = np.bincount(x // 100, minlength=10)
    assert (np.diff(deciles) > 0).all(), "newer keys are more popular"


# -- field lengths ----------------------------------------------------------------------------


def _field_lengths(*overrides: str, calls: int = 4000) -> np.ndarray:
    gen = RunGenerator(workload("workloada", *overrides), np.random.default_rng(16))
    return np.array([len(v) for _ in range(calls) for _, v in gen.field_values()])


def test_constant_field_length_is_fieldlength() -> None:
    assert set(_field_lengths("fieldlength=37", calls=200).tolist()) == {37}


def test_uniform_field_length_spans_min_to_max() -> None:
    x = _field_lengths("fieldlengthdistribution=uniform", "minfieldlength=10", "fieldlength=40")
    assert x.min() == 10 and x.max() == 40
    assert chisquare_p(x, np.ones(31), offset=10) > P_MIN


def test_zipfian_field_length_favours_the_minimum() -> None:
    x = _field_lengths("fieldlengthdistribution=zipfian", "minfieldlength=5", "fieldlength=24")
    assert np.bincount(x).argmax() == 5 and x.max() <= 24
    assert chisquare_p(x, gray_pmf(20), offset=5) > P_MIN


def test_single_field_update_value_has_a_drawn_length() -> None:
    gen = RunGenerator(workload("workloada", "fieldlengthdistribution=uniform", "fieldlength=30"),
                       np.random.default_rng(17))
    lengths = {len(gen.field_values(3)[0][1]) for _ in range(2000)}
    assert lengths == set(range(1, 31))
    assert gen.field_values(3)[0][0] == b"field3"


# -- scan lengths -----------------------------------------------------------------------------


def _scan_lengths(*overrides: str) -> np.ndarray:
    gen = RunGenerator(workload("workloade", *overrides), np.random.default_rng(18))
    b = gen.next_batch(100_000)
    return np.array([s for op, s in zip(b.ops, b.scan_length) if op == SCAN])


def test_uniform_scan_length_is_1_to_maxscanlength() -> None:
    x = _scan_lengths()
    assert x.min() == 1 and x.max() == 100
    assert chisquare_p(x, np.ones(100), offset=1) > P_MIN


def test_zipfian_scan_length_follows_grays_zipfian() -> None:
    x = _scan_lengths("scanlengthdistribution=zipfian", "minscanlength=2", "maxscanlength=30")
    assert np.bincount(x).argmax() == 2 and x.max() <= 30
    assert chisquare_p(x, gray_pmf(29), offset=2) > P_MIN


def test_zeta_sums_powers_like_ycsb() -> None:
    assert d.zeta(2, THETA) == pytest.approx(1.50347777503, abs=1e-11)
    assert d.zeta(1000, THETA) == pytest.approx(math.fsum(i**-THETA for i in range(1, 1001)), rel=1e-12)
    # ScrambledZipfianGenerator's constant is ζ(10^10 + 1): the first 10^6 terms, then Euler–Maclaurin.
    big, n = 10**6, d.SCRAMBLED_ITEM_COUNT + 1
    tail = (n ** (1 - THETA) - big ** (1 - THETA)) / (1 - THETA) + (n**-THETA - big**-THETA) / 2
    assert d.zeta(big, THETA) + tail == pytest.approx(d.SCRAMBLED_ZETAN, rel=1e-9)

"""Runs that insert, against the real YCSB 0.17.0 (BasicDB, one thread): a key inserted a moment
ago is readable as soon as in YCSB. Compared by key *age* (how many inserts back the chosen key
was: 0 = the newest key), in power-of-two bins, against YCSB's own run-to-run noise (YCSB run
twice), ours against the nearer of the two: the newest key's share within 4σ, a chi-square test
(p > P_MIN) and the total variation distance at most twice YCSB's own plus 0.01. Before keys were chosen at issue time,
workload D read its newest key 0.9 % of the time against YCSB's 11 %."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np
import pytest
from scipy import stats

from tests.fixtures.ycsb_basicdb import Stream, ours

pytestmark = pytest.mark.fidelity

OPS = 30_000
# The age counts are overdispersed: with a zipfian the reads of a hot key inserted during the run
# come in clumps while it is young, and with latest the zipfian over L items changes as L grows, by
# as many inserts as the run happened to make. YCSB against itself went down to p = 5e-4 (workload
# E) and 8e-4 (D); keys chosen per batch gave p < 1e-18 in every case.
P_MIN = 1e-6
AGE_BINS = 9  # ages 0 … 255 in powers of two, then one bin
CASES = {
    "workloadd": ("workloadd", ()),
    "workloade": ("workloade", ()),
    "insertproportion=0.2": ("workloada", ("readproportion=0.4", "updateproportion=0.4", "insertproportion=0.2")),
    "latest+10% inserts": ("workloada", ("requestdistribution=latest", "readproportion=0.5",
                                         "updateproportion=0.4", "insertproportion=0.1")),
    "exponential+5% inserts": ("workloadb", ("requestdistribution=exponential", "readproportion=0.95",
                                             "updateproportion=0", "insertproportion=0.05")),
}


def age_bins(ages: Counter) -> np.ndarray:
    """Counts of ages 0, 1, 2–3, 4–7, …, 128–255 and ≥ 256. Older keys are left in one bin: with
    a zipfian, an old hot key's age grows with the inserts made, which vary from run to run."""
    out = np.zeros(AGE_BINS + 1, dtype=np.int64)
    for age, n in ages.items():
        out[min(int(age).bit_length(), AGE_BINS)] += n
    return out


def compare(a: Counter, b: Counter) -> tuple[float, float, float]:
    """(newest-key share difference in σ, chi-square p of the age bins, TVD of the age bins)."""
    ta, tb = age_bins(a), age_bins(b)
    keep = (ta + tb) > 0
    ta, tb = ta[keep], tb[keep]
    na, nb = ta.sum(), tb.sum()
    pa, pb = a[0] / na, b[0] / nb
    pooled = (a[0] + b[0]) / (na + nb)
    sigma = np.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb)) or 1.0
    p = float(stats.chi2_contingency(np.vstack([ta, tb])).pvalue)
    tvd = 0.5 * float(np.abs(ta / na - tb / nb).sum())
    return abs(pa - pb) / sigma, p, tvd


def streams(ycsb_basicdb: Callable[..., Stream], case: str) -> tuple[Stream, Stream, Stream]:
    workload, props = CASES[case]
    props = (*props, f"operationcount={OPS}")
    return ycsb_basicdb("run", workload,
                        *props), ycsb_basicdb("run", workload, *props, repeat=1), ours("run", workload, *props)


@pytest.mark.parametrize("case", list(CASES))
def test_new_keys_are_read_as_soon_as_in_ycsb(ycsb_basicdb: Callable[..., Stream], case: str) -> None:
    y1, y2, mine = streams(ycsb_basicdb, case)
    a1, a2, am = (s.key_ages(1000) for s in (y1, y2, mine))
    _, _, noise_tvd = compare(a1, a2)
    sig, p, tvd = min(compare(a1, am), compare(a2, am), key=lambda r: r[2])  # ours against the nearer YCSB run
    shares = [round(a[0] / a.total(), 4) for a in (a1, a2, am)]
    assert sig < 4, (case, "newest-key share YCSB, YCSB, ours", shares)
    assert p > P_MIN, (case, p, shares)
    assert tvd <= 2 * noise_tvd + 0.01, (case, tvd, noise_tvd)
    # YCSB's insert count is binomial (OPS draws, its own seedless RNG): ours against the mean of its two runs,
    # within 4.5σ of that difference (a 10 % tolerance was 2.6σ for workload E's 5 % inserts: it failed once in CI)
    n1, n2, nm = len(y1.inserts), len(y2.inserts), len(mine.inserts)
    share = (n1 + n2) / (2 * OPS)
    sigma = np.sqrt(OPS * share * (1 - share) * (1 + 1 / 2))
    assert n1 > 0 and abs(nm - (n1 + n2) / 2) < 4.5 * sigma, (case, "inserts YCSB, YCSB, ours", n1, n2, nm)

"""``fieldlengthdistribution=histogram`` against the real YCSB 0.17.0: YCSB's histogram file
format (``BlockSize<TAB>n``, then ``bucket<TAB>count`` lines) and its ``HistogramGenerator``'s
lengths, quirks included (bucket i gives (i+1)·blockSize, bucket 0 one extra draw, the last
bucket the same length as the one before it). Before, the native engine refused the property."""

from __future__ import annotations

import subprocess
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from tests.fixtures.ycsb_basicdb import ycsb_command
from ycsbctl.errors import UserError
from ycsbctl.workload.core import CoreWorkload
from ycsbctl.workload.generators import LoadGenerator
from ycsbctl.workload.properties import Properties, load_properties

pytestmark = pytest.mark.fidelity

RECORDS = 3000
P_MIN = 1e-4
HISTOGRAM = "BlockSize\t8\n0\t0\n1\t5\n2\t30\n3\t10\n4\t0\n5\t20\n6\t4\n"


def ycsb_lengths(classpath: str, tmp_path: Path, hist: Path) -> Counter:
    props = (f"recordcount={RECORDS}", "fieldcount=1", "fieldlengthdistribution=histogram",
             f"fieldlengthhistogram={hist}")
    out = subprocess.run(ycsb_command(classpath, "load", "workloada", *props), capture_output=True, text=True,
                         timeout=120, cwd=tmp_path).stdout
    # "INSERT usertable user… [ field0=<value> ]": the value runs to the closing " ]"
    return Counter(len(line.split(" [ field0=", 1)[1][:-2]) for line in out.splitlines() if line.startswith("INSERT "))


def our_lengths(hist: Path) -> Counter:
    w = CoreWorkload.from_properties(load_properties("workloada", (), (
        "fieldcount=1", "fieldlengthdistribution=histogram", f"fieldlengthhistogram={hist}")))
    gen = LoadGenerator(w, np.random.default_rng(4), 0, RECORDS)
    return Counter(len(v) for _ in range(RECORDS) for v in gen.values_only())


def test_field_lengths_follow_ycsbs_histogram_generator(ycsb_classpath: str, tmp_path: Path) -> None:
    hist = tmp_path / "hist.txt"
    hist.write_text(HISTOGRAM)
    theirs, mine = ycsb_lengths(ycsb_classpath, tmp_path, hist), our_lengths(hist)
    assert sum(theirs.values()) == sum(mine.values()) == RECORDS
    # Lengths (i+1)·8 for buckets 0…5 and 6·8 for the last (as bucket 5): 8 only through bucket 0's
    # extra draw, 40 never (bucket 4 is empty), 56 never.
    assert set(theirs) == set(mine) == {8, 16, 24, 32, 48}
    lengths = sorted(set(theirs) | set(mine))
    table = np.array([[c[n] for n in lengths] for c in (theirs, mine)])
    assert stats.chi2_contingency(table[:, table.min(axis=0) > 0]).pvalue > P_MIN
    expected = {8: 1, 16: 5, 24: 30, 32: 10, 48: 20 + 3}  # of 69: bucket 6's 4 counts less the one taken by 0
    for n, share in expected.items():
        assert mine[n] / RECORDS == pytest.approx(share / 69, abs=0.03)


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty"),
    ("Block\t8\n0\t1\n", "BlockSize"),
    ("BlockSize\t8\n1\t5\n", "comes before"),
    ("BlockSize\t8\n0\tmany\n", "bucket<TAB>count"),
])
def test_a_malformed_histogram_file_is_a_user_error(tmp_path: Path, text: str, message: str) -> None:
    hist = tmp_path / "h.txt"
    hist.write_text(text)
    with pytest.raises(UserError, match=message):
        CoreWorkload.from_properties(Properties({"fieldlengthdistribution": "histogram",
                                                 "fieldlengthhistogram": str(hist)}))
    with pytest.raises(UserError, match="cannot read"):
        CoreWorkload.from_properties(Properties({"fieldlengthdistribution": "histogram",
                                                 "fieldlengthhistogram": str(tmp_path / "missing.txt")}))

"""Every property CoreWorkload 0.17.0 reads, classified against the real YCSB jar (see
``bench/fidelity.py``, which prints the same table at a larger size): no case is *different*, and
the only refusals are the degenerate values YCSB runs and ycsbctl refuses with a message (no
fields, empty values, zero-length scans). ``dataintegrity`` and ``fieldlengthdistribution=histogram``
were refused before."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.fidelity import CoreWorkload, cases, classify, format_table, our_lines, ycsb_lines

pytestmark = pytest.mark.fidelity

READ_PROPERTIES = {  # the property names CoreWorkload 0.17.0 reads (strings in its class file)
    "recordcount", "operationcount", "table", "fieldcount", "fieldlength", "minfieldlength",
    "fieldlengthdistribution", "fieldlengthhistogram", "fieldnameprefix", "readallfields", "writeallfields",
    "dataintegrity", "readproportion", "updateproportion", "insertproportion", "scanproportion",
    "readmodifywriteproportion", "requestdistribution", "zeropadding", "minscanlength", "maxscanlength",
    "scanlengthdistribution", "insertorder", "insertstart", "insertcount", "hotspotdatafraction",
    "hotspotopnfraction", "exponential.percentile", "exponential.frac", "core_workload_insertion_retry_limit",
    "core_workload_insertion_retry_interval",
}


def test_every_property_is_identical_or_within_ycsbs_noise(ycsb_classpath: str, tmp_path: Path) -> None:
    all_cases = cases(ops=1500, records=300)
    assert {c.prop for c in all_cases} >= READ_PROPERTIES
    ys = ycsb_lines(all_cases, tmp_path, ycsb_classpath)
    rows = [classify(c, ys[(i, 0)], ys[(i, 1)], our_lines(c, tmp_path)) for i, c in enumerate(all_cases)]
    print(format_table(rows))
    assert not [r.case.label for r in rows if r.verdict == "different"], format_table(rows)
    rejected = {r.case.label.split(": ", 1)[1] for r in rows if r.verdict == "rejected"}
    assert rejected == {"recordcount=300 fieldcount=0", "recordcount=300 fieldlength=0",
                        "readproportion=0 updateproportion=0 scanproportion=1 minscanlength=0 maxscanlength=0"}
    for prop in ("recordcount", "insertstart", "fieldcount", "fieldlength", "zeropadding", "insertorder",
                 "dataintegrity"):  # deterministic: the same lines
        assert any(r.verdict == "identical" for r in rows if (r.case.prop, r.case.phase) == (prop, "load")), prop


def test_the_table_can_say_different(tmp_path: Path) -> None:
    """The classifier against a stream that is not YCSB's: all reads where YCSB updates half."""
    case = next(c for c in cases(ops=1500) if c.prop == "workloada")
    mine = our_lines(case, tmp_path)
    assert isinstance(mine, list)
    reads_only = [line.replace("UPDATE", "READ", 1).split(" [")[0] + " [ <all fields>]" for line in mine]
    row = classify(case, mine, mine, reads_only)
    assert row.verdict == "different" and row.p_ours < 1e-10


@pytest.mark.parametrize("prop", ["fieldcount=0", "fieldlength=0"])
def test_refusals_say_what_to_do(prop: str) -> None:
    from ycsbctl.errors import UserError
    from ycsbctl.workload.properties import Properties

    with pytest.raises(UserError, match="need fieldcount ≥ 1"):
        CoreWorkload.from_properties(Properties(dict([prop.split("=")])))

"""End to end on real Redis servers: with ``--reference`` every alternated session holds the reference server ycsbctl
starts as its last target, kept as slices only; ``compare A B`` across two one-round folders reads each target
against its own folder's reference.

Two redis-server processes the test starts, ``a`` and ``b``, measured three times: A and A2 as they are (the same
plan twice: nothing may be called), B with ``b`` in a cgroup with a CPU quota of 0.05 core (the kernel enforces it),
so that it is several times slower than in A at any speed of the host. The comparisons are given the host's drift
margin of a calibration record at its widest (±100 %, passed in), so that the reference's own reading between two
folders on a shared test host (it moved 1.8× between two folders minutes apart while five test suites ran) does not
hold every cell: the test is of the reference's pairing; tests/results/test_reference_pairs.py pins the holds.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from tests.fixtures.cgroups import cpu_quota
from tests.fixtures.cli import YCSBCTL
from tests.fixtures.server_counters import redis_hgetall_calls
from tests.fixtures.servers import start_redis
from ycsbctl.experiment.targets import target_label
from ycsbctl.report.compare import compare
from ycsbctl.results import host_drift
from ycsbctl.results import reference_pairs as rp
from ycsbctl.results import slice_table as st

pytestmark = pytest.mark.reference
# the host's drift and the reference-paired between-run bound the comparisons test beyond (fractions): wide, see above
MARGINS = host_drift.Margins({"throughput": host_drift.MAX_DRIFT, "p99": host_drift.MAX_DRIFT, rp.METRIC: 0.3},
                             "test record")


def _run(tmp: Path, urls: list[str], out: Path) -> dict[str, int]:
    before = {target_label(u): redis_hgetall_calls(u) for u in urls}
    proc = subprocess.run(
        [YCSBCTL, "run", "workload-c", *(a for u in urls for a in ("--target", u)), "--load", "--reference",
         "--threads", "4", "--duration", "2", "--slice", "0.1", "--records", "300", "--seed", "5",
         "--no-telemetry", "--no-yardstick", "--allow-concurrent", "--quiet", "--out", str(out)],
        capture_output=True, text=True, timeout=600, cwd=tmp)
    assert proc.returncode in (0, 1, 3), proc.stderr[-3000:]
    return {t: redis_hgetall_calls(u) - before[t] for t, u in zip(before, urls)}


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path, dict[str, int]]:
    tmp = tmp_path_factory.mktemp("reference")
    servers = [start_redis(tmp / name) for name in ("a", "b")]
    urls = [s.url for s in servers]
    try:
        reads = _run(tmp, urls, tmp / "A")
        _run(tmp, urls, tmp / "A2")
        with cpu_quota(0.05, period_us=20_000) as group:
            group.add(servers[1].proc.pid)
            _run(tmp, urls, tmp / "B")
        return tmp / "A", tmp / "A2", tmp / "B", reads
    finally:
        for s in servers:
            s.stop()


def test_the_reference_rides_in_every_session_and_is_kept_as_slices_only(folders) -> None:
    a = folders[0]
    manifest = json.loads((a / "manifest.json").read_text())
    assert manifest["reference"]["on"] is True and manifest["reference"]["server_version"]
    runs = pd.read_parquet(a / "runs.parquet")
    assert "reference" not in set(runs["target"])  # never a run, so never a verdict, a curve or a table row
    slices = pd.read_parquet(a / "slices.parquet")
    ref = slices[slices[st.ROLE] == st.REFERENCE]
    run = runs[runs["phase"] == "run"]
    assert set(ref["session"]) == set(run["session"]) and set(ref["threads"]) == {4}
    # three points a session (a, b, the reference): each holds a third of its slices
    for _, s in slices.groupby("session"):
        assert s["run_id"].nunique() == 3 and s.groupby("run_id").size().nunique() == 1
    assert not list(Path(a).glob("runs/reference.*"))


def test_no_operation_of_the_reference_is_credited_to_a_target(folders) -> None:
    """Each target server's HGETALL calls during the sweep equal the operations its records counted: the reference's
    operations went to the reference's own server (workload-c only reads; the run has no warm-up)."""
    a, _, _, reads = folders
    run = pd.read_parquet(a / "runs.parquet").query("phase == 'run'")
    for target, calls in reads.items():
        assert int(run.loc[run["target"] == target, "operations"].sum()) == calls, target


def test_the_same_plan_twice_is_not_called(folders) -> None:
    c = compare([folders[0], folders[1]], margins=MARGINS)
    tp = c.verdicts[c.verdicts["metric"] == "throughput"]
    assert len(tp) == 2 and set(tp["test"]) == {rp.TEST}
    assert not set(tp["verdict"]) & {"better", "worse"}, tp[["target", "threads", "ratio", "ci_low", "ci_high"]]
    assert tp["ci_low"].notna().all() and tp["detectable_pct"].notna().all()  # one round a side: an interval


def test_a_server_held_by_a_cpu_quota_reads_worse_against_the_reference(folders) -> None:
    c = compare([folders[0], folders[2]], margins=MARGINS)
    tp = c.verdicts[c.verdicts["metric"] == "throughput"].set_index(["target", "threads"])
    held = list(folders[3])[1]  # b's label (the servers' order)
    mine = tp.loc[held]
    # worse in every cell, unless the reference itself read the host beyond twice as fast or slow between the two
    # folders (a shared test host can): then held undecided, its line saying so, and still read below 1
    for _, row in mine.iterrows():
        assert row["verdict"] == "worse" or (row["verdict"] == "undecided" and row["decided_by"].startswith(
            "undecided: the host differed")), mine[["ratio", "ci_low", "ci_high", "decided_by"]]
    assert (mine["ratio"] < 1).all()
    assert not set(tp.drop(index=held, level=0)["verdict"]) & {"better"}

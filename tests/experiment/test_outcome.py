"""How a plan ended (``ycsbctl.experiment.outcome``: the exit code and the folder's status the table of
docs/guide/troubleshooting.md promises) and when the default plan measures a stand-in for MongoDB
(``ycsbctl.experiment.standin``)."""

from __future__ import annotations

import pandas as pd
import pytest

from ycsbctl.experiment.outcome import Outcome
from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.resolve import resolve_study
from ycsbctl.experiment.standin import stand_in, stand_ins
from ycsbctl.results.folder import RunRecord
from ycsbctl.results.names import FolderStatus, RunStatus
from ycsbctl.results.schema import SkippedTarget


def _record(status: RunStatus) -> RunRecord:
    return RunRecord(f"redis.workloadb.run.t8.r1.{status}", "redis", "workloadb", "run", 8, 1, status)


@pytest.mark.parametrize(("statuses", "skipped", "code", "folder"), [
    ([RunStatus.OK, RunStatus.OK], False, 0, FolderStatus.COMPLETE),
    ([], False, 0, FolderStatus.COMPLETE),
    # a degraded point is measured (its numbers kept, marked, its why said): the plan is complete, exit 3
    ([RunStatus.OK, RunStatus.DEGRADED], False, 3, FolderStatus.COMPLETE),
    ([RunStatus.DEGRADED, RunStatus.DEGRADED], False, 3, FolderStatus.COMPLETE),
    ([RunStatus.DEGRADED, RunStatus.FAILED], False, 1, FolderStatus.PARTIAL),  # a failure outranks a degraded point
    ([RunStatus.OK, RunStatus.FAILED], False, 1, FolderStatus.PARTIAL),
    ([RunStatus.OK, RunStatus.INTERRUPTED], False, 1, FolderStatus.PARTIAL),  # a point cut short is not measured
    ([RunStatus.OK], True, 1, FolderStatus.PARTIAL),  # a target skipped
    ([RunStatus.DEGRADED], True, 1, FolderStatus.PARTIAL),
])
def test_the_exit_code_is_0_when_every_point_is_ok_3_when_some_are_degraded_and_1_when_one_failed(
        statuses, skipped, code, folder):
    outcome = Outcome(folder=None, records=[_record(s) for s in statuses],
                      skipped=[SkippedTarget("mongodb", "no server", "")] if skipped else [])
    assert (outcome.exit_code, outcome.folder_status()) == (code, folder)
    assert outcome.folder_status(refused=True) == FolderStatus.INTERRUPTED  # the disk refused a write


def test_ctrl_c_is_130_and_an_interrupted_folder_whatever_was_measured():
    outcome = Outcome(folder=None, records=[_record(RunStatus.OK)], interrupted=True)
    assert (outcome.exit_code, outcome.folder_status()) == (130, FolderStatus.INTERRUPTED)


def test_only_the_default_plans_mongodb_has_a_stand_in_and_only_once():
    default = Plan(workloads=["workload-b"])
    study = resolve_study(default)  # resolved only: no server is started
    sub = stand_in(study, "mongodb", list(default.targets))
    assert sub is not None and (sub.wanted, sub.used) == ("mongodb", "ferretdb")
    assert "not MongoDB's" in sub.note  # its numbers are never shown as MongoDB's
    assert sub.note == ("mongodb could not be provisioned here; measuring ferretdb as the MongoDB-protocol stand-in "
                        "(its numbers are not MongoDB's)")
    assert stand_in(study, "mongodb", [*default.targets, "ferretdb"]) is None  # once
    assert stand_in(study, "redis", list(default.targets)) is None
    chosen = Plan(workloads=["workload-b"], targets=["mongodb"])
    # a target the user named is theirs: no stand-in
    assert stand_in(resolve_study(chosen), "mongodb", ["mongodb"]) is None
    assert stand_ins(default) == ["ferretdb"] and stand_ins(chosen) == []


def test_a_run_whose_points_a_spinning_process_degraded_exits_3_with_a_complete_folder_that_says_so(tmp_path):
    """Issue 72, against the folder's own statuses: one spinning process pinned to each CPU this test may use (the
    way tests/fixtures/cpu_hog.py holds a core), the host-busy check at its default share, two 3.5 s points of
    basic:// (each longer than the host scan's 3 s interval: each has a host sample of its own). The real exit code
    is what the points table's statuses say (3: every point measured, some degraded), the folder is ``complete``,
    and the closing lines say how many points were measured and how busy the host was — not "partial"."""
    from tests.fixtures.cli import env, ycsbctl
    from tests.fixtures.cpu_hog import busy_cpus
    from ycsbctl.results import load

    out = tmp_path / "busy"
    with busy_cpus(per_cpu=1):
        done = ycsbctl("run", "workload-b", "--target", "basic://", "--threads", "1,2", "--records", "200",
                       "--duration", "3.5", "--warmup", "0", "--processes", "1", "--no-report", "--no-yardstick",
                       "--out", str(out), environ=env(YCSBCTL_HOST_BUSY_SHARE="0.10"))
    exp = load(out)
    runs = exp.runs
    # every CPU held by a spinner the run does not own: far above 10 % of the host's cores in each point's scan
    assert set(runs["status"]) == {"degraded"} and set(runs["bottleneck"]) == {"host-busy"}, done.stderr[-3000:]
    assert done.returncode == 3, done.stderr[-3000:]
    assert exp.manifest.status == FolderStatus.COMPLETE
    foreign = pd.to_numeric(runs["host_foreign_pct"])
    mean, top = round(foreign.mean()), round(foreign.max())
    how = f"{top}% of a core" if mean == top else f"on average {mean}% of a core, at most {top}%"
    said = f"All 2 points measured; 2 degraded — the host was busy during them (other programs used {how}"
    assert said in done.stderr and "partial" not in done.stderr, done.stderr[-3000:]

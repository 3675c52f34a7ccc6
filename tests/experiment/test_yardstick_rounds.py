"""The host yardstick in a sweep: one reading at the start of every round (interleaved, blocks) or target block
(target order), kept in the folder; and, across two real folders where the host got slower, the yardstick and a
control target agree on the direction."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import psutil
import pytest

from tests.fixtures.cli import CONCURRENT, reaped, start, ycsbctl
from tests.fixtures.cpu_hog import busy_cpus
from tests.fixtures.sweep import BasicServers, RecordingEngine, run_sweep
from tests.fixtures.waiting import wait_until
from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.result_sink import MemorySink
from ycsbctl.report.compare import compare
from ycsbctl.results import load
from ycsbctl.results.schema import Manifest

pytestmark = [pytest.mark.yardstick]  # the suite's sweeps time none otherwise (YCSBCTL_YARDSTICK=off)

SMALL = dict(workloads=["workload-b"], threads=[2], records=60, duration_s=0.1, warmup_s=0.0, telemetry=False,
             processes=1, repeat=2)


@pytest.mark.parametrize(("order", "rows"), [
    ("interleaved", [(1, ""), (2, "")]), ("blocks", [(1, ""), (2, "")]), ("target", [(1, "redis"), (2, "valkey")])])
def test_each_round_or_target_block_gets_one_reading(order: str, rows: list[tuple[int, str]]):
    plan = Plan(targets=["redis", "valkey"], order=order, **SMALL)
    store = MemorySink(Manifest(experiment_id="t", plan=plan.to_dict()), durable=True)
    run_sweep(plan, BasicServers(), RecordingEngine(), store)
    assert [(r["round"], r["target"]) for r in store.yardstick] == rows
    assert {r["phase"] for r in store.yardstick} == {"run"}
    assert all(r["speed"] > 0 and r["seconds"] > 0 for r in store.yardstick)


def test_a_point_printed_and_not_kept_takes_no_reading():
    plan = Plan(targets=["redis"], **SMALL)
    _, store = run_sweep(plan, BasicServers(), RecordingEngine())  # MemorySink: not durable
    assert store.yardstick == []


def test_a_plan_with_the_yardstick_off_takes_no_reading_in_a_kept_folder():
    plan = Plan(targets=["redis"], yardstick=False, **SMALL)
    store = MemorySink(Manifest(experiment_id="t", plan=plan.to_dict()), durable=True)
    run_sweep(plan, BasicServers(), RecordingEngine(), store)
    assert store.yardstick == []


@pytest.mark.parametrize(("flag", "environ", "wanted"), [
    ([], "off", False), (["--yardstick"], "off", True), (["--no-yardstick"], "on", False)])
def test_the_flag_beats_the_environment_and_the_folder_keeps_the_choice(flag, environ, wanted, tmp_path, monkeypatch):
    """``--yardstick/--no-yardstick``, else ``YCSBCTL_YARDSTICK``: the folder's plan records the choice, and
    yardstick.parquet holds the one round's reading only when it was on."""
    monkeypatch.setenv("YCSBCTL_YARDSTICK", environ)
    r = ycsbctl("run", "workload-b", "--target", "basic://", "--threads", "2", "--duration", "0.2", "--records", "100",
                "--no-telemetry", "--quiet", "--out", str(tmp_path / "f"), *flag, CONCURRENT, cwd=tmp_path)
    assert r.returncode in (0, 3), r.stderr[-2000:]
    assert json.loads((tmp_path / "f" / "manifest.json").read_text())["plan"]["yardstick"] is wanted
    assert (tmp_path / "f" / "yardstick.parquet").exists() is wanted


def test_a_bad_yardstick_environment_is_one_line_exit_2(tmp_path, monkeypatch):
    monkeypatch.setenv("YCSBCTL_YARDSTICK", "sometimes")
    r = ycsbctl("run", "workload-b", "--target", "basic://", "--threads", "2", "--duration", "1", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.strip() == "error: YCSBCTL_YARDSTICK='sometimes': give on or off"
    assert not any(tmp_path.iterdir())


# no telemetry: the yardstick, the control's throughput and compare's host factor read none of it
RUN = ("run", "workload-b", "--target", "basic://", "--threads", "2", "--repeat", "2", "--order", "interleaved",
       "--duration", "0.5", "--records", "1000", "--no-telemetry")


def _run(out: Path) -> Path:
    r = ycsbctl(*RUN, "--out", str(out), CONCURRENT)
    assert r.returncode in (0, 3), r.stderr[-2000:]  # 3: a point degraded by the busy host, still kept
    return out


def _run_beside(spinners: list[int], out: Path) -> Path:
    """:func:`_run` with ``spinners`` (stopped processes' pids) let spin from the sweep's ``placement:`` line, said
    before its first round's yardstick reading, until its last point is measured (its second ``→`` line): the
    command's start and its writing of the folder, CPU-bound work a third as fast beside them, are not slowed."""
    proc = start(*RUN, "--out", str(out), CONCURRENT)
    lines: list[str] = []
    points = 0  # the points measured so far (their "→" lines)
    with reaped(proc):
        for line in proc.stderr:
            lines.append(line)
            points += line.lstrip().startswith("→")
            if line.startswith("placement: ") or points == 2:
                for pid in spinners:
                    os.kill(pid, signal.SIGCONT if line.startswith("placement: ") else signal.SIGSTOP)
        proc.communicate(timeout=60)
    said = "".join(lines)
    assert proc.returncode in (0, 3), said[-2000:]  # 3: a point degraded by the busy host, still kept
    assert points == 2 and any(x.startswith("placement: ") for x in lines), said[-2000:]
    return out


def _one_row_per_round(folder: Path) -> None:
    """A real run keeps one yardstick row per round, and the manifest's summary of them."""
    e = load(folder)
    assert e.yardstick["round"].tolist() == [1, 2]
    assert e.yardstick["speed"].gt(0).all() and e.yardstick["cpus"].gt(0).all()
    assert e.manifest.yardstick["readings"] == 2
    assert e.manifest.yardstick["seconds_total"] == pytest.approx(e.yardstick["seconds"].sum())


@pytest.mark.speed
def test_a_real_run_keeps_one_yardstick_row_per_round_and_with_a_control_agrees_the_host_got_slower(tmp_path):
    """Folder A on the host as it is, folder B with two spinning processes pinned to each of its CPUs (from its
    sweep's start to its last point): each keeps one yardstick row per round; the control target's own throughput
    fell, and so did the yardstick's host speed (relations only). The rows are read off these two folders (a run of
    its own in the shared phase built folder A again for them alone)."""
    a = _run(tmp_path / "a")
    _one_row_per_round(a)
    with busy_cpus(per_cpu=2) as spinners:
        for pid in spinners:  # spinning, then held until B's sweep begins
            wait_until(lambda p=pid: psutil.Process(p).cpu_times().user > 0.05, 30, "a spinner spinning", 0.01)
            os.kill(pid, signal.SIGSTOP)
        b = _run_beside(spinners, tmp_path / "b")
    _one_row_per_round(b)
    c = compare([a, b], control="basic")
    ctl = c.verdicts[(c.verdicts["target"] == "basic") & (c.verdicts["metric"] == "throughput")]
    assert len(ctl) and set(ctl["verdict"]) == {"host drift"}
    assert (ctl["ratio"] < 1).all()  # the control: B ran slower than A
    assert (ctl["host_factor"] < 1).all()  # the yardstick: the host was slower for B
    assert "beside the control" in c.notes[0]
    # each of B's yardstick CPU processes shared its CPU with two spinners: it got about a third of it, and says so
    assert (load(b).yardstick["cpu_share"] < 0.75).all()

"""``ycsbctl list``: real result folders made by small runs — complete, partial (a target skipped),
being written, left by a killed ycsbctl — and damaged ones, listed newest first with their state;
none of them makes the command fail."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

from tests.fixtures.cli import CLI, ycsbctl

SMALL = ("-p", "recordcount=100", "--operations", "200", "--threads", "1", "--no-telemetry", "--quiet")


def rows(reports: Path, cwd: Path) -> dict[str, str]:
    """``ycsbctl list`` output: experiment id → its whole line (in the order printed)."""
    r = ycsbctl("list", "--reports", str(reports), cwd=cwd)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].split()[:4] == ["experiment", "started", "workloads", "targets"]
    return {line.split()[0]: line for line in lines[1:]}


def wait_for(cond, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not cond():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def test_list_shows_every_experiment_newest_first_with_its_state(tmp_path: Path):
    reports = tmp_path / "reports"
    done = ycsbctl("run", "workload-b", "--target", "basic://", *SMALL, "--out", str(reports / "done"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    half = ycsbctl("run", "workload-b", "--targets", "basic://,redis://127.0.0.1:1", *SMALL,
                   "--out", str(reports / "half"), cwd=tmp_path, timeout=180)
    assert half.returncode == 1  # the unreachable target is skipped: a partial experiment

    # one being written now, then left behind by a ycsbctl killed with SIGKILL (no chance to clean up)
    env = {**os.environ, "YCSBCTL_STATE_DIR": str(tmp_path / "state")}
    proc = subprocess.Popen([*CLI, "run", "workload-b", "--target", "basic://", "-p", "recordcount=100",
                             "--duration", "60", "--threads", "1", "--no-telemetry", "--quiet",
                             "--out", str(reports / "killed")], cwd=tmp_path, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_for(lambda: (reports / ".killed.partial" / "manifest.json").exists())
        listed = rows(reports, tmp_path)
        assert "running" in listed["killed"]
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()

    # damaged: a manifest cut short, and a folder of runs whose manifest is gone and one run file is garbage
    shutil.copytree(reports / "done", reports / "cut")
    text = (reports / "cut" / "manifest.json").read_text()
    (reports / "cut" / "manifest.json").write_text(text[: len(text) // 2])
    shutil.copytree(reports / "done", reports / "headless")
    (reports / "headless" / "manifest.json").unlink()
    (reports / "headless" / "runs" / "zz.json").write_text("{not json")
    (reports / "notes.txt").write_text("not an experiment")
    (reports / "plots").mkdir()  # neither manifest nor runs: not an experiment, not listed

    listed = rows(reports, tmp_path)
    assert set(listed) == {"done", "half", "killed", "cut", "headless"}
    order = [i for i in listed if i in ("done", "half", "killed")]
    assert order == ["killed", "half", "done"]  # newest first
    workloads, targets, ok, not_ok = listed["done"].split()[3:7]
    assert (workloads, ok, not_ok) == ("workload-b", "1", "0") and targets.startswith("basic:")
    assert listed["done"].endswith("complete")
    assert "redis://127.0.0.1:1" in listed["half"] and listed["half"].endswith("partial")
    assert "abandoned" in listed["killed"] and "--resume" in listed["killed"]
    assert "damaged" in listed["cut"] and "manifest.json unreadable" in listed["cut"]
    assert "damaged" in listed["headless"] and "no manifest.json" in listed["headless"]
    assert "1 unreadable run file" in listed["headless"]


def test_no_reports_folder_is_a_note_not_an_error(tmp_path: Path):
    r = ycsbctl("list", "--reports", str(tmp_path / "nothing"), cwd=tmp_path)
    assert r.returncode == 0 and r.stdout == "" and "no experiments" in r.stderr


def test_a_folder_named_with_a_control_character_keeps_its_row_on_one_line(tmp_path: Path):
    reports = tmp_path / "reports"
    odd = reports / "new\nline\tü"
    odd.mkdir(parents=True)
    (odd / "manifest.json").write_text('{"experiment_id": "new\\nline\\tü", "status": "complete", '
                                       '"started_at": "2026-11-27T10:59:43+00:00"}')
    r = ycsbctl("list", "--reports", str(reports), cwd=tmp_path)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 2 and lines[1].startswith("new\\nline\\tü  2026-11-27 10:59:43"), r.stdout

"""``ycsbctl rerun FOLDER``: a folder's plan run again into a new folder and compared with it on the first screen;
a folder of an older ycsbctl read, a target that cannot start here refused in one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.fixtures.cli import run_cli, ycsbctl_in
from ycsbctl.cli.experiment import plan_of_args
from ycsbctl.errors import UserError
from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.rerun import cannot_start, host_differences, read_manifest, stored_plan
from ycsbctl.results.schema import Manifest

V0 = Path(__file__).resolve().parents[1] / "data" / "folder-v0"
SCREEN = 24  # lines of a terminal's first screen
SMALL = ('workloads = ["workload-b"]\ntargets = ["basic://"]\nthreads = "1,2"\nduration = 0.5\nwarmup = 0\n'
         'records = 100\nprocesses = 1\nseed = 11\nreport = false\nyardstick = false\n')


def _manifest(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text())


def test_rerun_runs_the_plan_again_and_says_the_host_difference_before_the_comparison(tmp_path: Path):
    study = tmp_path / "small.toml"
    study.write_text(SMALL)
    first = ycsbctl_in(tmp_path, "run", str(study), "--out", str(tmp_path / "first"), "--quiet", "--allow-concurrent")
    assert first.returncode in (0, 3), first.stderr  # 3: a point degraded by another program on this shared host
    stored = _manifest(tmp_path / "first")
    # the folder as another host wrote it: other CPU facts and server versions in its manifest
    stored["host"] = {**stored["host"], "cpu_model": "Elsewhere CPU 9000", "cores": 512}
    (tmp_path / "first" / "manifest.json").write_text(json.dumps(stored))

    again = ycsbctl_in(tmp_path, "rerun", str(tmp_path / "first"), "--out", str(tmp_path / "again"), "--quiet",
                       "--allow-concurrent")
    assert again.returncode in (0, 3), again.stderr
    rerun = _manifest(tmp_path / "again")
    assert rerun["status"] == "complete" and rerun["plan"] == stored["plan"]
    assert Plan.from_dict(rerun["plan"]) == Plan.from_dict(stored["plan"])
    screen = again.stdout.splitlines()[:SCREEN]
    assert screen[0].startswith(f"this run's host differs from {tmp_path / 'first'}'s: CPU: Elsewhere CPU 9000 → ")
    assert "cores: 512 → " in screen[0]
    assert sum("workloadb" in line and "basic" in line for line in screen) == 2, again.stdout  # its two cells
    assert len(again.stderr.splitlines()) <= 4, again.stderr  # results, report, notes: the table stays on screen
    assert (tmp_path / "again" / "compare.html").is_file()


def test_a_folder_of_an_older_ycsbctl_is_read_as_its_plan():
    manifest = read_manifest(V0)
    plan = stored_plan(V0, manifest)
    assert (plan.targets, plan.threads, plan.records, plan.duration_s, plan.backend) == (
        ["redis", "dragonfly"], [2], 200, 0.5, "local")


def test_a_target_that_cannot_start_here_is_one_line_saying_which_and_how(tmp_path: Path):
    folder = tmp_path / "elsewhere"
    shutil.copytree(V0, folder)
    stored = _manifest(folder)
    stored["plan"]["binaries"] = {"dragonfly": "/opt/elsewhere/bin/dragonfly"}  # a build on the host that ran it
    (folder / "manifest.json").write_text(json.dumps(stored))
    result = run_cli("rerun", str(folder))
    assert result.exit_code == 2
    line = result.output.strip()
    assert "\n" not in line and "target dragonfly cannot start here" in line, line
    assert "/opt/elsewhere/bin/dragonfly" in line and "--binary dragonfly=PATH" in line
    assert "--target dragonfly=URL" in line
    assert not any(p.name != "elsewhere" for p in tmp_path.iterdir())  # nothing was started or written


def test_the_default_plan_can_start_here_as_run_would_run_it():
    """A default plan's target that a stand-in replaces where it cannot start (mongodb: FerretDB) is not refused:
    `rerun` of a default-plan folder runs it again as `ycsbctl run workload-b` does here."""
    default = plan_of_args(["workload-b"])
    assert cannot_start(default) is None
    assert stored_plan(V0, Manifest("x", plan=default.to_dict())) == default


def test_a_stored_target_is_replaced_by_a_url_given_for_its_label():
    plan = stored_plan(V0, read_manifest(V0), ("dragonfly=redis://127.0.0.1:6390",))
    assert plan.targets == ["redis", "redis://127.0.0.1:6390"]


@pytest.mark.parametrize("args, said", [
    (("--target", "nope=redis://127.0.0.1:1"), "the stored targets are redis, dragonfly"),
    (("--target", "dragonfly=dragonfly"), "give the URL of a server you run"),
    (("--target", "redis://127.0.0.1:1"), "not a stored target (they are redis, dragonfly)"),
])
def test_a_wrong_replacement_is_one_line(args: tuple[str, ...], said: str):
    result = run_cli("rerun", str(V0), *args)
    assert result.exit_code == 2 and said in result.output and result.output.count("\n") == 1, result.output


def test_a_password_the_manifest_does_not_keep_is_asked_for_in_one_line(tmp_path: Path):
    stored = Manifest("x", plan={**_manifest(V0)["plan"], "targets": ["redis://:***@127.0.0.1:6390/0"]})
    with pytest.raises(UserError, match=r"passwords ycsbctl does not keep.*: pass them again to rerun"):
        stored_plan(V0, stored)
    again = stored_plan(V0, stored, ("redis://:secret@127.0.0.1:6390/0",))
    assert again.targets == ["redis://:secret@127.0.0.1:6390/0"]


def test_what_is_not_a_result_folder_is_refused_with_why(tmp_path: Path):
    result = run_cli("rerun", str(tmp_path))
    assert result.exit_code == 2 and "has no manifest.json: it is not a ycsbctl result folder" in result.output
    (tmp_path / "manifest.json").write_text(json.dumps({"experiment_id": "x", "schema_version": 99}))
    result = run_cli("rerun", str(tmp_path))
    assert result.exit_code == 2 and "newer than this ycsbctl reads" in result.output


@pytest.mark.parametrize(("key", "value", "said"), [
    ("properties", [5], "manifest.plan.properties: an item '5' is not text"),
    ("threads", [0], "manifest.plan.threads: an item '0' is not a thread count"),
    ("slice_s", 0, "holds a value this ycsbctl refuses (--slice 0: give seconds from 0.05 to 10)"),
    ("order", "sideways", "holds a value this ycsbctl refuses (unknown --order 'sideways'"),
    ("targets", [], "holds a value this ycsbctl refuses (no target")])
def test_an_edited_manifests_plan_is_one_line_naming_the_manifest_before_anything_runs(
        key: str, value: object, said: str, tmp_path: Path):
    """A value no command line gives (an edited manifest): exit 2, one line naming the folder's manifest (was: a
    traceback for an item of another type; a thread count of 0 went on to run; an option named that was not given)."""
    folder = tmp_path / "edited"
    shutil.copytree(V0, folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["plan"] = {**manifest["plan"], "targets": ["basic://"], key: value}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    result = run_cli("rerun", str(folder), "--out", str(tmp_path / "again"))
    line = result.output.strip()
    assert result.exit_code == 2 and "\n" not in line and said in line, result.output
    assert line.startswith("error: rerun: ") and f"{folder}/manifest.json" in line
    assert not (tmp_path / "again").exists()


def test_host_differences_name_cpu_cores_kernel_and_server_versions():
    a = Manifest("a", host={"cpu_model": "X", "cores": 2, "kernel": "6.1"},
                 servers={"redis": {"server_version": "7.0.15"}, "gone": {"server_version": "1"}})
    assert host_differences(a, a) == []
    b = Manifest("b", host={"cpu_model": "Y", "cores": 2, "kernel": "6.2"},
                 servers={"redis": {"server_version": "8.0"}})
    assert host_differences(a, b) == ["CPU: X → Y", "kernel: 6.1 → 6.2", "redis server: 7.0.15 → 8.0"]


def test_a_rerun_whose_folders_share_no_point_keeps_its_folder_and_exit_code_and_says_why_not_compared(
        tmp_path: Path):
    """The stored folder measured other targets than the plan now runs (here: its runs are redis and dragonfly, its
    plan basic://): the rerun runs and keeps its folder; the comparison it cannot make is one line, and the exit code
    is the run's (was: "error: compare: nothing to compare", exit 2, as if the command line were wrong)."""
    folder = tmp_path / "old"
    shutil.copytree(V0, folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["plan"] = {**manifest["plan"], "targets": ["basic://"]}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    done = ycsbctl_in(tmp_path, "rerun", str(folder), "--out", str(tmp_path / "again"), "--allow-concurrent",
                      "--quiet", "--no-report")
    assert done.returncode in (0, 1, 3), done.stderr[-3000:]
    assert f"rerun: {tmp_path / 'again'} is not compared with {folder}: nothing to compare" in done.stderr
    assert "error:" not in done.stderr and (tmp_path / "again" / "runs.parquet").exists()

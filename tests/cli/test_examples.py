"""Every study file under examples/ runs, at small scale: the file as the manual shows it, with options that the
command line lays over it (smoke scale, one round, half-second points), through the real command."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pandas as pd
import pytest

from tests.fixtures.cli import ycsbctl_in
from ycsbctl.cli.experiment import plan_of_args

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.toml"))
# one round of --repeat auto (an example's budget bounds its rounds: a --repeat N would make it bound nothing)
SMALL = ["--profile", "smoke", "--threads", "2", "--repeat", "auto", "--max-repeat", "1", "--duration", "0.5",
         "--warmup", "0", "--records", "200", "--processes", "1", "--no-report", "--no-yardstick", "--quiet",
         "--allow-concurrent"]


# Each example and the command line of the manual it writes down (the same plan)
SAME_AS = {
    "redis-vs-mongodb.toml": "ycsbctl run workload-b",
    "redis-peers.toml": "ycsbctl run workload-b --targets redis,valkey,redis6 --threads 8,16 --duration 3",
    "redis-lazyfree.toml": "ycsbctl run workload-b --targets redis,redis-lazyfree --server-config "
                           "redis-lazyfree:lazyfree-lazy-user-del=yes",
}


def test_each_example_is_a_command_line_of_the_manual():
    from tests.fixtures.docs import docs_text

    assert sorted(SAME_AS) == [p.name for p in EXAMPLES]
    shown = docs_text()
    for name, line in SAME_AS.items():
        assert line in shown, f"{line!r} is no longer in docs/"
        assert plan_of_args([str(ROOT / "examples" / name)]) == plan_of_args(shlex.split(line)[2:]), name


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_study_runs_at_small_scale(example: Path, tmp_path: Path):
    out = tmp_path / "out"
    done = ycsbctl_in(tmp_path, "run", str(example), *SMALL, "--out", str(out), timeout=240)
    manifest = json.loads((out / "manifest.json").read_text())
    skipped = {s["target"] for s in manifest["skipped_targets"]}
    # partial: a target that cannot start here (mongodb without Percona's mongod) is skipped, its stand-in measured
    assert manifest["status"] == ("partial" if skipped else "complete"), done.stderr
    runs = pd.read_parquet(out / "runs.parquet")
    assert set(runs.status) <= {"ok", "degraded"}, runs[["target", "status"]]
    # the exit code the folder calls for: 1 for a skipped target, else 3 for a point another program on this shared
    # host degraded, else 0 (docs/guide/result-folder.md#status-and-exit-codes)
    assert done.returncode == (1 if skipped else 3 if "degraded" in set(runs.status) else 0), done.stderr
    measured = set(runs.target)
    used = {s["wanted"]: s["used"] for s in manifest.get("substitutions", [])}
    for target in plan_of_args([str(example)]).targets:  # each measured, or its announced stand-in
        assert target in measured or (target in skipped and used.get(target) in measured), (target, measured, used)

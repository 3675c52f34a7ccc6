"""A run's files are named by one function (:func:`ycsbctl.results.tables.file_stem`): a run id that holds
characters a file name should not (an IPv6 target's ``::1``) names the same file wherever it is written, read or
mentioned in a warning."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd

from tests.fixtures.cli import CONCURRENT, ycsbctl
from tests.fixtures.servers import start_redis
from ycsbctl.results.tables import file_stem


def test_a_damaged_run_file_of_an_ipv6_target_is_named_as_it_is_on_disk(tmp_path: Path):
    """Was 'warning: …/runs/redis-::1-….json: impossible figures …' for the file runs/redis-__1-….json."""
    server = start_redis(tmp_path / "redis", extra=("--bind", "127.0.0.1", "::1"))
    try:
        out = tmp_path / "exp"
        done = ycsbctl("run", "workload-c", "--target", f"redis://[::1]:{server.port}/0", "--load", "--records", "50",
                       "--threads", "1,2", "--duration", "0.5", "--warmup", "0", "--no-telemetry", "--out", str(out),
                       CONCURRENT, cwd=tmp_path)
    finally:
        server.stop()
    assert done.returncode in (0, 1, 3) and (out / "runs.parquet").exists(), done.stderr[-2000:]
    runs = pd.read_parquet(out / "runs.parquet")
    run_id = str(runs.loc[runs["phase"] == "run", "run_id"].iloc[0])
    assert "::1" in run_id and file_stem(run_id) != run_id  # the case this test is about
    stored = out / "runs" / f"{file_stem(run_id)}.json"
    doc = json.loads(stored.read_text())
    doc["result"]["throughput_ops"] = -5.0
    stored.write_text(json.dumps(doc))
    runs.loc[runs["run_id"] == run_id, "throughput_ops"] = -5.0
    runs.to_parquet(out / "runs.parquet")
    rep = ycsbctl("report", str(out), cwd=tmp_path)
    assert rep.returncode == 0, rep.stderr[-2000:]
    (warned,) = [x for x in rep.stderr.splitlines() if "impossible figures" in x]
    named = Path(re.match(r"warning: (.+?\.json): ", warned).group(1))  # type: ignore[union-attr]
    assert named == stored and named.exists(), warned


def test_a_profiles_folder_is_the_run_files_name_and_an_older_folder_under_the_raw_id_still_reads(tmp_path: Path):
    from ycsbctl.report.profile_report import profile_sections

    new, old = "redis-::1-6379.workloadc.run.t1.r1", "redis-::1-6379.workloadc.run.t2.r1"
    for folder in (file_stem(new), old):  # written by this version; by one before it (the run id as it is)
        (tmp_path / "profiles" / folder).mkdir(parents=True)
        (tmp_path / "profiles" / folder / "top_frames.csv").write_text("frame,share\nmain,1.0\n")
    got = {s["run_id"]: s for s in profile_sections(tmp_path, {new: {}, old: {}})}
    assert got[new]["folder"] == f"profiles/{file_stem(new)}/" and got[old]["folder"] == f"profiles/{old}/"
    assert got[new]["frames"] == got[old]["frames"] == [{"frame": "main", "share": 1.0}]

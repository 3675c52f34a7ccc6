"""``ycsbctl run workload-b --targets redis,memcached``: both provisioned from Debian's binaries, loaded,
measured and reported side by side; the report and the result folder hold both."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from tests.fixtures.cli import ycsbctl

pytestmark = pytest.mark.report  # reads the report a sweep draws (see tests/fixtures/session.py)


def test_redis_and_memcached_are_compared_in_one_report(tmp_path: Path):
    out = tmp_path / "cmp"
    run = ycsbctl("run", "workload-b", "--targets", "redis,memcached", "--backend", "local", "--threads", "4",
                  "--records", "500", "--duration", "1", "--warmup", "0", "--processes", "1",
                  "--out", str(out), cwd=tmp_path, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    runs = pd.read_parquet(out / "runs.parquet")
    assert sorted(runs.target.unique()) == ["memcached", "redis"]
    assert set(runs.status) == {"ok"}
    for target in ("memcached", "redis"):
        done = runs[(runs.target == target) & (runs.phase == "run")]
        assert len(done) == 1 and done.operations.iloc[0] > 0 and done.not_found.iloc[0] == 0
        assert runs[(runs.target == target) & (runs.phase == "load")].operations.iloc[0] == 500
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["servers"]["memcached"]["server_name"].startswith("memcached 1.")
    fp = manifest["footprints"]["memcached"]
    assert fp["basis"] == "bytes" and fp["keys"] == 500 and fp["bytes_per_record"] > 1000
    html = (out / "report.html").read_text()
    assert "memcached 1." in html and "Redis 7" in html
    assert "│ memcached │" in run.stderr and "│ redis     │" in run.stderr  # the console table has a row of each

"""notebooks/explore.ipynb runs top to bottom on a result folder and draws its figures."""

from __future__ import annotations

import os
import subprocess

from tests.fixtures.notebook import ROOT
from tests.fixtures.notebook import execute_notebook as _execute


def test_explore_notebook_runs_top_to_bottom(synthetic_experiment, tmp_path, monkeypatch):
    nb = _execute(synthetic_experiment, tmp_path, monkeypatch)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) >= 2 + 2  # the study's figure per workload, then the two explorations
    text = "".join(o.get("text", "") for o in outputs)
    assert "exp-small: complete" in text
    last = nb.cells[-1].outputs[0]["data"]["text/plain"]
    assert "latency (µs) over" in last and "p99.99" in last


def test_explore_notebook_reads_the_structure_study(redis_server, tmp_path, monkeypatch):
    """A study with a sweep axis (online-status, Hash and Set, each loaded into a real Redis): the
    notebook's study section tabulates each variant's bytes per record and draws the grouped figure."""
    out = tmp_path / "study"
    env = {**os.environ, "YCSBCTL_STATE_DIR": str(tmp_path / "state")}
    p = subprocess.run([str(ROOT / ".venv" / "bin" / "ycsbctl"), "run", "online-status", "-p", "online.structure=hash,set",
                        "--target", redis_server.url, "--load", "--records", "2000", "--threads", "2", "--duration", "1",
                        "--warmup", "0", "--allow-concurrent", "--out", str(out)],
                       capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert p.returncode in (0, 1), p.stderr[-3000:]  # 1: a point another benchmark ran beside (host-busy)
    nb = _execute(out, tmp_path, monkeypatch)
    cell = next(c for c in nb.cells if c.cell_type == "code" and "variant_study.study_rows" in c.source)
    assert not [o for o in cell.outputs if o.output_type == "error"]
    text = "".join(o.get("data", {}).get("text/plain", "") for o in cell.outputs)
    assert "bytes per record (user)" in text and "hash" in text and "set" in text
    assert any("image/png" in o.get("data", {}) for o in cell.outputs)  # the grouped bar figure

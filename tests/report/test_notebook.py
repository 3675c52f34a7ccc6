"""notebooks/explore.ipynb runs top to bottom on a result folder and draws its figures."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "explore.ipynb"


def test_explore_notebook_runs_top_to_bottom(synthetic_experiment, tmp_path, monkeypatch):
    pytest.importorskip("ipykernel", reason="needs ipykernel in the venv (pip install -e '.[test]')")
    monkeypatch.setenv("YCSBCTL_RESULT", str(synthetic_experiment))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    # kernel "python3" starts with this interpreter (jupyter_client swaps "python" for sys.executable)
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) >= 2 + 2  # the study's figure per workload, then the two explorations
    text = "".join(o.get("text", "") for o in outputs)
    assert "exp-small: complete" in text
    last = nb.cells[-1].outputs[0]["data"]["text/plain"]
    assert "latency (µs) over" in last and "p99.99" in last

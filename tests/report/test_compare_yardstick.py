"""compare across folders with the host yardstick as the automatic control: folder B is folder A measured on a
host 1.25× faster — every value and the yardstick scaled by the same factor — so no change is called."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from tests.fixtures.cli import run_cli
from tests.fixtures.experiments import build_experiment
from ycsbctl.report.compare import compare
from ycsbctl.results import host_drift
from ycsbctl.results import yardstick as ys

SMALL = {"workloads": ("workloadb",), "threads": (8, 16), "repetitions": 3, "failed": False, "skipped": False}
FACTOR = 1.25
NO_MARGIN = host_drift.Margins({"throughput": 0.0, "p99": 0.0}, "none")


def _add_yardstick(folder: Path, scale: float) -> None:
    for i, (cpu, rtt) in enumerate([(4e6, 100.0), (3.6e6, 110.0), (4.2e6, 95.0)], 1):
        r = ys.Reading(cpu_ops_per_s=cpu * scale, rtt_us=rtt / scale, rtt_median_us=rtt / scale, cpu_share=0.95, cpus=2,
                       seconds=0.3)
        ys.append(folder, r.row(i, "run", "", f"2026-11-27T08:0{i}:00+00:00"))


def _faster_copy(a: Path, name: str, factor: float) -> Path:
    """Folder ``a`` as a host ``factor`` times faster would have measured it: throughput × factor, every
    latency ÷ factor, the yardstick's speed × factor."""
    b = a.with_name(name)
    shutil.copytree(a, b)
    (b / ys.FILE).unlink()
    _add_yardstick(b, factor)
    manifest = json.loads((b / "manifest.json").read_text())
    (b / "manifest.json").write_text(json.dumps({**manifest, "experiment_id": name}))
    runs = pd.read_parquet(b / "runs.parquet")
    runs["throughput_ops"] = runs["throughput_ops"] * factor
    for col in [c for c in runs.columns if c.endswith("_us") and c.startswith("all_")]:
        runs[col] = runs[col] / factor
    runs.to_parquet(b / "runs.parquet", index=False)
    return b


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> tuple[Path, Path]:
    a = build_experiment(tmp_path_factory.mktemp("yardstick"), "a", **SMALL)
    _add_yardstick(a, 1.0)
    return a, _faster_copy(a, "b", FACTOR)


def test_compare_divides_the_host_factor_out_and_calls_no_change(folders):
    c = compare(list(folders), margins=NO_MARGIN)
    assert len(c.table) == 4 and c.control is None
    assert c.table["ops_ratio"].tolist() == pytest.approx([1.0] * 4)
    assert c.table["latency_ratio"].tolist() == pytest.approx([1.0] * 4)
    assert not set(c.table["ops_verdict"]) & {"better", "worse"}
    assert not set(c.table["latency_verdict"]) & {"better", "worse"}
    assert c.table["host_factor"].tolist() == pytest.approx([FACTOR] * 4)
    assert "host speed 1.25× between the folders (yardstick) (divided out of every cell; median of 3 and 3 readings)" \
        in c.notes[0]


def test_without_the_other_folders_yardstick_the_faster_host_reads_as_better(folders, tmp_path):
    b = tmp_path / "b"
    shutil.copytree(folders[1], b)
    (b / ys.FILE).unlink()
    c = compare([folders[0], b], margins=NO_MARGIN)
    assert c.table["ops_ratio"].tolist() == pytest.approx([FACTOR] * 4)
    assert set(c.table["ops_verdict"]) == {"better"}
    assert c.table["host_factor"].isna().all()
    assert "no yardstick in both folders" in c.notes[0]


def test_a_host_that_moved_beyond_the_drift_margin_is_said_in_each_cell_and_the_note(folders):
    c = compare(list(folders))  # the default margin (no calibration record in the test session): ±10 %, 1.25× is beyond
    margin = 100 * host_drift.read().of("throughput")
    assert c.verdicts["caveat"].str.contains("the host's own speed moved 25.0 %, beyond that margin").all()
    assert f"the host's own speed moved 25.0 %, beyond the ±{margin:.1f} % drift margin" in c.notes[0]


def test_compare_json_holds_each_cells_host_factor(folders):
    r = run_cli("compare", *map(str, folders), "--format", "json")
    assert r.exit_code in (0, 1, 3), r.output
    cells = json.loads(r.output[r.output.index("["):])
    assert cells and [c["host_factor"] for c in cells] == pytest.approx([FACTOR] * len(cells))

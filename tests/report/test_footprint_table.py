"""The footprint table names its rows as a person reads them, and the memory chart never puts a file's
size (SQLite's pages) beside a server's used_memory without saying, on that chart, that they are
unlike quantities."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from ycsbctl.report.html import FOOTPRINT_NAMES, footprint_rows
from ycsbctl.report.resource_plots import footprint_figure
from ycsbctl.results.frames import Experiment
from ycsbctl.results.schema import Manifest
from ycsbctl.telemetry.footprint import Footprint

pytestmark = pytest.mark.report  # reads the report a sweep draws (see tests/fixtures/session.py)

MIB = 1024 * 1024


def _experiment(bases: dict[str, str]) -> Experiment:
    footprints = {t: Footprint(t, "redis", 1000, 1 * MIB, 3 * MIB, 8 * MIB, 9 * MIB, "process", 2097.152, basis,
                               1048.576, 1000).to_dict() for t, basis in bases.items()}
    manifest = Manifest.from_dict({"experiment_id": "", "status": "complete", "footprints": footprints,
                                   "plan": {"targets": list(bases)}})
    runs = pd.DataFrame({"status": pd.Series(dtype=str), "target": pd.Series(dtype=str)})
    return Experiment(Path("."), manifest, runs, pd.DataFrame(), pd.DataFrame(), pd.DataFrame(), {})


def _memory_title(exp: Experiment) -> str:
    fig = footprint_figure(exp, {"redis": "#0072B2", "sqlite": "#E69F00"})
    return next(ax.get_title() for ax in fig.axes if ax.get_title().startswith("memory after load"))


def test_every_footprint_row_has_a_name_a_person_reads_and_its_field_beside():
    targets, rows = footprint_rows(_experiment({"redis": "used_memory", "sqlite": "page_count*page_size"}))
    assert targets == ["redis", "sqlite"]
    fields = set(Footprint.__dataclass_fields__) - {"target"}
    assert {r["field"] for r in rows} == fields and fields <= set(FOOTPRINT_NAMES)
    assert all("_" not in r["name"] for r in rows)
    by = {r["field"]: r for r in rows}
    assert by["db_memory_after_bytes"]["name"] == "memory the store reports, after"
    assert by["db_memory_after_bytes"]["cells"] == ["3.0 MiB", "3.0 MiB"]


def test_a_file_size_beside_used_memory_carries_the_caveat_on_the_same_chart():
    fig = footprint_figure(_experiment({"redis": "used_memory", "sqlite": "page_count*page_size"}),
                           {"redis": "#0072B2", "sqlite": "#E69F00"})
    titles = [ax.get_title() for ax in fig.axes]
    assert titles[:2] == ["bytes per record after load\n(unlike quantities: see the note below)",
                          "memory after load\n(unlike quantities: see the note below)"]
    assert ("Unlike quantities, not comparable: redis's figure is used_memory; sqlite's figure is page_count*page_size."
            in [t.get_text() for t in fig.texts])
    assert _memory_title(_experiment({"redis": "used_memory", "sqlite": "used_memory"})) == "memory after load"

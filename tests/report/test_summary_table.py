"""The console summary after a sweep: NOT_FOUND and timeouts are columns, reasons are shown."""

from __future__ import annotations

import io

from rich.console import Console

from tests.fixtures.experiments import FAILED_ERROR, build_experiment
from ycsbctl.report.summary_table import print_summary


def test_the_summary_has_not_found_and_timeout_columns_and_names_why_a_point_failed(tmp_path):
    folder = build_experiment(tmp_path, "exp", repetitions=1)
    buf = io.StringIO()
    print_summary(folder, Console(file=buf, width=250))
    text = buf.getvalue()
    header = next(line for line in text.splitlines() if "threads" in line and "status" in line)
    assert "NOT_FOUND" in header and "timeouts" in header
    assert f"mongodb 32 threads: failed — {FAILED_ERROR}" in text

"""Which row is a study's peak: the highest mean throughput of a thread ladder, on hand-built points whose
best row is neither the first, the last, nor the one of the most threads or the lowest latency."""

from __future__ import annotations

import math

import pandas as pd

from ycsbctl.report.plots import peak_run, spectrum_threads_default


def _points() -> pd.DataFrame:
    rows = []
    for target, ladder in (("redis", {8: 900.0, 16: 1500.0, 32: 1200.0, 64: math.nan}),
                           ("mongodb", {8: 400.0, 16: 380.0, 32: 700.0, 64: 650.0})):
        for threads, tput in ladder.items():
            rows.append({"workload": "online-status[online.structure=set]", "target": target, "threads": threads,
                         "throughput_mean": tput, "run_ids": [f"{target}-t{threads}-r0", f"{target}-t{threads}-r1"]})
    return pd.DataFrame(rows)


def test_the_peak_is_the_ladders_highest_mean_throughput_and_its_first_run():
    p = _points()
    w = "online-status[online.structure=set]"
    assert peak_run(p, w, "redis") == "redis-t16-r0"
    assert peak_run(p, w, "mongodb") == "mongodb-t32-r0"
    assert peak_run(p, "workload-a", "redis") is None
    assert spectrum_threads_default(p, w, ["redis", "mongodb"]) == 16
    assert spectrum_threads_default(p, w, ["mongodb", "redis"]) == 32
    assert spectrum_threads_default(p, w, ["keydb", "mongodb"]) == 32  # the first target that was measured

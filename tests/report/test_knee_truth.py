"""Where a ladder stops growing is said only where the cells' intervals support it: a runs table made by hand
with a clear knee gets it, the same table with the knee inside the noise does not, and two folders measured
alike (the engine alone, ``basic://``, twice) never name knees at two different thread counts."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from tests.fixtures.cli import ycsbctl
from ycsbctl.report.knee import Plateau, Rung, plateau
from ycsbctl.report.summary import findings, workload_findings
from ycsbctl.results.cells import cell_table
from ycsbctl.results.frames import load, points

KNEE = re.compile(r"stops growing at (\d+) threads?")


def _runs(by_threads: dict[int, list[float]], target: str = "redis") -> pd.DataFrame:
    """A runs table of one ladder: one ok run-phase row per round of each thread count (ops/s)."""
    return pd.DataFrame([{"run_id": f"{target}.workloadb.run.t{t}.r{r}", "target": target, "workload": "workloadb",
                          "phase": "run", "threads": t, "repetition": r, "status": "ok", "throughput_ops": v,
                          "target_rate": None, "all_p99_us": 100.0 * t, "bottleneck": "server-cpu", "error": None,
                          "bottleneck_text": "server CPU: 90% of the 100% it can use", "why": None,
                          "server": "Redis 7", "server_cpu_pct_mean": 90.0, "client_cpu_pct_mean": 50.0}
                         for t, values in by_threads.items() for r, v in enumerate(values, 1)])


def _said(runs: pd.DataFrame) -> str:
    """The workload's sentences, its knee read off the cells' intervals."""
    return " ".join(workload_findings(points(runs), "workloadb", ["redis"], "p99", cells=cell_table(runs)))


def test_a_hand_built_ladder_with_a_clear_knee_gets_it_and_one_inside_its_noise_does_not():
    # three rounds a thread count: 8 → 16 doubles, 32 and 64 stay within 3 % of 16
    knee = _runs({8: [990, 1000, 1010], 16: [1980, 2000, 2020], 32: [2030, 2050, 2060], 64: [1990, 2010, 2040]})
    cells = cell_table(knee)
    c = cells.set_index("threads")
    assert c.loc[16, "throughput_low"] > 1.1 * c.loc[8, "throughput_high"]  # the step into 16 is beyond the noise
    assert all(c.loc[t, "throughput_high"] <= 1.1 * c.loc[16, "throughput_low"] for t in (32, 64))
    said = _said(knee)
    assert "its throughput stops growing at 16 threads (2.0k ops/s; 2.0k ops/s at 64 threads)" in said.lower(), said
    # the same centres with rounds that scatter by a third: no interval separates, no knee, flat within noise from 8
    noisy = _runs({8: [700, 1000, 1300], 16: [1400, 2000, 2600], 32: [1450, 2050, 2650], 64: [1410, 2010, 2610]})
    said = _said(noisy)
    assert not KNEE.search(said) and "its throughput is flat within noise from 8 threads on" in said.lower(), said
    # a ladder from one thread: one thread, singular; a flat ladder from there says so
    one = _runs({1: [990, 1000, 1010], 2: [1980, 2000, 2020], 4: [2000, 2010, 2030]})
    assert "stops growing at 2 threads (2.0k ops/s; 2.0k ops/s at 4 threads)" in _said(one).lower()
    flat = _runs({1: [1980, 2000, 2020], 2: [1990, 2000, 2010]})
    assert "flat within noise from 1 thread on (2.0k ops/s; 2.0k ops/s at 2 threads)" in _said(flat).lower()


def test_a_knee_is_held_against_the_thread_counts_after_it_not_against_its_own_wide_interval():
    """The knee's "no more than a tenth above" is judged for each later thread count against the knee's low end,
    never for the knee itself or the count before it: a knee cell whose own interval spans more than a tenth (a
    noisy cell: 1,500 to 2,500) is still a knee when growth into it and a later count within a tenth of 1,500 are
    shown."""
    rungs = [Rung(8, 1000.0, 950.0, 1050.0), Rung(16, 2000.0, 1500.0, 2500.0), Rung(32, 1580.0, 1560.0, 1600.0)]
    assert plateau(rungs) == Plateau(16, 2000.0, 32, 1580.0, knee=True)


@pytest.mark.speed
def test_two_folders_of_the_same_engine_never_name_different_knees(tmp_path: Path):
    """The engine alone (``basic://``: no server) measured twice, one folder after the other. Each knee a folder
    names is one its own cells support; where both name one, it is the same."""
    knees: list[set[int]] = []
    for name in ("a", "b"):
        out = tmp_path / name
        p = ycsbctl("run", "workload-b", "--target", "basic://", "--threads", "1,4,16", "--duration", "4",
                    "--records", "200", "--quiet", "--out", str(out))
        assert p.returncode == 0, p.stderr[-3000:]
        exp = load(out)
        said = " ".join(findings(exp, exp.points()))
        c = exp.cells().set_index("threads").sort_index()
        assert c["within_run"].all()  # one round: each cell's interval is its run's batch means
        named = {int(n) for n in KNEE.findall(said)}
        for n in named:  # growth into the knee beyond the noise, and nothing after it more than 10 % above it
            before = c.index[c.index.get_loc(n) - 1]
            assert c.loc[n, "throughput_low"] > 1.1 * c.loc[before, "throughput_high"], c
            assert (c.loc[c.index > n, "throughput_high"] <= 1.1 * c.loc[n, "throughput_low"]).all(), c
        knees.append(named)
    assert not (knees[0] and knees[1]) or knees[0] == knees[1], knees

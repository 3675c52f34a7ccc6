"""An embedded store's binding never suspends (SQLite runs each call on the loop's thread): its clients must
hand the loop on by time, or the per-second ticker starves and the point's operations fall into its warm-up
(the many-store study's SQLite FULLTEXT-PREFIX and UPDATE: "no operation was measured")."""

from __future__ import annotations

from pathlib import Path

from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.workload.properties import load_properties

THREADS = 50


def _props(**overrides: object) -> dict[str, str]:
    props = dict(load_properties("workload-e"))
    props.update({k: str(v) for k, v in overrides.items()})
    return props


def test_slow_sqlite_calls_from_many_clients_keep_the_ticker_running(tmp_path: Path) -> None:
    """50 clients of one worker scanning 1,000 rows a call (~1-3 ms each): 128 calls a client between turns
    (the old rule) made one round of the loop 6-20 s, longer than the 1 s warm-up and 1.5 s window: the ticker
    never ran and every operation was attributed to the warm-up (checked: the old rule measured none);
    handed on by time, operations are measured and the series adds up to the result."""
    url = f"sqlite://{tmp_path / 'turns.db'}"
    load = run_phase(PhaseSpec("load", url, _props(recordcount=2000), threads=4, processes=1))
    assert load.status == "ok" and load.ops["INSERT"].returns == {"OK": 2000}, load.errors
    props = _props(recordcount=2000, operationcount=10**9, scanproportion=1, insertproportion=0,
                   minscanlength=1000, maxscanlength=1000)
    r = run_phase(PhaseSpec("run", url, props, threads=THREADS, processes=1, duration_s=1.5, warmup_s=1.0))
    assert r.status == "ok", r.errors
    scans = r.ops["SCAN"].operations
    assert scans > 0, "every operation fell into the warm-up"
    s = r.series
    measured = s[(s.op == "SCAN") & ~s.warmup.astype(bool)]
    assert int(measured.operations.sum()) == scans  # the series and the result agree
    # the ticker ran in the window: the measured seconds it shipped each hold operations
    by_second = measured.groupby("second").operations.sum()
    assert len(by_second) >= 1 and (by_second > 0).all(), by_second.to_dict()

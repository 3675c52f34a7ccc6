"""SQLite's writers take turns on the file's one write lock: with several engine worker processes writing, each waits
for the others inside its own calls, which its event loop sees as a pause. That is the store's serialised writes,
measured as its latency: never ``client-stall`` (blaming the load generator) nor degraded for it, and the reason says
"our own writers waiting on the database lock". A lock held by another program stays the store's ``stall``
(tests/experiment/test_faults_sqlite_lock.py), a pause with one process or no write stays the client's."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.fixtures.phase_results import result, with_client_lag
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.experiment.judge import judge
from ycsbctl.experiment.point_runner import _own_lock_wait
from ycsbctl.stores import registry
from ycsbctl.stores.capabilities import ClientPauses
from ycsbctl.workload.properties import load_properties

OURS = "our own writers waiting on the database lock"
BUSY = [900, 1000, 950, 1000, 980, 990, 1000, 1010, 990, 1000]  # 10 s measured, no silent second


def _paused_load(processes: int):
    """A load whose client loop paused 1.5 s (15 % of its 10 s: a client stall by the rule), in ``processes``."""
    r = with_client_lag(result(BUSY), [200, 1_500_000])
    r.ops = {"INSERT": r.ops.pop("READ")}
    r.ops["INSERT"].name = "INSERT"
    r.phase, r.processes = "load", processes
    return r


def test_a_real_sqlite_load_in_two_processes_is_said_to_wait_on_its_own_writers_lock(tmp_path: Path):
    """The figures the judge is given come from a real load: 2 worker processes, its inserts (the engine's
    own result, against SQLite's own count of the rows)."""
    url = f"sqlite://{tmp_path / 'own.db'}"
    props = {**load_properties("workload-a"), "recordcount": "400"}
    r = run_phase(PhaseSpec("load", url, props, threads=4, processes=2))
    assert r.processes == 2 and r.ops["INSERT"].returns == {"OK": 400}
    with sqlite3.connect(tmp_path / "own.db") as db:
        assert db.execute("SELECT count(*) FROM usertable").fetchone()[0] == 400
    said = _own_lock_wait(registry.get("sqlite"), url, r)
    assert said is not None and OURS in said and "2 worker processes" in said
    one = run_phase(PhaseSpec("run", url, {**props, "operationcount": "200", "readproportion": "1",
                                           "updateproportion": "0"}, threads=2, processes=2))
    # reads take no write lock
    assert one.ops["READ"].returns == {"OK": 200} and _own_lock_wait(registry.get("sqlite"), url, one) is None


def test_the_pause_of_our_own_writers_is_neither_a_client_stall_nor_degraded():
    url = "sqlite:///dev/shm/never-opened.db"
    r = _paused_load(2)
    v = judge(r, max_error_rate=0.01, bottleneck={"label": "client-cpu"}, pause_cause=lambda: None,
              own_wait=lambda: _own_lock_wait(registry.get("sqlite"), url, r))
    assert v.status == "ok" and v.bottleneck == {"label": "client-cpu"}, v
    assert v.reason and "the client's calls waited up to 1.5 s on the store's lock" in v.reason and OURS in v.reason
    # one process: nobody of ours to wait for — the pause is the client's, as before
    r1 = _paused_load(1)
    v1 = judge(r1, max_error_rate=0.01, bottleneck={"label": "client-cpu"}, pause_cause=lambda: None,
               own_wait=lambda: _own_lock_wait(registry.get("sqlite"), url, r1))
    assert v1.status == "degraded" and v1.bottleneck["label"] == "client-stall"
    # another program holding the file is asked first and stays the store's stall
    v2 = judge(r, max_error_rate=0.01, pause_cause=lambda: "held open by another process (python3, pid 1)",
               own_wait=lambda: _own_lock_wait(registry.get("sqlite"), url, r))
    assert v2.status == "degraded" and v2.bottleneck["label"] == "stall" and OURS not in (v2.reason or "")
    # a store with no lock of its own (a server): nothing to say, the client's pause stays the client's
    assert registry.ask("redis://127.0.0.1:1", ClientPauses.own_lock_wait, "redis://127.0.0.1:1", 2, 10) is None

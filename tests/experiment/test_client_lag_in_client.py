"""An embedded store runs inside the client's own process and event loop (SQLite): a loop that ran late was running
the store's calls, one at a time, so its client-lag line names that time the store's and never says the load
generator could not keep up (issue 43). The wording is the store's trait (``has_server`` False, recorded in the
point's endpoint), never a store's name; a networked store's point keeps the client's wording."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pandas as pd

from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.experiment.live_console import point_summary
from ycsbctl.provision.base import Endpoint
from ycsbctl.report.summary import client_lag_findings
from ycsbctl.results.client_lag import IN_CLIENT_MARK, client_lag_warning
from ycsbctl.results.folder import RunRecord
from ycsbctl.results.names import RunStatus
from ycsbctl.workload.properties import load_properties

CLIENTS_FAULT = "the load generator's own event loop ran late"


def test_a_real_sqlite_points_loop_lag_is_said_to_be_the_stores_time(tmp_path: Path):
    url = f"sqlite://{tmp_path / 'lag.db'}"
    props = {**load_properties("workload-e"), "recordcount": "600", "operationcount": "300", "maxscanlength": "300"}
    loaded = run_phase(PhaseSpec("load", url, props, threads=1, processes=1))
    with sqlite3.connect(tmp_path / "lag.db") as db:
        assert db.execute("SELECT count(*) FROM usertable").fetchone()[0] == loaded.ops["INSERT"].returns["OK"] == 600
    # four clients on one loop: while one's scan runs inside SQLite, the loop serves nothing else
    r = run_phase(PhaseSpec("run", url, props, threads=4, processes=1))
    assert r.client_lag is not None and r.client_lag.operations
    plain = client_lag_warning(r)
    assert plain is not None and CLIENTS_FAULT in plain  # the rule fires on this point, whatever the wording
    ours = Endpoint(target="sqlite", protocol="sqlite", url=url, backend="external").to_dict()
    assert ours["has_server"] is False  # said by the store (its protocol), not by the test
    line = point_summary(RunRecord("r", "sqlite", "workloade", "run", 4, 1, RunStatus.OK, result=r, endpoint=ours))
    assert f"\n  {IN_CLIENT_MARK}: the event loop ran late — " in line, line
    assert "runs inside the client's own process and loop" in line and "not a client that could not keep up" in line
    assert CLIENTS_FAULT not in line and "the client's, not the server's" not in line, line
    # the same figures on a store with a server keep the client's wording
    served = Endpoint(target="redis", protocol="redis", url="redis://127.0.0.1:1", backend="external").to_dict()
    other = point_summary(RunRecord("r", "redis", "workloade", "run", 4, 1, RunStatus.OK, result=r, endpoint=served))
    assert CLIENTS_FAULT in other and IN_CLIENT_MARK not in other


def test_the_reports_finding_says_the_stores_time_apart_from_the_clients_own():
    runs = pd.DataFrame({"target": ["sqlite", "redis", "redis"], "workload": "workloade", "threads": [4, 4, 8],
                         "client_lag_warning": [f"{IN_CLIENT_MARK}: the event loop ran late — x", "client lag: y",
                                                None]})
    store, client = client_lag_findings(runs)
    assert store.startswith("1 point(s) (sqlite workloade 4 threads) ran a store inside the client — "), store
    assert store.endswith("Their latency is the store's.") and "client's own making" not in store, store
    assert client.startswith("1 point(s) (redis workloade 4 threads) carry latency of the client's own making"), client
    assert client_lag_findings(runs.iloc[1:]) == [client]

"""The network baseline from each client host (``--cluster``): ``iperf3 -c`` run on every Dask worker's
host in turn (an iperf3 server takes one test at a time) against the iperf3 server next to the
database (``--iperf-server``). Recorded per client host beside the controller's own baseline, which
stays the one a point's ``network`` label is judged by (the server's link carries every host's
traffic: no single client path, nor their sum, is its capacity)."""

from __future__ import annotations

from typing import Any

from ycsbctl.telemetry.network import baseline_seconds, parse_server, run_client


def client_host_baselines(scheduler: str, iperf_server: str, duration_s: float | None = None) -> list[dict[str, Any]]:
    """One entry per Dask worker: ``name`` (the host label), ``worker`` (its address) and the
    :class:`~ycsbctl.telemetry.network.NetworkBaseline` fields (``gbit_s`` None with a note on failure)."""
    from ycsbctl.engine.dask_client import connect, host_label, live_workers

    duration_s = duration_s or baseline_seconds()
    client = connect(scheduler)
    host, port = parse_server(iperf_server)
    workers = live_workers(client)
    out = []
    for address in sorted(workers, key=lambda a: (host_label(a, workers[a]), a)):
        try:
            b = client.run(run_client, host, port, duration_s, workers=[address])[address].to_dict()
        except Exception as exc:  # noqa: BLE001 - a worker that left or cannot run iperf3 costs its entry
            b = {"gbit_s": None, "note": f"iperf3 on this client host failed: {type(exc).__name__}: {exc}"}
        out.append({"name": host_label(address, workers[address]), "worker": address, **b})
    return out

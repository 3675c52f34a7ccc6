"""A target's network baseline before its points: iperf3 from this host (and from each Dask worker's
host with ``--cluster``) to the server's host.

Where the iperf3 server is: ``--iperf-server HOST[:PORT]`` when given; else, for a server ycsbctl
started on another host's Docker engine, an ``iperf3 -s`` container started next to it on that
engine (:mod:`ycsbctl.provision.docker_iperf`) for the measurement; else a loopback ``iperf3 -s``
for a server on this host, and nothing (a note) for a URL on another host.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from ycsbctl.errors import UserError
from ycsbctl.experiment.study import Study
from ycsbctl.provision import Endpoint
from ycsbctl.telemetry.network import NetworkBaseline, is_loopback_path


@contextmanager
def iperf_server_for(study: Study, ep: Endpoint, say: Callable[[str], None]) -> Iterator[str | None]:
    """``HOST:PORT`` of the iperf3 server to measure against (None: :func:`iperf_baseline` decides);
    raises UserError when the container next to a remote server cannot be started."""
    plan = study.plan
    if plan.iperf_server or not (ep.host and ep.docker_host):
        yield plan.iperf_server
        return
    from ycsbctl.provision.docker_iperf import iperf_server_beside

    with iperf_server_beside(ep, image=plan.images.get("iperf3"), say=say) as server:
        yield server


def measure_baseline(study: Study, ep: Endpoint, say: Callable[[str], None],
                     loopback: dict[str, tuple[str, NetworkBaseline]] | None = None,
                     label: str = "") -> tuple[NetworkBaseline | None, dict[str, Any] | None]:
    """The baseline a point's ``network`` label is judged by, and what the manifest keeps of it
    (``server_host``: where the server runs, None for this host; ``client_hosts`` with ``--cluster``).

    ``loopback``: this experiment's loopback figures by backend, as measured for the first target whose
    baseline is this host's loopback (``label``); a later such target gets that figure, said so in its
    note, rather than another iperf3 run over the same path."""
    from ycsbctl import telemetry

    plan = study.plan
    shared = (loopback is not None and not plan.iperf_server and not plan.cluster and ep.has_server
              and is_loopback_path(ep))
    if shared and loopback is not None and ep.backend in loopback:
        first, measured = loopback[ep.backend]
        reused = replace(measured, note=f"{measured.note}; measured once for {first}, the same loopback path")
        return reused, reused.to_dict() | {"server_host": ep.host}
    base: NetworkBaseline | None
    try:
        with iperf_server_for(study, ep, say) as server:
            base = telemetry.iperf_baseline(ep, iperf_server=server, reuse=True)
            if base is not None and server and not plan.iperf_server and base.gbit_s is not None:
                base.note = f"measured against an iperf3 container next to the server on {ep.host}"
            hosts = None
            if plan.cluster and server:  # and from each client host (Dask worker)
                from ycsbctl.telemetry.client_network import client_host_baselines

                hosts = client_host_baselines(plan.cluster, server)
    except UserError as exc:
        base, hosts = NetworkBaseline(None, f"no iperf3 server next to {ep.host}: {exc.message}"), None
    if base is None:
        return None, None
    if shared and loopback is not None and base.gbit_s is not None:
        loopback[ep.backend] = (label, base)
    info = base.to_dict() | {"server_host": ep.host}
    if hosts is not None:
        info["client_hosts"] = hosts
    return base, info

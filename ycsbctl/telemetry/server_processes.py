"""Which local processes are a target's server: the PID a server reports (or the listener on its port), the
processes a several-process target lists, its ports, and the other targets of an alternated session (their
servers are ours too, never "other programs" in the host-busy check)."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from ycsbctl.provision.base import Endpoint
from ycsbctl.stores import registry
from ycsbctl.stores.capabilities import ReportedPid
from ycsbctl.telemetry.process import listener_of, listening_pid
from ycsbctl.urls import host_of, is_loopback


def _port_of(url: str) -> int | None:
    try:
        return urlsplit(url.split(",")[0]).port
    except ValueError:
        return None


def local_server_pid(endpoint: Endpoint) -> int | None:
    """PID of a server on this host we did not start: the PID it reports (INFO ``process_id``,
    serverStatus ``pid``), kept only if that process listens on the endpoint's port; else the process that
    listens on that port (a server that does not report its PID, a user without the right to ask); None
    when none does (a server that went away)."""
    if endpoint.container_id or not is_loopback(host_of(endpoint.url)):
        return None
    proto = registry.get(endpoint.protocol)
    if not proto.has_server:
        return None
    try:
        pid = registry.ask(proto, ReportedPid.reported_pid, endpoint.url)
    except Exception:  # noqa: BLE001 - any store's error (a lost server, a right the user lacks): no PID, no crash
        pid = None  # the point itself finds a lost server; its samplers say what they could not read
    port = _port_of(endpoint.url)
    if not port:
        return None
    # a server that does not say its PID (or a user not allowed to ask): the process listening on its port
    return pid if pid and listening_pid(pid, port) else listener_of(port)


def target_pids(endpoint: Endpoint, pid: int | None) -> list[int]:
    """Every local process of the target: ``pid`` (its server, sampled) and those a several-process target
    lists (a cluster's shards, a primary's replicas: ``Endpoint.processes``, where the endpoint has it)."""
    listed = [p.get("pid") for p in getattr(endpoint, "processes", None) or [] if isinstance(p, dict)]
    return list(dict.fromkeys(p for p in (pid, *listed) if isinstance(p, int) and p > 0))


def server_ports(endpoint: Endpoint) -> list[int]:
    """The TCP ports of every server process of the target (a URL may list several hosts; a
    several-process target lists its processes' ports)."""
    ports = [p["port"] for p in getattr(endpoint, "processes", None) or [] if isinstance(p, dict)
             and isinstance(p.get("port"), int)]
    for part in endpoint.url.split("//", 1)[-1].split("/", 1)[0].split("@")[-1].split(","):
        host, _, port = part.rpartition(":")
        if port.isdigit() and host:
            ports.append(int(port))
    return ports or [p for p in (_port_of(endpoint.url),) if p]


def peer_roots(peers: Iterable[Endpoint]) -> tuple[list[int], list[str]]:
    """The local server processes and the containers (ids) of ``peers``: the other targets of an alternated
    session, whose servers are ours too — the host-busy check must not count them as other programs."""
    pids: list[int] = []
    containers: list[str] = []
    for peer in peers:
        if peer.container_id and not peer.docker_host:
            containers.append(peer.container_id)
        elif registry.get(peer.protocol).has_server:
            pids += target_pids(peer, peer.pid or local_server_pid(peer))
    return pids, containers

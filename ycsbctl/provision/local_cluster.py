"""A target that is several processes of this host, made with the server's own tooling: a Redis
Cluster (``redis-cluster``: N shard primaries, optionally replicas of each, joined by ``redis-cli
--cluster create``) or a primary with replicas (``redis-repl2``: ``--replicaof``).

Every process runs in its own folder under one data folder, on a free loopback port, in its own
session; the state file keeps one entry for the target with every process's PID and create time, so
``down`` and Ctrl-C stop all of them (and nothing else). The endpoint's URL is the first primary's;
:attr:`Endpoint.processes` lists each process (role, pid, port, url) for telemetry and footprint.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import psutil

from ycsbctl.errors import UserError
from ycsbctl.processes import deferred_signals
from ycsbctl.provision import catalog, local_prep, probe, state
from ycsbctl.provision.base import Endpoint, UpOptions
from ycsbctl.provision.local import READY_TIMEOUT_S, free_port
from ycsbctl.provision.local_members import (
    keep_members,
    members_rolled_back,
    several_process_endpoint,
    wait_member_ready,
)
from ycsbctl.provision.tls import ServerCertificates
from ycsbctl.stores.registry import server_kind

CLUSTER_ARGS = ("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "5000")
# Settings a several-process kind takes for itself (popped before the server's command line):
SHARDS, REPLICAS = "shards", "replicas"


@dataclass(frozen=True)
class Topology:
    """``shards`` primaries (0: not a cluster, one primary), each with ``replicas`` replicas."""

    shards: int
    replicas: int

    @property
    def processes(self) -> int:
        return max(1, self.shards) * (1 + self.replicas)


def topology(entry: catalog.Target, settings: dict[str, str]) -> Topology:
    """The processes of ``entry`` (a several-process variant), with ``shards=N`` / ``replicas=N``
    from the label's settings (taken out of ``settings``); one line for a bad number."""
    v = entry.variant
    assert v is not None and (v.shards or v.replicas)

    def count(key: str, default: int, least: int) -> int:
        raw = settings.pop(key, None)
        if raw is None:
            return default
        try:
            n = int(raw)
        except ValueError:
            n = -1
        if n < least or n > 32:
            raise UserError(f"{entry.name}: {key}={raw!r} — give a whole number from {least} to 32")
        return n

    if v.shards:
        return Topology(count(SHARDS, v.shards, 3), count(REPLICAS, v.replicas, 0))  # redis-cli needs 3 masters
    return Topology(0, count(REPLICAS, v.replicas, 1))


def start(label: str, entry: catalog.Target, binary: str, options: UpOptions, certs: ServerCertificates | None,
          memory: int | None, pinned: list[str]) -> Endpoint:
    """Start every process of ``entry`` and join them; remove them all on any failure. A PostgreSQL kind
    is a primary and a streaming standby (:mod:`ycsbctl.provision.local_standby`)."""
    kind = server_kind(entry.local_flavor)
    if kind.standby:
        from ycsbctl.provision import local_standby

        return local_standby.start(label, entry, binary, options, certs, memory, pinned)
    say = options.progress
    settings = dict(options.settings)
    shape = topology(entry, settings)
    kind.settings_args(settings)
    root = tempfile.mkdtemp(prefix=f"ycsbctl-{label}-", dir=local_prep.disk_folder()
                            if entry.variant and entry.variant.durable else None)
    ports = _ports(shape.processes, bus=bool(shape.shards))
    roles = _roles(shape)
    first_url = catalog.url_for(entry.protocol, ports[0], tls=certs)
    endpoint, key = several_process_endpoint(label, entry, first_url, ports[0], options, memory, binary)
    procs: list[dict] = []
    with members_rolled_back(procs, key, root):
        for i, (port, role) in enumerate(zip(ports, roles)):
            folder = Path(root) / f"{i + 1}-{port}"
            folder.mkdir()
            extra = list(CLUSTER_ARGS) if shape.shards else []
            if role.startswith("replica of") and not shape.shards:
                extra += ["--replicaof", "127.0.0.1", str(ports[0])]
                if certs is not None:
                    extra += ["--tls-replication", "yes"]
            if shape.shards and certs is not None:
                extra += ["--tls-cluster", "yes"]
            argv = [*pinned, binary, *catalog.server_args(entry.local_flavor, port=port, bind="127.0.0.1",
                                                          data_dir=str(folder), memory_bytes=memory,
                                                          settings=settings, tls=certs), *extra]
            log_path = state.logs_dir() / f"{label}-{options.experiment_id}-{port}.log"
            say(f"starting {label} {role}: {shlex.join(argv)} (log {log_path})")
            with deferred_signals():  # started and recorded, or neither
                with open(log_path, "ab") as log:
                    proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                            cwd=folder, start_new_session=True)
                procs.append({"role": role, "pid": proc.pid, "port": port,
                              "url": catalog.url_for(entry.protocol, port, tls=certs),
                              "create_time": psutil.Process(proc.pid).create_time(), "log_path": str(log_path)})
                endpoint.processes = [{k: v for k, v in p.items() if k != "create_time"} for p in procs]
                endpoint.pid = procs[0]["pid"]
                state.add({"key": key, "endpoint": endpoint.to_dict(), "create_time": procs[0]["create_time"],
                           "processes": procs, "data_dir": root, "options": options.to_store(),
                           "started": time.time()})
        delays: dict[str, str] = {}
        for p in procs:
            wait_member_ready(entry, p, settings, label, binary)
            delays.update(_no_first_sync_delay(p, settings, len(procs)))  # as soon as it answers
        if shape.shards:
            _create_cluster(procs, shape, certs, say, label)
        _wait_replicas(procs, shape)
        _set_sync_delays(delays)
        facts = probe.describe(entry.protocol, first_url, expected=entry.display)
    what = (
        f"Redis Cluster of {shape.shards} shards" + (f", {shape.replicas} replica(s) each" if shape.replicas else "")
        if shape.shards
        else f"a primary and {shape.replicas} replica(s)"
    )
    endpoint.notes.append(f"{what}: {len(procs)} processes on ports {', '.join(str(p['port']) for p in procs)}")
    return keep_members(endpoint, key, facts)


BUS_OFFSET = 10000  # a cluster node's bus listens at its port + 10000, so its port is at most 55535


def _ports(n: int, bus: bool) -> list[int]:
    """``n`` distinct free loopback ports; for cluster nodes each at most 55535 with its bus port
    (+10000) free too."""
    import random

    if not bus:
        ports: set[int] = set()
        while len(ports) < n:
            ports.add(free_port())
        return list(ports)
    out: list[int] = []
    rng = random.Random()
    for _ in range(2000):
        port = rng.randrange(20000, 65535 - BUS_OFFSET)
        if port not in out and _free(port) and _free(port + BUS_OFFSET):
            out.append(port)
            if len(out) == n:
                return out
    raise UserError(f"no {n} free loopback ports below 55535 with their cluster bus ports free", exit_code=1)


def _free(port: int) -> bool:
    from ycsbctl.provision.local import port_owner

    return port_owner(port) is None


def _roles(shape: Topology) -> list[str]:
    if not shape.shards:
        return ["primary", *(f"replica of the primary ({i + 1})" for i in range(shape.replicas))]
    # redis-cli --cluster create takes the primaries first, then the replicas
    return [*(f"shard {s + 1} primary" for s in range(shape.shards)),
            *(f"shard replica {r + 1}" for r in range(shape.shards * shape.replicas))]


def _redis_cli() -> str:
    path = shutil.which("redis-cli") or shutil.which("valkey-cli")
    if path is None:
        raise UserError("a Redis Cluster is made with redis-cli --cluster create, and redis-cli is missing",
                        fix="apt-get install redis-tools", exit_code=1)
    return path


def _create_cluster(procs: list[dict], shape: Topology, certs: ServerCertificates | None, say, label: str) -> None:
    """``redis-cli --cluster create`` over every node (primaries first), then wait for every node to
    say ``cluster_state:ok`` and to know every primary."""
    argv = [_redis_cli()]
    if certs is not None:
        argv += ["--tls", "--cacert", certs.ca_file]
    argv += ["--cluster", "create", *(f"127.0.0.1:{p['port']}" for p in procs), "--cluster-replicas",
             str(shape.replicas), "--cluster-yes"]
    say(f"{label}: {shlex.join(argv)}")
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as exc:
        said = probe.join_tail(((exc.stdout or b"") + (exc.stderr or b"")).decode(errors="replace")
                               if isinstance(exc.stdout, bytes) else str(exc.stdout or ""), 3)
        raise UserError(f"redis-cli --cluster create did not finish within 120 s (the nodes never met on their "
                        f"cluster bus): {said}", exit_code=1) from None
    if done.returncode:
        raise UserError(f"redis-cli --cluster create failed (exit {done.returncode}): "
                        f"{probe.join_tail(done.stdout + done.stderr, 3)}", exit_code=1)
    from ycsbctl.stores.redis.cluster import cluster_ready

    deadline = time.monotonic() + READY_TIMEOUT_S
    while not all(cluster_ready(p["url"], shape.shards) for p in procs):
        if time.monotonic() > deadline:
            raise UserError(f"{label}: the cluster did not reach cluster_state:ok within {READY_TIMEOUT_S:.0f} s",
                            exit_code=1)
        time.sleep(0.1)  # poll interval of the cluster's readiness


SYNC_DELAY = "repl-diskless-sync-delay"


def _no_first_sync_delay(p: dict, settings: dict[str, str], processes: int) -> dict[str, str]:
    """A primary waits ``repl-diskless-sync-delay`` (5 s by default) for more replicas before their
    first full sync; the empty servers just started need no such wait: 0 on ``p`` until they are
    joined (:func:`_set_sync_delays` puts back the value it returns). A label's own setting is left
    alone."""
    from ycsbctl.stores.redis.info import connect

    if processes < 2 or SYNC_DELAY in settings:
        return {}
    with connect(p["url"]) as r:
        had = str(r.config_get(SYNC_DELAY)[SYNC_DELAY])
        r.config_set(SYNC_DELAY, 0)
    return {p["url"]: had}


def _set_sync_delays(delays: dict[str, str]) -> None:
    from ycsbctl.stores.redis.info import connect

    for url, value in delays.items():
        with connect(url) as r:
            r.config_set(SYNC_DELAY, value)


def _wait_replicas(procs: list[dict], shape: Topology) -> None:
    """Wait until every primary has its replicas connected and in sync (``INFO replication``); a
    cluster's primaries are its first ``shards`` processes (``redis-cli --cluster create``'s order)."""
    from ycsbctl.stores.redis.info import connect

    if not shape.replicas:
        return
    deadline = time.monotonic() + READY_TIMEOUT_S
    for primary in procs[:max(1, shape.shards)]:
        with connect(primary["url"]) as r:
            while True:
                info = r.info("replication")
                online = [v for k, v in info.items() if k.startswith("slave") and isinstance(v, dict)
                          and v.get("state") == "online"]
                if len(online) >= shape.replicas:
                    break
                if time.monotonic() > deadline:
                    raise UserError(f"the replicas of {primary['role']} did not come online within "
                                    f"{READY_TIMEOUT_S:.0f} s ({len(online)} of {shape.replicas})", exit_code=1)
                time.sleep(0.1)  # poll interval of the replicas' readiness

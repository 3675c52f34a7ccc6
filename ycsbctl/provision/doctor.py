"""What this machine can run: ``ycsbctl targets`` and ``ycsbctl doctor``."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

import psutil

from ycsbctl import native
from ycsbctl.errors import UserError
from ycsbctl.provision import catalog, state
from ycsbctl.provision.local import find_binary, port_owner
from ycsbctl.provision.probe import binary_version, version_line
from ycsbctl.stores.registry import server_kind

GIB = 1024**3
PROBES = 8  # probes at once (each mostly waits: on a subprocess or on Docker)
SAY_WAIT_S = 2.0  # a row awaited longer than this says what it waits for
# Peers with no package in any registry this kind of machine reaches: Docker images only.
DOCKER_ONLY = ("keydb", "dragonfly")
GARNET_HINT = ("docker run -d --name garnet -p 127.0.0.1:6380:6379 ghcr.io/microsoft/garnet, then "
               "ycsbctl run workload-b --target redis://127.0.0.1:6380 (measured as a server you run)")
# The many-store study's own store (restream/reindexer-benchmarks): unobtainable here, so not in the catalogue.
REINDEXER_WHY = ("unobtainable: no package in any registry reachable here (no server on Debian, PyPI or Maven "
                 "Central; PyPI's pyreindexer is a connector that builds against the reindexer-dev package of "
                 "Reindexer's own repository), so ycsbctl has no target or binding for it")
REINDEXER_FIX = ("none here: the media-items study runs without it (docs/studies/media-items.md); its numbers are the "
                 "study's own")


@dataclass
class Check:
    """One line of ``doctor``. ``required`` failures make ``doctor`` exit 1; others are warnings."""

    name: str
    ok: bool
    detail: str
    fix: str = ""
    required: bool = False


@dataclass
class Availability:
    """Whether each backend can provide a target here, and why (not)."""

    target: str
    protocol: str
    image: str
    docker: str
    local: str


def _docker_client():
    from ycsbctl.provision import docker as docker_backend

    try:
        return docker_backend.connect(timeout_s=5), ""
    except UserError:
        return None, f"Docker does not answer at {docker_backend.docker_host()}"


def availability(on_wait: Callable[[str], None] | None = None) -> Iterator[Availability]:
    """One row per catalogue target, in catalogue order, each as soon as it and those before it are known:
    ``yes: …`` or ``no: …`` for docker and for local. The probes (Docker's answer, a binary's version) run
    side by side: one after the other they took 10–14 s, 5 of them Elasticsearch's launcher starting a JVM
    to print its version. A row awaited longer than :data:`SAY_WAIT_S` gives ``on_wait`` one line saying
    what it waits for."""
    targets = list(catalog.TARGETS.values())
    doing: dict[str, str] = {}  # target -> what its probe waits for now (written by the probe's thread)
    with ThreadPoolExecutor(max_workers=PROBES, thread_name_prefix="probe") as pool:
        docker = pool.submit(_docker_client)
        rows = [pool.submit(_availability_of, t, docker, doing) for t in targets]
        for i, (t, row) in enumerate(zip(targets, rows)):
            yield _awaited(row, on_wait, partial(_what, t.name, doing, f"{i} of {len(targets)} targets listed"))


def _availability_of(t: catalog.Target, docker: Future, doing: dict[str, str]) -> Availability:
    """One target's row (a probe's thread): its local binary and version, then Docker's image."""
    from ycsbctl.provision import docker as docker_backend

    try:
        path = find_binary(t)
        _, where = catalog.find_server(t)
        source = f", from {where}" if where.startswith("PyPI") else ""
        if path:
            doing[t.name] = f"`{path} {' '.join(t.version_args)}` to print its version"
        said = f"{binary_version(path, t.version_args)}{source}" if path else ""
        local = (f"yes: {path} ({said})" if said else f"yes: {path}") if path else f"yes: {_embedded()}"
    except UserError as exc:
        local = f"no: {exc}"
    doing[t.name] = f"Docker at {docker_backend.docker_host()} to answer"
    client, docker_problem = docker.result()
    if not t.image:
        state = "no: embedded in the client (no server, no image)"
    elif client is None:
        state = f"no: {docker_problem}"
    else:
        doing[t.name] = f"Docker: whether image {t.image} is here or can be pulled"
        if docker_backend.image_present(client, t.image):
            state = "yes: image present"
        else:
            pullable, reason = docker_backend.image_pullable(client, t.image)
            state = "yes: image will be pulled" if pullable else f"no: image absent, not pullable ({reason[:80]})"
    return Availability(t.name, t.protocol, t.image, state, local)


def _first_line(argv: list[str]) -> str:
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"({exc})"
    return version_line(out.stdout + out.stderr)


def _embedded() -> str:
    import sqlite3

    return f"embedded: Python sqlite3, SQLite {sqlite3.sqlite_version} (no server to install)"


def _run_as(t: catalog.Target) -> Check:
    """As root, a server that refuses root runs as its package's system user: is it there?"""
    import pwd

    try:
        pwd.getpwnam(t.run_as)
        return Check(f"{t.name} user", True, f"runs as system user {t.run_as!r} (ycsbctl runs as root)")
    except KeyError:
        return Check(f"{t.name} user", False, f"no system user {t.run_as!r} to run {t.name} as (it refuses root)",
                     f"{t.install_hint} (its package creates the user), or run ycsbctl as another user")


def checks(on_wait: Callable[[str], None] | None = None) -> Iterator[Check]:
    """Everything ``ycsbctl`` relies on, each with a fix hint, as it is known: the servers' versions are asked
    side by side (one after the other, Elasticsearch's JVM alone took 5 s of 10), and a check awaited longer
    than :data:`SAY_WAIT_S` gives ``on_wait`` one line saying what it waits for."""
    client, problem = _docker_client()
    if client is not None:
        v = client.version()
        yield Check("docker daemon", True, f"Docker {v.get('Version')} (API {v.get('ApiVersion')})")
    else:
        yield Check("docker daemon", False, problem,
                    "start it (`sudo systemctl start docker` or `sudo dockerd &`); else targets run from local "
                    "binaries")
    yield from _binary_checks(on_wait)
    yield Check("garnet", False, "not in the catalogue (no package in a reachable registry)",
                f"run it with Docker: {GARNET_HINT}")
    yield Check("reindexer", False, REINDEXER_WHY, REINDEXER_FIX)
    for tool, argv, fix in (("iperf3", ["iperf3", "--version"], "apt-get install iperf3"),
                            ("java", ["java", "-version"], "apt-get install default-jre-headless"),
                            ("taskset", ["taskset", "--version"], "apt-get install util-linux")):
        if shutil.which(argv[0]):
            yield Check(tool, True, _first_line(argv))
        else:
            yield Check(tool, False, "not found on PATH", fix)
    try:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
        busy = {p: port_owner(p) for p in (6379, 27017)}
        detail = "127.0.0.1 ports can be bound; " + ", ".join(
            f"{p} {'in use by ' + o if o else 'free'}" for p, o in busy.items())
        yield Check("loopback ports", True, detail + " (ycsbctl picks free ports itself)")
    except OSError as exc:
        yield Check("loopback ports", False, str(exc), "check the loopback interface (ip link set lo up)",
                         required=True)
    mem = psutil.virtual_memory()
    yield Check("memory", mem.available >= 2 * GIB,
                     f"{mem.available / GIB:.1f} GiB available of {mem.total / GIB:.1f} GiB",
                     "free memory or lower --server-memory / recordcount")
    yield Check("per-operation path", native.core is not None, native.active_path(),
                     "" if native.core is not None or native.why_pure.startswith(native.FORCE_PURE_ENV) else
                     "reinstall with gcc and the Python headers present (scripts/setup.sh, or pip install -e .): the "
                     "pure-Python path costs more client CPU per operation")
    yield Check("cpus", True, f"{len(os.sched_getaffinity(0))} usable CPUs (--server-cpus takes a cpuset of them)")
    try:
        folder = state.state_dir()
        probe_file = folder / ".doctor"
        probe_file.write_text("ok")
        probe_file.unlink()
        yield Check("state folder", True, str(folder))
    except OSError as exc:
        yield Check("state folder", False, str(exc), "set YCSBCTL_STATE_DIR to a writable folder", required=True)


T = TypeVar("T")


def _awaited(probe: Future[T], on_wait: Callable[[str], None] | None, what: Callable[[], str]) -> T:
    """``probe``'s result; once it has been awaited :data:`SAY_WAIT_S`, ``on_wait(what())`` says what for."""
    try:
        return probe.result(timeout=SAY_WAIT_S)
    except TimeoutError:
        if on_wait is not None:
            on_wait(what())
        return probe.result()


def _what(name: str, doing: dict[str, str], done: str) -> str:
    """``waiting for NAME: what its probe waits for now (DONE so far)…``."""
    return f"waiting for {name}: {doing.get(name, 'its probe')} ({done} so far)…"


def _binary_checks(on_wait: Callable[[str], None] | None) -> Iterator[Check]:
    """Each catalogue server's binary and its version, the versions asked side by side."""
    targets = list(catalog.TARGETS.values())
    doing: dict[str, str] = {}
    with ThreadPoolExecutor(max_workers=PROBES, thread_name_prefix="probe") as pool:
        probes = [pool.submit(_binary_check, t, doing) for t in targets]
        for i, (t, probe) in enumerate(zip(targets, probes)):
            yield from _awaited(probe, on_wait, partial(_what, t.name, doing, f"{i} of {len(targets)} servers checked"))


def _binary_check(t: catalog.Target, doing: dict[str, str]) -> list[Check]:
    """One server's checks (a probe's thread): its binary and version, and as root the user it runs as."""
    name = f"{t.name} binary"
    if server_kind(t.local_flavor).embedded:
        return [Check(t.name, True, _embedded())]
    try:
        path = find_binary(t)
        _, where = catalog.find_server(t)
        source = f" (from {where})" if where.startswith("PyPI") else ""
        doing[t.name] = f"`{path} {' '.join(t.version_args)}` to print its version"
        out = [Check(name, True, f"{path}{source}: {binary_version(path, t.version_args)}")]
        return out + [_run_as(t)] if t.run_as and os.geteuid() == 0 else out
    except UserError as exc:
        fix = t.install_hint
        if t.name in DOCKER_ONLY:
            fix = f"{fix}; or with Docker (no package here): ycsbctl up {t.name} --backend docker (image {t.image})"
        return [Check(name, False, str(exc).split(": ", 1)[0], fix)]

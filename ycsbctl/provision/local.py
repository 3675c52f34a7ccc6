"""The local backend: a server binary of this machine on a loopback port.

Each server runs in a fresh temporary data directory, in its own session (so its whole
process group can be signalled), with stdout/stderr in ``<state dir>/logs/``. Its PID and
create time are recorded; ``down`` checks both before it signals (TERM, then KILL after
``GRACE_S``), so a recycled PID is never killed.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import psutil

from ycsbctl.errors import UserError
from ycsbctl.processes import deferred_signals
from ycsbctl.provision import catalog, limits, local_prep, probe, state
from ycsbctl.provision.base import Endpoint, Provisioner, UpOptions
from ycsbctl.provision.tls import ServerCertificates, certificates
from ycsbctl.stores.registry import server_kind
from ycsbctl.stores.server_kind import ServerKind

GRACE_S = 10.0  # TERM -> KILL
READY_TIMEOUT_S = 60.0
_PORT_RETRIES = 3  # a picked free port can be taken before the server binds it


def find_binary(target: catalog.Target, override: str | None = None) -> str:
    """Absolute path of the target's server binary (``override``: ``--binary``), or a UserError
    saying how to install it. See :func:`~ycsbctl.provision.catalog.find_server` for the order."""
    kind = server_kind(target.local_flavor)
    if kind.embedded:
        return ""  # no server: the engine opens the database itself
    path, _ = catalog.find_server(target, override)
    if not path:
        raise UserError(f"{os.path.basename(target.binary)} not found for target {target.name}",
                        fix=f"{target.install_hint}, or use --backend docker", exit_code=1)
    kind.check_binary(path)  # mongod: refused without the inMemory engine
    return path


def port_owner(port: int) -> str | None:
    """None when 127.0.0.1:``port`` can be bound, else who holds it ("pid 123 redis-server")."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as servers do: TIME_WAIT is not "in use"
        try:
            s.bind(("127.0.0.1", port))
            return None
        except OSError:
            pass
    try:
        for conn in psutil.net_connections(kind="tcp"):
            if conn.laddr and conn.laddr.port == port and conn.status == psutil.CONN_LISTEN and conn.pid:
                return f"pid {conn.pid} {psutil.Process(conn.pid).name()}"
    except (psutil.Error, OSError):
        pass
    return "another process"


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def is_ours(pid: int, create_time: float | None) -> bool:
    """True when ``pid`` runs and is the process we started (same create time), not a zombie."""
    try:
        proc = psutil.Process(pid)
        if create_time is not None and abs(proc.create_time() - create_time) > 0.05:
            return False
        return proc.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def stop_process(pid: int, create_time: float | None, grace_s: float = GRACE_S,
                 stop_signal: int = signal.SIGTERM) -> bool:
    """``stop_signal`` (SIGTERM, or its kind's: :attr:`~ycsbctl.stores.server_kind.ServerKind.stop_signal`) to the
    process group of ``pid``, KILL after ``grace_s``. False when it is not ours."""
    if not is_ours(pid, create_time):
        _reap(pid)
        return False
    try:
        target_pg = os.getpgid(pid) == pid  # our servers lead their own group
    except OSError:
        return False
    members = _group(pid) if target_pg else [psutil.Process(pid)]
    _signal(pid, stop_signal, target_pg)
    _, alive = psutil.wait_procs(members, timeout=grace_s)
    if alive:
        _signal(pid, signal.SIGKILL, target_pg)
        psutil.wait_procs(alive, timeout=5)
    _reap(pid)
    return True


def _group(pgid: int) -> list[psutil.Process]:
    procs = []
    for p in psutil.process_iter():
        try:
            if os.getpgid(p.pid) == pgid:
                procs.append(p)
        except OSError:
            continue
    return procs


def _signal(pid: int, sig: int, group: bool) -> None:
    try:
        if group:
            os.killpg(pid, sig)
        else:
            os.kill(pid, sig)
    except ProcessLookupError:
        pass


def _reap(pid: int) -> None:
    """Collect the exit status when the server was our own child (no zombie left)."""
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def stop_all(procs: list[dict]) -> None:
    """Stop every process of a several-process target that is still ours (the state file's records)."""
    for p in reversed(procs):
        with contextlib.suppress(Exception):  # keep stopping the others
            stop_process(p["pid"], p.get("create_time"))


def all_alive(procs: list[dict]) -> bool:
    """Whether every process of a several-process target still runs and is ours."""
    return bool(procs) and all(is_ours(p["pid"], p.get("create_time")) for p in procs)


SeveralStarter = Callable[..., Endpoint]


def _start_notes(kind: ServerKind, entry: catalog.Target, memory: int | None, data_dir: str,
                 certs: ServerCertificates | None) -> list[str]:
    """What a local server's endpoint says of how it was started: its memory limit (bytes) as the server
    takes it, where a durable variant keeps its data, TLS."""
    notes = []
    note = kind.memory_note(memory)
    if note:
        notes.append(note)
    if entry.variant is not None and entry.variant.durable:
        notes.append(local_prep.durability_note(data_dir))
    if certs is not None:
        notes.append("TLS only (no plain port), certificate from ycsbctl's own CA (kept in its state folder)")
    return notes


class LocalProvisioner(Provisioner):
    """Starts catalogue targets from this machine's binaries; a target of several processes (a cluster,
    replicas) through ``several`` (:func:`ycsbctl.provision.local_cluster.start`, given by the caller:
    that module builds on this one)."""

    name = "local"

    def __init__(self, several: SeveralStarter | None = None) -> None:
        self.several = several

    def up(self, target: str, options: UpOptions | None = None) -> Endpoint:
        """Start ``target`` (a label of ``options.kind``, default its own) from this machine's binary
        (or ``options.binary``); ``options.image``/``host_network`` are docker's."""
        options = options or UpOptions()
        entry = catalog.get_target(options.kind or target)
        if options.image or options.host_network:
            raise UserError("--image and --host-network need the docker backend: add --backend docker")
        binary = find_binary(entry, options.binary)
        cpus = limits.parse_cpuset(options.server_cpus) if options.server_cpus else None
        memory = limits.parse_size(options.server_memory) if options.server_memory else None
        if entry.variant is not None and entry.variant.several:
            if options.port:
                raise UserError(f"{target} is several processes on ports ycsbctl picks: drop --port")
            if self.several is None:
                raise UserError(f"{target} is several processes: start it through ycsbctl.provision.provision")
            return self.several(target, entry, binary, options, server_certificates(entry, options), memory,
                                _pinned(cpus))
        wanted = options.port
        if wanted and (owner := port_owner(wanted)):
            raise UserError(f"port {wanted} on 127.0.0.1 is in use by {owner}", fix="choose another --port or stop it",
                            exit_code=1)
        for attempt in range(_PORT_RETRIES):
            port = wanted or free_port()
            try:
                return self._start(target, entry, binary, port, cpus, memory, options)
            except UserError as exc:
                if wanted or attempt == _PORT_RETRIES - 1 or "in use" not in str(exc).lower():
                    raise
        raise AssertionError("unreachable")

    def _start(self, label: str, entry: catalog.Target, binary: str, port: int, cpus: list[int] | None,
               memory: int | None, options: UpOptions) -> Endpoint:
        say = options.progress
        experiment_id = options.experiment_id
        settings = dict(options.settings)
        kind = server_kind(entry.local_flavor)
        kind.settings_args(settings)  # a server that takes none is refused before anything exists
        if kind.embedded:
            return self._embedded(label, entry, options)
        log_path = state.logs_dir() / f"{label}-{experiment_id}-{port}.log"
        pinned = _pinned(cpus)
        certs = server_certificates(entry, options)  # before the data folder: a refusal leaves nothing behind
        with deferred_signals():  # the data folder exists only until the try below removes it on failure
            prepared = local_prep.prepare(label, entry, binary, log_path)
            data_dir = prepared.data_dir
            server_certs = certs
            if certs is not None and kind.tls_in_data_dir:  # servers that read their key as another user
                try:
                    server_certs = local_prep.server_tls_files(entry.local_flavor, certs, data_dir, prepared.user)
                except BaseException:
                    shutil.rmtree(data_dir, ignore_errors=True)
                    raise
        argv = [*pinned, binary, *catalog.server_args(entry.local_flavor, port=port, bind="127.0.0.1",
                                                      data_dir=data_dir, memory_bytes=memory, settings=settings,
                                                      tls=server_certs)]
        url = catalog.url_for(entry.protocol, port, tls=certs)
        endpoint = Endpoint(target=label, protocol=entry.protocol, url=url, backend="local",
                            log_path=str(log_path), cpu_limit_cores=float(len(cpus)) if cpus else None,
                            memory_limit_bytes=memory if kind.memory_limited_locally else None,
                            notes=[*options.notes, *_start_notes(kind, entry, memory, data_dir, certs)],
                            kind=entry.name, settings=settings, binary=binary)
        say(f"starting {label}: {shlex.join(argv)} (log {log_path})")
        proc = None
        try:
            with deferred_signals():  # started and recorded, or neither
                with open(log_path, "ab") as log:
                    env = kind.env(data_dir)
                    proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                            cwd=data_dir, start_new_session=True, user=prepared.user,
                                            env={**os.environ, **env} if env else None)
                endpoint.pid = proc.pid
                create_time = psutil.Process(proc.pid).create_time()
                state.add({"key": f"local:{proc.pid}", "endpoint": endpoint.to_dict(), "create_time": create_time,
                           "data_dir": data_dir, "options": options.to_store(), "started": time.time()})
            say(f"waiting for {label} to answer on {url}")

            def exited() -> str | None:
                code = proc.poll()  # wait_ready holds signals around this
                return None if code is None else f"{os.path.basename(binary)} exited with code {code}"

            try:
                probe.wait_ready(entry.protocol, url,
                                 timeout_s=(entry.ready_timeout_s or READY_TIMEOUT_S) if options.ready_timeout_s is None
                                 else options.ready_timeout_s,
                                 exited=exited, log_tail=lambda: probe.tail(log_path))
            except UserError:
                refused = settings_refused(label, os.path.basename(binary), settings, log_path)
                if refused is not None:
                    raise refused from None
                raise
            facts = probe.describe(entry.protocol, url, expected=entry.display, variant=kind.describe_variant)
        except BaseException:
            with deferred_signals():
                if proc is not None:
                    stop_process(proc.pid, None, grace_s=5)  # reaps it
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        proc.wait(timeout=5)  # bounded: clean-up never hangs on a Popen lock
                    state.remove(f"local:{proc.pid}")
                shutil.rmtree(data_dir, ignore_errors=True)
            raise
        endpoint.server_name, endpoint.server_version, endpoint.config = facts.name, facts.version, facts.config
        endpoint.traits = facts.traits
        state.add({**(state.find(f"local:{proc.pid}") or {}), "endpoint": endpoint.to_dict()})
        return endpoint

    def _embedded(self, label: str, entry: catalog.Target, options: UpOptions) -> Endpoint:
        """An embedded store (SQLite): a database file in a fresh folder on tmpfs, no process."""
        from ycsbctl.provision.probe import describe

        data_dir = tempfile.mkdtemp(prefix=f"ycsbctl-{label}-", dir=local_prep.TMPFS if os.path.isdir(local_prep.TMPFS)
                                    else None)
        url = f"{entry.protocol}://{data_dir}/ycsb.db"
        endpoint = Endpoint(target=label, protocol=entry.protocol, url=url, backend="local", notes=list(options.notes),
                            kind=entry.name)
        with deferred_signals():
            state.add({"key": _key(endpoint), "endpoint": endpoint.to_dict(), "create_time": None,
                       "data_dir": data_dir, "options": options.to_store(), "started": time.time()})
        facts = describe(entry.protocol, url, expected=entry.display)
        endpoint.server_name, endpoint.server_version, endpoint.config = facts.name, facts.version, facts.config
        endpoint.traits = facts.traits
        options.progress(f"{label}: {facts.name} at {data_dir}/ycsb.db")
        state.add({**(state.find(_key(endpoint)) or {}), "endpoint": endpoint.to_dict()})
        return endpoint

    def down(self, endpoint: Endpoint) -> None:
        """Stop the server if it still is the process we started; forget it; remove its data dir."""
        key = _key(endpoint)
        entry = state.find(key)
        if endpoint.processes:  # several processes: every one we recorded (and that still is ours)
            stop_all((entry or {}).get("processes") or [])
        elif endpoint.pid is not None and entry is not None:
            stop_process(endpoint.pid, entry["create_time"], stop_signal=_stop_signal(endpoint))
        elif endpoint.pid is not None and _runs_in_our_data_dir(endpoint.pid, endpoint.target):
            stop_process(endpoint.pid, None, stop_signal=_stop_signal(endpoint))  # no record: its data dir says ours
        if entry and entry.get("data_dir"):
            shutil.rmtree(entry["data_dir"], ignore_errors=True)
        state.remove(key)


def _stop_signal(endpoint: Endpoint) -> int:
    """The signal that ends ``endpoint``'s server: its kind's (SIGTERM for a kind not in the catalogue)."""
    with contextlib.suppress(UserError):
        return server_kind(catalog.get_target(endpoint.kind or endpoint.target).local_flavor).stop_signal
    return signal.SIGTERM


def _pinned(cpus: list[int] | None) -> list[str]:
    """``taskset -c CPUS`` before a server's command line (it execs: same PID), or nothing."""
    if cpus is None:
        return []
    taskset = shutil.which("taskset")
    if not taskset:
        raise UserError("--server-cpus with the local backend needs taskset", fix="apt-get install util-linux",
                        exit_code=1)
    return [taskset, "-c", ",".join(map(str, cpus))]


def server_certificates(entry: catalog.Target, options: UpOptions) -> ServerCertificates | None:
    """The certificates a server started with ``options.tls`` uses (None without TLS); a server that
    ycsbctl cannot start with TLS is refused before anything exists."""
    if not options.tls:
        return None
    kind = server_kind(entry.local_flavor)
    if not kind.speaks_tls:
        kind.tls_args(0, ServerCertificates("", "", ""))  # raises: one line saying which
    return certificates()


def state_key(endpoint: Endpoint) -> str:
    """The state-file key of a local server (its PID), of a several-process target (its label and first
    port: :mod:`ycsbctl.provision.local_cluster`), or of an embedded store (its URL)."""
    if endpoint.processes:
        return f"local:{endpoint.target}:{endpoint.processes[0]['port']}"
    return f"local:{endpoint.pid}" if endpoint.pid is not None else f"local:{endpoint.url}"


_key = state_key


def settings_refused(label: str, server: str, settings: dict[str, str], log_path: str | Path) -> UserError | None:
    """The one-line error (exit 2: bad input) for a server that refused its settings at start, in its
    own words from its log; None when it has no settings or said nothing of the kind."""
    from ycsbctl.provision.target_spec import refused_setting, unknown_flag
    from ycsbctl.stores.server_kind import BadSettings

    if not settings:
        return None
    try:
        text = Path(log_path).read_text(errors="replace")[-20000:]
    except OSError:
        return None
    said = refused_setting(text) or unknown_flag(text)
    if said is None:
        return None
    return BadSettings(f"{label}: {server} refused its settings: {said}",
                       fix="fix or drop that --server-config; nothing was left running")


def _runs_in_our_data_dir(pid: int, target: str) -> bool:
    try:
        cwd = psutil.Process(pid).cwd()
    except psutil.Error:
        return False
    return os.path.basename(cwd).startswith(f"ycsbctl-{target}-") and cwd.startswith(tempfile.gettempdir())

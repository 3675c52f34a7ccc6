"""What the rest of ycsbctl calls: provision, teardown, provisioned, server_alive, restart.

``backend="auto"`` picks docker when a daemon answers and the image is present or pullable,
else the local binary; the choice and its reason are printed and kept in ``Endpoint.notes``.
Every path that starts a server also records it (``state``) and removes it again on any
exception, Ctrl-C or SIGTERM before it returns.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Literal
from urllib.parse import urlsplit

import psutil

from ycsbctl.errors import UserError, short_error
from ycsbctl.processes import deferred_signals, sigterm_as_interrupt
from ycsbctl.provision import catalog, probe, state
from ycsbctl.provision.base import BackendChoice, Endpoint, Provisioner, UpOptions
from ycsbctl.provision.engines import default_docker_host, engine_for
from ycsbctl.provision.external import ExternalProvisioner
from ycsbctl.provision.local import LocalProvisioner, all_alive, find_binary, is_ours, state_key
from ycsbctl.stores import registry
from ycsbctl.urls import redact_url

BACKENDS: tuple[BackendChoice, ...] = ("auto", "docker", "local", "external")
Say = Callable[[str], None]


def say_to_stderr(message: str) -> None:
    print(f"ycsbctl: {message}", file=sys.stderr, flush=True)


def _provisioner(backend: str) -> Provisioner:
    if backend == "docker":
        from ycsbctl.provision.docker import DockerProvisioner

        return DockerProvisioner()
    if backend == "local":
        from ycsbctl.provision.local_cluster import start

        return LocalProvisioner(several=start)
    if backend == "external":
        return ExternalProvisioner()
    raise UserError(f"unknown backend {backend!r}: use one of {', '.join(BACKENDS)}")


def choose_backend(target: str, image: str | None = None,
                   binary: str | None = None) -> tuple[Literal["docker", "local"], str]:
    """(``docker`` | ``local``, why) for a catalogue target; UserError when neither can provide it.
    A ``binary`` given (``--binary``) is a local build: local."""
    from ycsbctl.provision import docker as docker_backend

    entry = catalog.get_target(target)
    if registry.server_kind(entry.local_flavor).embedded:
        return "local", "an embedded store: a database file on tmpfs, opened by the engine itself"
    if binary:
        if image:
            raise UserError(f"{target}: --binary runs a local build and --image a container: give one of them")
        return "local", f"--binary {binary}"
    wanted = image or entry.image
    try:
        client = docker_backend.connect(timeout_s=5)
    except UserError:
        why_not = f"Docker does not answer at {docker_backend.docker_host()}"
    else:
        if docker_backend.image_present(client, wanted):
            return "docker", f"Docker answers and image {wanted} is present"
        pullable, reason = docker_backend.image_pullable(client, wanted)
        if pullable:
            return "docker", f"Docker answers and image {wanted} can be pulled"
        why_not = f"image {wanted} is not present and not pullable ({reason})"
    if image:
        raise UserError(f"--image {image} needs Docker, but {why_not}", fix="start Docker or drop --image", exit_code=1)
    try:
        binary = find_binary(entry)
    except UserError as exc:
        raise UserError(f"cannot provide {target}: {why_not}, and {exc.message}", fix=exc.fix, exit_code=1) from None
    return "local", f"{why_not}; using {binary}"


def provision(target_or_url: str, backend: BackendChoice = "auto", *, experiment_id: str, image: str | None = None,
              server_cpus: str | None = None, server_memory: str | None = None, host_network: bool = False,
              port: int | None = None, say: Say | None = None, ready_timeout_s: float | None = None,
              docker_host: str | None = None, kind: str | None = None, settings: dict[str, str] | None = None,
              binary: str | None = None, tls: bool = False) -> Endpoint:
    """Start (or attach to) one target and return once it answers, with version and config read.

    ``target_or_url``: a catalogue name or a ``redis://`` / ``mongodb://`` / ``basic://`` URL.
    ``server_cpus``: cpuset (``0-1``); ``server_memory``: size (``2g``); ``port``: host port on
    127.0.0.1 (default: a free one). ``docker_host``: the Docker engine to start it on
    (``tcp://DBHOST:2375``, ``ssh://user@DBHOST``; implies the docker backend). Progress goes to
    ``say`` (default: stderr). A catalogue target may be a label (``redis-lazyfree``) of ``kind``
    (``redis``; default: the label itself) with ``settings`` for its command line and a ``binary``
    (a local build to run). A server that refuses its settings at start is a UserError exit 2. ``tls``
    (or a TLS kind: ``redis-tls``) starts it speaking TLS only, with a certificate from ycsbctl's own CA.
    """
    say = say or say_to_stderr
    if backend not in BACKENDS:
        raise UserError(f"unknown backend {backend!r}: use one of {', '.join(BACKENDS)}")
    with sigterm_as_interrupt():
        if registry.find(target_or_url) is not None:
            if backend not in ("auto", "external"):
                raise UserError(f"{redact_url(target_or_url)} is a URL: it needs no --backend {backend}")
            if settings:
                raise UserError(f"{redact_url(target_or_url)} is a server you run: ycsbctl does not reconfigure it "
                                f"({', '.join(settings)}); set them there, or let ycsbctl start one with a label "
                                "(--targets redis-x --server-config redis-x:KEY=VALUE)")
            if tls:
                raise UserError(f"--tls starts the servers ycsbctl runs with TLS; {redact_url(target_or_url)} is a "
                                "server you run: give its TLS URL (rediss://…, or -p redis.tls=true; "
                                "postgresql://…?sslmode=require; "
                                "mysql://…?ssl=true)")
            return ExternalProvisioner().up(target_or_url)
        kind = kind or target_or_url
        entry = catalog.get_target(kind)
        notes: list[str] = []
        if entry.variant is not None:  # its settings first: the label's own --server-config wins
            settings = {**entry.variant.settings_dict, **(settings or {})}
            notes.append(f"{entry.name}: {entry.variant.what}")
            tls = tls or entry.variant.tls
        if docker_host:
            if backend == "local":
                raise UserError("--docker-host starts servers on a Docker engine: drop --backend local")
            backend = "docker"
        several = entry.variant is not None and entry.variant.several
        if backend == "auto" and (tls or several):
            reason = ("TLS servers run from local binaries (their certificates stay on this host)" if tls else
                      "several processes on loopback ports run from local binaries")
            backend = "local"
            say(f"{target_or_url}: {backend} backend ({reason})")
            notes.append(f"backend auto -> {backend}: {reason}")
        elif backend == "auto":
            backend, reason = choose_backend(kind, image, binary)
            say(f"{target_or_url}: {backend} backend ({reason})")
            notes.append(f"backend auto -> {backend}: {reason}")
        elif backend == "external":
            raise UserError(f"--backend external needs a URL (redis://… or mongodb://…), not {target_or_url!r}")
        options = UpOptions(experiment_id=experiment_id, image=image, server_cpus=server_cpus,
                             server_memory=server_memory, host_network=host_network, port=port, say=say,
                             notes=notes, docker_host=docker_host, ready_timeout_s=ready_timeout_s, kind=kind,
                             settings=dict(settings or {}), binary=binary, tls=tls)
        endpoint = _provisioner(backend).up(target_or_url, options)
        say(f"{endpoint.target} is up: {redact_url(endpoint.url)} ({endpoint.server_name}, {endpoint.backend})")
        return endpoint


def teardown(endpoint: Endpoint) -> None:
    """Stop and forget what ``provision`` started (no-op for external). Signals wait until it is done."""
    with deferred_signals():
        _provisioner(endpoint.backend).down(endpoint)


@contextmanager
def provisioned(targets: Iterable[str], backend: BackendChoice = "auto", *, experiment_id: str,
                **options: Any) -> Iterator[list[Endpoint]]:
    """Provision ``targets`` in order; tear every one down on leaving, whatever the reason.

    SIGTERM/SIGHUP inside the block raise KeyboardInterrupt so that teardown runs for them too.
    """
    endpoints: list[Endpoint] = []
    with sigterm_as_interrupt():
        try:
            for target in targets:
                endpoints.append(provision(target, backend, experiment_id=experiment_id, **options))
            yield endpoints
        finally:
            with deferred_signals():  # a second Ctrl-C or SIGTERM must not cut the clean-up short
                _teardown_all(endpoints)
                stop_owned(experiment_id)  # one whose start an interrupt cut off before it was appended


def _teardown_all(endpoints: list[Endpoint]) -> None:
    errors = []
    for endpoint in reversed(endpoints):
        try:
            teardown(endpoint)
        except Exception as exc:  # noqa: BLE001 - keep removing the others
            errors.append(f"{endpoint.target}: {short_error(exc)}")
    if errors:
        say_to_stderr("teardown problems (check `ycsbctl status`): " + "; ".join(errors))


def up_servers(targets: list[str], backend: BackendChoice = "auto", **options: Any) -> list[Endpoint]:
    """``ycsbctl up``: provision all targets and leave them running, or none of them on any failure."""
    endpoints: list[Endpoint] = []
    with sigterm_as_interrupt():
        try:
            images = options.pop("images", None) or {}
            engines = options.pop("docker_hosts", None) or {}
            specs = options.pop("specs", None) or {}
            for target in targets:
                spec = specs.get(target)
                extra = spec.provision_options() if spec else {}
                endpoints.append(provision(target, backend, image=images.get(target),
                                           docker_host=engine_for(target, engines), **extra, **options))
        except BaseException:
            with deferred_signals():  # a second Ctrl-C or SIGTERM must not cut the rollback short
                _teardown_all(endpoints)
                stop_owned(options.get("experiment_id"))  # one whose start an interrupt cut off before it was appended
            raise
    return endpoints


def stop_owned(experiment_id: str | None = None) -> list[Endpoint]:
    """Stop every server this process started and has not stopped (the state file's entries it owns,
    :func:`ycsbctl.provision.state.owned`; only ``experiment_id``'s when given), whatever its caller knew of it:
    an entry is written in the same step as its server's start, so a Ctrl-C that cuts the start off from the
    code that would stop it (between ``provision`` returning and its endpoint being kept) leaves nothing running.
    The ones stopped, in the order they started; one that cannot be stopped is said on stderr (its entry kept:
    ``ycsbctl down`` tries again)."""
    stopped: list[Endpoint] = []
    for entry in state.owned():
        if experiment_id is not None and (entry.get("options") or {}).get("experiment_id") != experiment_id:
            continue
        endpoint = Endpoint.from_dict(entry["endpoint"])
        try:
            teardown(endpoint)
        except Exception as exc:  # noqa: BLE001 - keep stopping the others
            say_to_stderr(f"{endpoint.target}: could not stop it ({short_error(exc)}); `ycsbctl down --all` does")
            continue
        stopped.append(endpoint)
    return stopped


def recorded() -> list[Endpoint]:
    """Endpoints of every server recorded in the state file."""
    return [Endpoint.from_dict(e["endpoint"]) for e in state.entries()]


class DockerUnchecked(UserError):
    """``down --all`` stopped what it could, but Docker did not answer: ``lines`` say what was stopped."""

    def __init__(self, lines: list[str], message: str) -> None:
        super().__init__(message, exit_code=1)
        self.lines = lines


def down_servers(targets: list[str] | None = None, *, everything: bool = False,
                 docker_hosts: Iterable[str] = ()) -> list[str]:
    """``ycsbctl down``: stop recorded servers (by target name, or all); lines saying what was done.

    ``everything`` also removes labelled containers of this state folder that the state file lost, on
    the default engine, on every engine a recorded server ran on and on ``docker_hosts``.
    """
    lines = []
    engines = list(dict.fromkeys([*(e["docker_host"] for e in state.entries() if e.get("docker_host")),
                                  *docker_hosts]))
    chosen = [ep for ep in recorded() if everything or ep.target in (targets or [])]
    for name in targets or []:
        if not any(ep.target == name for ep in chosen):
            lines.append(f"{name}: nothing recorded (see `ycsbctl status`)")
    for endpoint in chosen:
        teardown(endpoint)
        what = (f"container {endpoint.container_id[:12]}" if endpoint.container_id
                else f"{len(endpoint.processes)} processes (pids "
                     f"{', '.join(str(p['pid']) for p in endpoint.processes)})"
                if endpoint.processes
                else f"pid {endpoint.pid}" if endpoint.pid is not None else f"its database {redact_url(endpoint.url)}")
        verb = "stopped" if endpoint.container_id or endpoint.pid is not None else "removed"
        lines.append(f"{endpoint.target}: {verb} {what} ({endpoint.backend})")
    if everything:
        lines += _remove_unrecorded([None, *(e for e in engines if e != default_docker_host())], lines)
    return lines


def _remove_unrecorded(engines: list[str | None], lines: list[str]) -> list[str]:
    """Remove this state folder's labelled containers on each engine (None: the default one); an engine
    that does not answer ends it with :class:`DockerUnchecked` after trying the others."""
    from ycsbctl.provision import docker as docker_backend

    out: list[str] = []
    unanswered: list[str] = []
    for host in engines:
        if host is None and not docker_backend.configured_here():
            # no Docker on this host at all (no $DOCKER_HOST, no socket): no container of ours can be there
            out.append("no Docker on this host: no container to look for")
            continue
        try:
            client = docker_backend.connect(timeout_s=10, host=host)
        except UserError as exc:
            unanswered.append(str(exc))
            continue
        with deferred_signals():
            where = f" on {host}" if host else ""
            out += [f"removed unrecorded container {name}{where}" for name in docker_backend.remove_ours(client)]
    if unanswered:
        # the servers above are stopped; containers this state folder lost cannot be looked for there
        raise DockerUnchecked(lines + out, f"containers were not checked: {'; '.join(unanswered)}")
    return out


def server_alive(endpoint: Endpoint) -> bool:
    """True when the server we started still runs (same process / running container) and answers."""
    return server_lost(endpoint) is None


def server_lost(endpoint: Endpoint) -> str | None:
    """Why the server we started can no longer be measured, in a phrase (``died``, ``stopped answering
    (its process 4242 is stopped: SIGSTOP or a debugger)``); None when it still runs and answers."""
    if endpoint.backend == "local" and endpoint.pid is None:  # embedded (SQLite): its folder is what runs
        entry = state.find(f"local:{endpoint.url}")
        return None if entry is not None and os.path.isdir(entry.get("data_dir") or "") else "lost its data folder"
    if endpoint.backend == "local" and endpoint.processes:  # several processes (a cluster's shards, replicas)
        procs = (state.find(state_key(endpoint)) or {}).get("processes") or []
        if not all_alive(procs):  # which one: `status` said DOWN of a primary that still served (campaign, 27 Nov)
            gone = [f"its {p.get('role', 'process')}, pid {p['pid']}" for p in procs if not all_alive([p])]
            return f"died (one of its processes: {'; '.join(gone)})" if gone else "died (one of its processes)"
    elif endpoint.backend == "local":
        entry = state.find(f"local:{endpoint.pid}")
        if endpoint.pid is None or not is_ours(endpoint.pid, entry["create_time"] if entry else None):
            return "died"
    elif endpoint.backend == "docker":
        from ycsbctl.provision.docker import container_running

        if not container_running(endpoint):
            return "died (its container stopped)"
    if not registry.get(endpoint.protocol).has_server:
        return None
    try:
        probe.ping(endpoint.protocol, endpoint.url, timeout_s=2.0)
        return None
    except Exception as exc:  # noqa: BLE001 - any failure means "not answering"
        why = short_error(exc)
    if endpoint.backend == "local" and endpoint.pid is not None and _stopped(endpoint.pid):
        return f"stopped answering (its process {endpoint.pid} is stopped: SIGSTOP or a debugger)"
    return f"stopped answering ({why})"


def _stopped(pid: int) -> bool:
    """Whether process ``pid`` is stopped (state T: SIGSTOP, Ctrl-Z, a debugger)."""
    try:
        return psutil.Process(pid).status() in (psutil.STATUS_STOPPED, psutil.STATUS_TRACING_STOP)
    except psutil.Error:
        return False


def restart(endpoint: Endpoint, say: Say | None = None) -> Endpoint:
    """A fresh server for the same target, backend, options and URL (port); external ones are returned as is."""
    if endpoint.backend == "external":
        return endpoint
    key = f"docker:{endpoint.container_id}" if endpoint.backend == "docker" else state_key(endpoint)
    entry = state.find(key)
    options = dict(entry["options"]) if entry else {}
    options.setdefault("experiment_id", "restart")
    if endpoint.kind:  # a labelled target comes back as the same kind with the same settings
        options.setdefault("kind", endpoint.kind)
        options.setdefault("settings", dict(endpoint.settings))
    port = None if endpoint.processes else urlsplit(endpoint.url).port  # several processes: new ports
    teardown(endpoint)
    return provision(endpoint.target, endpoint.backend, port=port, say=say, **options)

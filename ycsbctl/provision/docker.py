"""The docker backend (docker SDK): one labelled container per server.

An engine on this host (a unix socket, or tcp:// on loopback) publishes the port on 127.0.0.1 only.
An engine on another host (``--docker-host tcp://DBHOST:2375`` or ``ssh://user@DBHOST``, see
:mod:`ycsbctl.provision.engines`) publishes it on all of that host's addresses, the server gets a
generated password (Redis-protocol flavors on the command line; PostgreSQL and MariaDB images in their
first-start environment; others, e.g. memcached, are refused there) and the URL names ``DBHOST``.
Every container carries ``ycsbctl=1``, ``ycsbctl.experiment=<id>``, ``ycsbctl.target``,
``ycsbctl.instance=<uuid>`` (so a container whose creation was interrupted can still be found)
and ``ycsbctl.state=<state folder>`` (so ``down --all`` removes only this state's containers).
A daemon without a ``bridge`` network (``dockerd --bridge=none``) gets host networking, said in
the endpoint notes. Logs are written to ``<state dir>/logs/`` when the container is removed.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
import uuid
from typing import Any

import docker
import docker.errors
import docker.types

from ycsbctl.errors import UserError, short_error
from ycsbctl.processes import deferred_signals
from ycsbctl.provision import catalog, engines, limits, probe, state
from ycsbctl.provision.base import Endpoint, Provisioner, UpOptions
from ycsbctl.provision.local import free_port, port_owner, settings_refused
from ycsbctl.stores.registry import server_kind
from ycsbctl.stores.server_kind import ServerKind
from ycsbctl.urls import redact_url

READY_TIMEOUT_S = 120.0
STOP_TIMEOUT_S = 10  # SIGTERM -> SIGKILL inside `docker stop`
FLAVOR_LABEL = "ycsbctl.flavor"  # set on images whose entrypoint takes another target's flags


def docker_host() -> str:
    return engines.default_docker_host()


def open_client(host: str | None = None, timeout_s: float = 60.0) -> docker.DockerClient:
    """A docker SDK client of the engine at ``host`` (default ``$DOCKER_HOST``), not yet asked anything.

    TLS comes from ``DOCKER_TLS_VERIFY``/``DOCKER_CERT_PATH`` as for docker's CLI; ``ssh://`` goes
    through the ``ssh`` command (so ``~/.ssh/config``, the agent and known_hosts apply)."""
    if not host:
        return docker.from_env(timeout=int(timeout_s))
    env = {**os.environ, "DOCKER_HOST": host}
    return docker.from_env(timeout=int(timeout_s), environment=env, use_ssh_client=host.startswith("ssh://"))


DEFAULT_SOCKET = "/var/run/docker.sock"  # where the Docker SDK looks when $DOCKER_HOST is not set


def configured_here() -> bool:
    """Whether this host has a Docker engine to ask: ``$DOCKER_HOST`` set, or the default socket present
    (it may still not answer: that is :func:`connect`'s to say)."""
    return bool(os.environ.get("DOCKER_HOST")) or os.path.exists(DEFAULT_SOCKET)


def connect(timeout_s: float = 60.0, host: str | None = None) -> docker.DockerClient:
    """A client whose daemon answered a ping, or UserError (exit 1) saying how to start one.

    ``host`` (e.g. ``unix:///var/run/docker.sock``, ``tcp://DBHOST:2375``) overrides ``$DOCKER_HOST``;
    a plain ``tcp://`` engine that answers gets one warning line (once per process).
    """
    try:
        client = open_client(host, timeout_s)
        client.ping()
    except Exception as exc:  # noqa: BLE001 - DockerException, connection and permission errors
        raise UserError(f"Docker does not answer at {host or docker_host()} ({short_error(exc)})",
                        fix=engines.unreachable_fix(host or docker_host()), exit_code=1) from None
    engines.warn_if_plain_tcp(host or docker_host())
    return client


def image_present(client: docker.DockerClient, image: str) -> bool:
    try:
        client.images.get(image)
        return True
    except docker.errors.ImageNotFound:
        return False


def image_pullable(client: docker.DockerClient, image: str) -> tuple[bool, str]:
    """Whether a registry serves ``image`` (asks for its manifest; pulls nothing)."""
    try:
        client.api.inspect_distribution(image)
        return True, "pullable"
    except Exception as exc:  # noqa: BLE001 - no registry, no network, unknown image
        return False, short_error(exc)


def pull(client: docker.DockerClient, image: str, say) -> None:
    """Pull ``image``, reporting progress (MB of layers) through ``say`` at most every 2 s."""
    repo, tag = docker.utils.parse_repository_tag(image)
    say(f"pulling {image} (not present locally)")
    layers: dict[str, tuple[int, int]] = {}
    last = time.monotonic()
    try:
        for event in client.api.pull(repo, tag=tag or "latest", stream=True, decode=True):
            if "error" in event:
                raise docker.errors.APIError(event["error"])
            detail = event.get("progressDetail") or {}
            if event.get("id") and detail.get("total"):
                layers[event["id"]] = (detail.get("current", 0), detail["total"])
            if time.monotonic() - last > 2.0 and layers:
                done = sum(c for c, _ in layers.values()) / 1e6
                total = sum(t for _, t in layers.values()) / 1e6
                say(f"pulling {image}: {done:.1f}/{total:.1f} MB in {len(layers)} layers")
                last = time.monotonic()
    except docker.errors.APIError as exc:
        raise UserError(f"image {image} is not present and cannot be pulled ({short_error(exc)})",
                        fix="build one with `python infra/docker/build_local_images.py` and pass --image, or use "
                            "--backend local", exit_code=1) from None
    say(f"pulled {image}")


def image_flavor(client: docker.DockerClient, image: str, default: str) -> str:
    labels = client.images.get(image).labels or {}
    return labels.get(FLAVOR_LABEL, default)


def container_labels(experiment_id: str, target: str, instance: str) -> dict[str, str]:
    """The labels every container ycsbctl starts carries (see the module's docstring)."""
    return {"ycsbctl": "1", "ycsbctl.experiment": experiment_id, "ycsbctl.target": target,
            "ycsbctl.instance": instance, "ycsbctl.state": state.namespace()}


def has_bridge(client: docker.DockerClient) -> bool:
    return bool(client.networks.list(names=["bridge"]))


def _write_logs(container: Any, log_path: str | None) -> None:
    if not log_path:
        return
    try:
        data = container.logs(stdout=True, stderr=True)
    except docker.errors.APIError:
        return
    with open(log_path, "wb") as f:
        f.write(data)


def container_tail(container: Any) -> str:
    try:
        return probe.join_tail(container.logs(tail=8).decode(errors="replace"))
    except docker.errors.APIError:
        return "(no logs)"


def remove_container(container: Any, log_path: str | None = None, stop: bool = True) -> None:
    """Stop (grace STOP_TIMEOUT_S), save logs, remove; only containers labelled as ours."""
    if (container.labels or {}).get("ycsbctl") != "1":
        return
    try:
        if stop:
            container.stop(timeout=STOP_TIMEOUT_S)
    except docker.errors.APIError:
        pass
    _write_logs(container, log_path)
    with contextlib.suppress(docker.errors.NotFound):
        container.remove(force=True, v=True)


def remove_instance(client: docker.DockerClient, instance: str, log_path: str | None = None) -> None:
    for c in client.containers.list(all=True, filters={"label": [f"ycsbctl.instance={instance}"]}):
        remove_container(c, log_path, stop=False)


def remove_ours(client: docker.DockerClient) -> list[str]:
    """Remove every container of this state folder (labels ``ycsbctl=1`` and ``ycsbctl.state``)."""
    removed = []
    filters = {"label": ["ycsbctl=1", f"ycsbctl.state={state.namespace()}"]}
    for c in client.containers.list(all=True, filters=filters):
        log_path = str(state.logs_dir() / f"{c.labels.get('ycsbctl.target', 'server')}-{c.id[:12]}.log")
        remove_container(c, log_path)
        removed.append(c.name)
    return removed


def _engine_cores(client: docker.DockerClient) -> float | None:
    """CPUs of the engine's host (``docker info`` NCPU): all a server without a cpuset may use there."""
    try:
        return float(client.info()["NCPU"])
    except (docker.errors.APIError, KeyError, TypeError, ValueError):
        return None


def _container_name(target: str, experiment_id: str) -> str:
    safe = re.sub(r"[^a-zA-Z0-9_.-]", "-", experiment_id)[:40]
    return f"ycsbctl-{target}-{safe}-{uuid.uuid4().hex[:6]}"


def _refuse_unsupported(target: str, entry: catalog.Target, options: UpOptions) -> None:
    """A :class:`UserError` for what this backend does not start: a local build, a target of several
    processes, a TLS server, a store embedded in the client."""
    if options.binary:
        raise UserError(f"--binary {target}=… runs a local build: use --backend local for {target}")
    if entry.variant is not None and entry.variant.several:
        raise UserError(f"{target}: ycsbctl starts several-process targets with the local backend only: "
                        "add --backend local")
    if options.tls:
        raise UserError(f"{target}: ycsbctl starts TLS servers with the local backend only: add --backend local")
    if not entry.image:
        raise UserError(f"{target} is embedded in the client (no server, no image): use --backend local")


def _listening(client: docker.DockerClient, entry: catalog.Target, host_network: bool, wanted: int | None,
               remote: str | None, notes: list[str]) -> tuple[bool, int, str]:
    """Where the server listens: (host networking, its port, its address). Host networking where asked or
    where the daemon has no bridge network (said in ``notes``); ``wanted`` (``--port``) refused when another
    program holds it here."""
    if not host_network and not has_bridge(client):
        host_network = True
        notes.append("host networking: this Docker daemon has no bridge network")
    if remote is None and wanted and (owner := port_owner(wanted)):
        raise UserError(f"port {wanted} on 127.0.0.1 is in use by {owner}", fix="choose another --port or stop it",
                        exit_code=1)
    # host networking: on another host ycsbctl cannot look for a free port (the server's own, or --port)
    port = wanted or (entry.container_port if remote else free_port()) if host_network else entry.container_port
    return host_network, port, "0.0.0.0" if remote or not host_network else "127.0.0.1"


def _container_options(entry: catalog.Target, kind: ServerKind, password: str | None, host_network: bool,
                       remote: str | None, wanted: int | None, cpus: list[int] | None,
                       memory: int | None) -> dict[str, Any]:
    """The container's options for ``containers.create`` beside its command, labels and name: environment,
    tmpfs, network and published port, CPU set, memory limit (bytes, no swap), memlock, stop signal."""
    run: dict[str, Any] = {}
    environment = kind.image_env(entry.env, password)
    if environment:
        run["environment"] = environment
    if entry.container_tmpfs:
        run["tmpfs"] = {entry.container_tmpfs: ""}
    if host_network:
        run["network_mode"] = "host"
    else:
        run["ports"] = {f"{entry.container_port}/tcp": ("0.0.0.0" if remote else "127.0.0.1", wanted)}
    if cpus is not None:
        run["cpuset_cpus"] = ",".join(map(str, cpus))
    if memory is not None:
        run["mem_limit"] = memory
        run["memswap_limit"] = memory  # no swap: the limit is the limit
    if kind.container_memlock_unlimited:
        run["ulimits"] = [docker.types.Ulimit(name="memlock", soft=-1, hard=-1)]
    if kind.container_stop_signal:  # postgres: as the official image's STOPSIGNAL, a fast shutdown
        run["stop_signal"] = kind.container_stop_signal
    return run


def _wait_ready(container: Any, target: str, entry: catalog.Target, url: str, image: str, settings: dict[str, str],
                log_path: str, ready_timeout_s: float | None) -> None:
    """Wait until the server in ``container`` answers on ``url`` (or its container exits); on a failure, its
    logs are written to ``log_path`` and settings the server refused are named."""

    def exited() -> str | None:
        container.reload()
        if container.status in ("exited", "dead"):
            return f"container {container.name} exited with code {container.attrs['State']['ExitCode']}"
        return None

    try:
        probe.wait_ready(entry.protocol, url, exited=exited, log_tail=lambda: container_tail(container),
                         timeout_s=(entry.ready_timeout_s or READY_TIMEOUT_S) if ready_timeout_s is None
                         else ready_timeout_s)
    except UserError:
        _write_logs(container, log_path)
        refused = settings_refused(target, f"{entry.name} ({image})", settings, log_path)
        if refused is not None:
            raise refused from None
        raise


class DockerProvisioner(Provisioner):
    """Starts catalogue targets as containers of a local Docker engine."""

    name = "docker"

    def up(self, target: str, options: UpOptions | None = None) -> Endpoint:
        """Start ``target`` (a label of ``options.kind``, default its own) in a container on
        ``options.docker_host`` (default ``$DOCKER_HOST``), ``options.settings`` on its command line."""
        options = options or UpOptions()
        entry = catalog.get_target(options.kind or target)
        settings = dict(options.settings)
        _refuse_unsupported(target, entry, options)
        say = options.progress
        experiment_id = options.experiment_id
        engine_url = options.docker_host or docker_host()
        remote = engines.engine_address(engine_url)  # None: the engine runs on this host
        cpus = limits.parse_cpuset(options.server_cpus, here=remote is None) if options.server_cpus else None
        memory = limits.parse_size(options.server_memory) if options.server_memory else None
        client = connect(host=options.docker_host)
        image = options.image or entry.image
        if not image_present(client, image):
            pull(client, image, say)
        flavor = image_flavor(client, image, entry.flavor)
        kind = server_kind(flavor)
        notes = [*options.notes, f"docker image {image} (flavor {flavor})"]
        if remote and not kind.takes_password:
            raise UserError(f"{entry.name} on the Docker engine at {engine_url} would listen on {remote} without a "
                            "password: ycsbctl can give only Redis-protocol, PostgreSQL and MariaDB servers one",
                            fix=f"start {entry.name} there yourself with authentication and pass its URL "
                                f"({catalog.url_for(entry.protocol, entry.container_port, remote)} with user and "
                                "password), or use an engine on this host", exit_code=1)
        password = engines.new_password() if remote else None
        host_network, port, listen = _listening(client, entry, options.host_network, options.port, remote, notes)
        args = catalog.server_args(flavor, port=port, bind=listen, data_dir=None, memory_bytes=memory,
                                   password=password if kind.password_on_command_line else None,
                                   settings=settings)
        note = kind.memory_note(memory)
        if note:
            notes.append(note)
        if remote:
            notes.append(f"runs on {remote} (Docker engine {engine_url}), listening on all of its addresses; "
                         "clients need the password ycsbctl generated (kept only in the state file)")
        instance = uuid.uuid4().hex
        run = {"command": args, "labels": container_labels(experiment_id, target, instance), "detach": True,
               "name": _container_name(target, experiment_id),
               **_container_options(entry, kind, password, host_network, remote, options.port, cpus, memory)}
        if entry.variant is not None and entry.variant.durable:
            notes.append("data directory in the container's own filesystem (Docker's storage, not tmpfs)")
        cores = float(len(cpus)) if cpus else (_engine_cores(client) if remote else None)
        log_path = None
        try:
            with deferred_signals():  # created and recorded, or neither
                container = client.containers.create(image, **run)
                log_path = str(state.logs_dir() / f"{target}-{experiment_id}-{container.id[:12]}.log")
                endpoint = Endpoint(target=target, protocol=entry.protocol, url="", backend="docker",
                                    container_id=container.id, log_path=log_path,
                                    cpu_limit_cores=cores, memory_limit_bytes=memory, notes=notes, host=remote,
                                    docker_host=engine_url, kind=entry.name, settings=settings)
                state.add({"key": f"docker:{container.id}", "endpoint": endpoint.to_dict(), "instance": instance,
                           "docker_host": engine_url, "options": options.to_store(),
                           "started": time.time()})
            say(f"starting {target} in container {container.name} ({image})")
            container.start()
            if not host_network:
                container.reload()
                port = int(container.attrs["NetworkSettings"]["Ports"][f"{entry.container_port}/tcp"][0]["HostPort"])
            endpoint.url = catalog.url_for(entry.protocol, port, remote or "127.0.0.1", password)
            say(f"waiting for {target} to answer on {redact_url(endpoint.url)}")
            _wait_ready(container, target, entry, endpoint.url, image, settings, log_path, options.ready_timeout_s)
            facts = probe.describe(entry.protocol, endpoint.url, expected=entry.display, variant=kind.describe_variant)
        except BaseException:
            with deferred_signals():
                remove_instance(client, instance, log_path)
                for e in state.entries():
                    if e.get("instance") == instance:
                        state.remove(e["key"])
            raise
        endpoint.server_name, endpoint.server_version, endpoint.config = facts.name, facts.version, facts.config
        endpoint.traits = facts.traits
        state.add({**(state.find(f"docker:{container.id}") or {}), "endpoint": endpoint.to_dict()})
        return endpoint

    def down(self, endpoint: Endpoint) -> None:
        """Stop and remove the container if it is labelled as ours; save its logs; forget it."""
        key = f"docker:{endpoint.container_id}"
        entry = state.find(key)
        client = connect(host=(entry.get("docker_host") if entry else None) or endpoint.docker_host)
        try:
            container = client.containers.get(endpoint.container_id)
        except docker.errors.NotFound:
            container = None
        if container is not None:
            remove_container(container, endpoint.log_path)
        state.remove(key)


def container_running(endpoint: Endpoint) -> bool:
    entry = state.find(f"docker:{endpoint.container_id}")
    try:
        client = connect(timeout_s=10, host=(entry.get("docker_host") if entry else None) or endpoint.docker_host)
        container = client.containers.get(endpoint.container_id)
    except (UserError, docker.errors.NotFound):
        return False
    return container.status == "running"

"""The start-up of a target of several local processes (a cluster, a primary and its standby): its endpoint and
state-file key, each member waited for until it answers, the members stopped and forgotten on any failure, and
the first member's facts kept once all are up. :mod:`ycsbctl.provision.local_cluster` and
:mod:`ycsbctl.provision.local_standby` start the members; one process is :mod:`ycsbctl.provision.local`."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator

import psutil

from ycsbctl.errors import UserError
from ycsbctl.processes import deferred_signals
from ycsbctl.provision import catalog, probe, state
from ycsbctl.provision.base import Endpoint, UpOptions
from ycsbctl.provision.local import READY_TIMEOUT_S, settings_refused, stop_all


def wait_member_ready(entry: catalog.Target, p: dict, settings: dict[str, str], label: str, binary: str) -> None:
    """Wait until one process of a several-process target (``p``: its pid, role, url and log path) answers; a
    process that exited, or refused a setting, is one line naming its role (UserError)."""
    def exited() -> str | None:
        try:
            proc = psutil.Process(p["pid"])
            if proc.status() != psutil.STATUS_ZOMBIE:
                return None
        except psutil.Error:
            pass
        return f"{os.path.basename(binary)} ({p['role']}) exited"

    try:
        probe.wait_ready(entry.protocol, p["url"], timeout_s=READY_TIMEOUT_S, exited=exited,
                         log_tail=lambda: probe.tail(p["log_path"]))
    except UserError:
        refused = settings_refused(label, os.path.basename(binary), settings, p["log_path"])
        if refused is not None:
            raise refused from None
        raise


def several_process_endpoint(label: str, entry: catalog.Target, first_url: str, first_port: int, options: UpOptions,
                             memory: int | None, binary: str) -> tuple[Endpoint, str]:
    """The endpoint of a target of several local processes (a cluster, a primary and its standby), named by its
    first process's URL and port, and its key in the state file."""
    endpoint = Endpoint(target=label, protocol=entry.protocol, url=first_url, backend="local",
                        log_path=str(state.logs_dir() / f"{label}-{options.experiment_id}-{first_port}.log"),
                        memory_limit_bytes=memory, notes=list(options.notes), kind=entry.name,
                        settings=dict(options.settings), binary=binary)
    return endpoint, f"local:{label}:{first_port}"


@contextlib.contextmanager
def members_rolled_back(procs: list[dict], key: str, root: str) -> Iterator[None]:
    """The start-up of a several-process target: on any failure (Ctrl-C included) the processes started so
    far (``procs``) are stopped, its state entry (``key``) and its folder (``root``) removed, then it is raised."""
    try:
        yield
    except BaseException:
        with deferred_signals():  # a second Ctrl-C or SIGTERM must not cut the rollback short
            stop_all(procs)
            state.remove(key)
            shutil.rmtree(root, ignore_errors=True)
        raise


def keep_members(endpoint: Endpoint, key: str, facts: probe.ServerFacts) -> Endpoint:
    """A several-process target once up: its first process's facts on the endpoint, kept in its state entry."""
    endpoint.server_name, endpoint.server_version, endpoint.config = facts.name, facts.version, facts.config
    endpoint.traits = facts.traits
    state.add({**(state.find(key) or {}), "endpoint": endpoint.to_dict()})
    return endpoint

"""``postgresql-standby``: a PostgreSQL primary and a streaming standby, made with PostgreSQL's own
tooling — ``initdb`` for the primary, ``pg_basebackup`` of it for the standby, which then streams
the primary's WAL (``primary_conninfo``, ``standby.signal``, a hot standby answering reads).

The primary names the standby in ``synchronous_standby_names``, so its ``synchronous_commit`` level
(``--server-config postgresql-standby:synchronous_commit=remote_apply``; the variant's default ``on``)
decides what a commit waits for: ``off``/``local`` nothing of the standby, ``remote_write`` the standby's
write, ``on`` its flush, ``remote_apply`` its replay (a row committed is then visible there).
Every process runs in its own folder under one data folder, on a free loopback port; the state file
keeps both PIDs (see :mod:`ycsbctl.provision.local_cluster`, whose shape this follows).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import time
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
from ycsbctl.stores.postgresql.server import PG_USER
from ycsbctl.stores.registry import server_kind

STANDBY_NAME = "standby1"  # its application_name: what synchronous_standby_names names


def start(label: str, entry: catalog.Target, binary: str, options: UpOptions, certs: ServerCertificates | None,
          memory: int | None, pinned: list[str]) -> Endpoint:
    """Start the primary, copy it with ``pg_basebackup`` and start the standby from the copy; wait
    until the primary sees it streaming; remove both on any failure."""
    say = options.progress
    settings = {"synchronous_standby_names": STANDBY_NAME, **options.settings}
    if settings.pop("replicas", "1") != "1":
        raise UserError(f"{label}: replicas={options.settings['replicas']!r} — a {entry.name} has one standby "
                        "(replicas=1)")
    server_kind(entry.local_flavor).settings_args(settings)
    user = local_prep.run_as(entry)
    root = local_prep.data_folder(label, entry)  # tmpfs, as the single server's (its durability is off)
    if user:
        shutil.chown(root, user=user, group=None)
    ports = [free_port(), free_port()]
    while ports[1] == ports[0]:
        ports[1] = free_port()
    first_url = catalog.url_for(entry.protocol, ports[0], tls=certs)
    endpoint, key = several_process_endpoint(label, entry, first_url, ports[0], options, memory, binary)
    procs: list[dict] = []
    with members_rolled_back(procs, key, root):
        primary_dir = str(Path(root) / f"1-{ports[0]}")
        os.mkdir(primary_dir, 0o700)
        if user:
            shutil.chown(primary_dir, user=user, group=None)
        log_path = str(endpoint.log_path)
        local_prep.init_data_dir(entry.local_flavor, binary, primary_dir, user, log_path)  # initdb
        _start(label, entry, binary, "primary", primary_dir, ports[0], settings, certs, memory, pinned, user,
               options, endpoint, key, procs, root, [])
        wait_member_ready(entry, procs[0], settings, label, binary)
        standby_dir = str(Path(root) / f"2-{ports[1]}")
        conninfo = (f"host=127.0.0.1 port={ports[0]} user={PG_USER} application_name={STANDBY_NAME}"
                    # no client certificate: libpq would look in $HOME/.postgresql, ours (root's), unreadable
                    + (f" sslmode=require sslcert={root}/none.crt sslkey={root}/none.key" if certs is not None else ""))
        say(f"copying {label}'s primary with pg_basebackup into {standby_dir}")
        basebackup = str(Path(binary).resolve().with_name("pg_basebackup"))
        local_prep._run([basebackup, "-D", standby_dir, "-X", "stream", "-d", conninfo], root, user, log_path,
                        "pg_basebackup")
        Path(standby_dir, "standby.signal").touch()
        _start(label, entry, binary, f"standby of 127.0.0.1:{ports[0]}", standby_dir, ports[1], settings, certs,
               memory, pinned, user, options, endpoint, key, procs, root,
               [f"--primary_conninfo={conninfo}", "--hot_standby=on"])
        wait_member_ready(entry, procs[1], settings, label, binary)
        sync = _wait_streaming(first_url, named=STANDBY_NAME in settings.get("synchronous_standby_names", ""))
        facts = probe.describe(entry.protocol, first_url, expected=entry.display)
    endpoint.notes.append(f"a primary and a streaming standby ({sync}, synchronous_commit="
                          f"{settings.get('synchronous_commit', '?')}): processes on ports {ports[0]}, {ports[1]}")
    return keep_members(endpoint, key, facts)


def _start(label: str, entry: catalog.Target, binary: str, role: str, data_dir: str, port: int,
           settings: dict[str, str], certs: ServerCertificates | None, memory: int | None, pinned: list[str],
           user: str | None, options: UpOptions, endpoint: Endpoint, key: str, procs: list[dict], root: str,
           extra: list[str]) -> None:
    """Start one of the two servers and record it (state file, ``endpoint.processes``) at once."""
    server_certs = local_prep.server_tls_files(entry.local_flavor, certs, data_dir, user) if certs else None
    argv = [*pinned, binary, *catalog.server_args(entry.local_flavor, port=port, bind="127.0.0.1", data_dir=data_dir,
                                                  memory_bytes=memory, settings=settings, tls=server_certs), *extra]
    log_path = state.logs_dir() / f"{label}-{options.experiment_id}-{port}.log"
    options.progress(f"starting {label} {role}: {shlex.join(argv)} (log {log_path})")
    with deferred_signals():  # started and recorded, or neither
        with open(log_path, "ab") as log:
            proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                    cwd=data_dir, start_new_session=True, user=user)
        procs.append({"role": role, "pid": proc.pid, "port": port,
                      "url": catalog.url_for(entry.protocol, port, tls=certs),
                      "create_time": psutil.Process(proc.pid).create_time(), "log_path": str(log_path)})
        endpoint.processes = [{k: v for k, v in p.items() if k != "create_time"} for p in procs]
        endpoint.pid = procs[0]["pid"]
        state.add({"key": key, "endpoint": endpoint.to_dict(), "create_time": procs[0]["create_time"],
                   "processes": procs, "data_dir": root, "options": options.to_store(), "started": time.time()})


def _wait_streaming(url: str, named: bool) -> str:
    """Wait until the primary at ``url`` sees the standby streaming (``pg_stat_replication``) — and,
    where ``synchronous_standby_names`` names it (``named``), as its synchronous standby: a walsender
    shows ``async`` until the standby has reported a flush position, and a commit made before that
    does not wait for it. Its ``sync_state`` (``sync``, ``async``)."""
    from ycsbctl.stores.postgresql.session import query

    deadline = time.monotonic() + READY_TIMEOUT_S
    while True:
        rows = query(url, "SELECT state, sync_state FROM pg_stat_replication WHERE application_name = $1", 5.0,
                     STANDBY_NAME)
        if rows and rows[0][0] == "streaming" and (rows[0][1] == "sync" or not named):
            return str(rows[0][1])
        if time.monotonic() > deadline:
            raise UserError(f"the standby did not start streaming within {READY_TIMEOUT_S:g} s "
                            f"(pg_stat_replication: {rows})", exit_code=1)
        time.sleep(0.1)

"""memcached from Debian's package with the local backend: started on a free port with its memory set,
always stopped; external URLs used as they are; the footprint of a load from its own ``stats``."""

from __future__ import annotations

import os
import signal

import psutil
import pytest
from pymemcache.client.base import Client

from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.errors import UserError
from ycsbctl.provision import doctor, provision, provisioned, state, teardown
from ycsbctl.stores.server_kind import memcached_mb
from ycsbctl.telemetry.footprint import footprint_after, footprint_before
from ycsbctl.workload.properties import load_properties

QUIET = {"say": lambda message: None}


def stats(port: int) -> dict[bytes, bytes]:
    c = Client(("127.0.0.1", port), connect_timeout=5, timeout=5)
    try:
        return c.stats()
    finally:
        c.close()


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def test_local_memcached_runs_with_the_memory_asked_for_and_is_stopped(state_dir):
    with provisioned(["memcached"], "local", experiment_id="t-mc", server_memory="64m", **QUIET) as (ep,):
        assert ep.protocol == "memcached" and ep.url.startswith("memcached://127.0.0.1:")
        assert ep.server_name.startswith("memcached 1.") and ep.pid is not None
        assert psutil.Process(ep.pid).cwd() == state.entries()[0]["data_dir"]
        # --server-memory 64m: 80% of it for items, in memcached's whole MB
        assert int(stats(port_of(ep.url))[b"limit_maxbytes"]) == int(64 * 0.8) * 1024**2
        assert any("memcached -m 51 MB" in n for n in ep.notes)
        pid = ep.pid
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    assert state.entries() == []


def test_a_local_memcached_is_ended_by_sigkill_and_a_redis_by_sigterm(state_dir, monkeypatch):
    """memcached acts on SIGTERM only at its next once-a-second clock tick and keeps nothing a clean stop would
    save: its group is sent SIGKILL (and is gone); a server whose clean stop matters (redis) still gets SIGTERM."""
    sent: list[tuple[str, int]] = []
    killpg = os.killpg

    def recorded(pgid: int, sig: int) -> None:
        sent.append((psutil.Process(pgid).name(), sig))
        killpg(pgid, sig)

    monkeypatch.setattr(os, "killpg", recorded)
    with provisioned(["memcached", "redis"], "local", experiment_id="t-mc-kill", server_memory="64m",
                     **QUIET) as endpoints:
        pids = [ep.pid for ep in endpoints]
    assert sorted(sent) == [("memcached", signal.SIGKILL), ("redis-server", signal.SIGTERM)]
    assert all(not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE for pid in pids)


def test_without_server_memory_memcached_gets_half_the_ram_not_its_64_mb_default(state_dir):
    ep = provision("memcached", "local", experiment_id="t-mc-default", **QUIET)
    try:
        limit = int(stats(port_of(ep.url))[b"limit_maxbytes"])
        assert limit == memcached_mb(None) * 1024**2 and limit >= psutil.virtual_memory().total // 2 - 1024**2
    finally:
        teardown(ep)


def test_an_interrupt_stops_the_server_it_started(state_dir):
    with pytest.raises(KeyboardInterrupt), provisioned(["memcached"], "local", experiment_id="t-mc-int",
                                                       **QUIET) as (ep,):
        pid = ep.pid
        raise KeyboardInterrupt
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    assert state.entries() == []


def test_missing_memcached_says_what_to_install(state_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(UserError, match="memcached not found .*apt-get install memcached"):
        provision("memcached", "local", experiment_id="t-mc-missing", **QUIET)
    row = next(c for c in doctor.checks() if c.name == "memcached binary")
    assert not row.ok and row.fix.startswith("apt-get install memcached")


def test_an_external_url_is_used_and_never_stopped(state_dir, memcached_server):
    ep = provision(memcached_server.url, experiment_id="t-mc-ext", **QUIET)
    assert ep.backend == "external" and ep.server_name.startswith("memcached 1.")
    teardown(ep)
    assert memcached_server.proc.poll() is None and state.entries() == []


def test_the_footprint_per_record_is_memcacheds_own_bytes(state_dir):
    with provisioned(["memcached"], "local", experiment_id="t-mc-fp", server_memory="128m", **QUIET) as (ep,):
        before = footprint_before(ep)
        bytes_before = int(stats(port_of(ep.url))[b"bytes"])
        props = dict(load_properties("workload-a"))
        props.update(recordcount="500", operationcount="0")
        load = run_phase(PhaseSpec("load", ep.url, props, threads=4, processes=1))
        assert load.status == "ok", load.errors
        fp = footprint_after(ep, before, 500)
        after = stats(port_of(ep.url))
        assert fp.basis == "bytes" and fp.keys == int(after[b"curr_items"]) == 500
        assert fp.bytes_per_record == (int(after[b"bytes"]) - bytes_before) / 500
        assert fp.bytes_per_record > 10 * 100  # ten 100-byte fields at least
        assert fp.rss_bytes_per_record is not None and fp.rss_source == "process"
        assert os.path.exists(ep.log_path)


def test_server_config_settings_are_memcacheds_long_options(state_dir):
    with provisioned(["memcached-t2"], "local", experiment_id="t-mc-set", kind="memcached", settings={"threads": "2"},
                     **QUIET) as (ep,):
        assert ep.kind == "memcached" and ep.settings == {"threads": "2"}
        assert ep.config["stats settings"]["num_threads"] == "2"


def test_the_docker_image_is_the_official_one_listening_on_the_container_address():
    from ycsbctl.provision.catalog import get_target, server_args

    entry = get_target("memcached")
    assert (entry.image, entry.container_port, entry.protocol) == ("memcached:1.6", 11211, "memcached")
    args = server_args(entry.flavor, port=11211, bind="0.0.0.0", data_dir=None, memory_bytes=256 * 1024**2)
    assert args[args.index("-l") + 1] == "0.0.0.0" and args[args.index("-m") + 1] == str(int(256 * 0.8))

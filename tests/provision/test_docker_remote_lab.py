"""``--docker-host``: servers on another host's Docker engine, here a ``dockerd`` in the lab's ``srv``
namespace listening on tcp://198.18.0.10:2375 (see tests/fixtures/remote_docker.py), driven by
ycsbctl on the lab's ``ctl`` host.

Truths: the engine itself (its containers, and the network namespace of the server's process), Redis's
own ``INFO commandstats`` (read = HGETALL, update and insert = HMSET, insert also ZADD), Redis refusing
a client without the password, and the bytes of every file the run wrote.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from urllib.parse import urlsplit

import pandas as pd
import pytest

from tests.fixtures.lab import runs
from tests.fixtures.remote_docker import RemoteEngine

pytestmark = pytest.mark.report  # reads the report a sweep draws (see tests/fixtures/session.py)

RECORDS = 200


def _op_total(folder: Path, op: str) -> int:
    """Operations of ``op`` over every second of the folder's one run point (series.parquet)."""
    s = pd.read_parquet(folder / "series.parquet")
    return int(s[s.op == op].operations.sum())


def _files_containing(folder: Path, secret: str) -> list[str]:
    return [str(p) for p in folder.rglob("*") if p.is_file() and secret.encode() in p.read_bytes()]


def _down_all(engine: RemoteEngine) -> str:
    """``down --all``; the lab's ctl host has no default engine (exit 1 saying only that one was not checked)."""
    r = engine.ycsbctl("down", "--all")
    errors = [line for line in r.stderr.splitlines() if line.startswith("error:")]
    assert r.returncode == 0 or (errors and "not checked" in errors[0] and engine.url not in errors[0]), r.stderr
    return r.stdout


def test_up_on_a_remote_engine_serves_from_there_with_a_password_and_down_all_removes_it(
        remote_engine: RemoteEngine, tmp_path: Path) -> None:
    e = remote_engine
    r = e.ycsbctl("up", "redis", "--docker-host", e.url, "--image", f"redis={e.images['redis']}")
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("plain TCP without authentication") == 1  # one warning line for a tcp:// engine
    assert f"redis://:***@{e.address}:" in r.stdout  # the engine's host, never 127.0.0.1; the password hidden
    (container,) = e.ours()
    # the server's process lives in the srv namespace, where that engine runs
    assert os.stat(f"/proc/{container.attrs['State']['Pid']}/ns/net").st_ino == os.stat(e.lab.netns_path("srv")).st_ino

    status = json.loads(e.ycsbctl("status", "--json", "--with-passwords").stdout)
    url = urlsplit(status["url"])
    assert status["alive"] and status["host"] == e.address and status["docker_host"] == e.url
    assert url.hostname == e.address and len(url.password or "") == 32
    refused = e.lab.run("ctl", ["redis-cli", "-h", e.address, "-p", str(url.port), "DBSIZE"], timeout=30)
    assert "NOAUTH" in refused.stdout + refused.stderr

    load = e.ycsbctl("load", "workload-b", "--target", status["url"], "--threads", "4", "--records", str(RECORDS),
                     "--quiet")
    assert load.returncode == 0, load.stderr
    out = tmp_path / "run"
    run = e.ycsbctl("run", "workload-b", "--target", status["url"], "--threads", "8", "--duration", "2",
                    "--warmup", "0", "--records", str(RECORDS), "--no-load", "--out", str(out), "--quiet")
    assert run.returncode == 0, run.stderr
    calls = e.redis_calls(url.port or 0, url.password or "")
    assert calls["hgetall"] == _op_total(out, "READ") > 0
    assert calls["hmset"] == RECORDS + _op_total(out, "UPDATE")
    assert calls["zadd"] == RECORDS
    assert not _files_containing(out, url.password or "") and url.password not in run.stderr + run.stdout

    lines = _down_all(e)
    assert "redis: stopped container" in lines
    assert e.ours() == []


def test_a_run_provisioned_on_the_remote_engine_is_measured_from_there(remote_engine: RemoteEngine,
                                                                       tmp_path: Path) -> None:
    e = remote_engine
    out = tmp_path / "exp"
    proc = e.ycsbctl("run", "workload-b", "--target", "redis", "--docker-host", e.url,
                     "--image", f"redis={e.images['redis']}", "--image", f"iperf3={e.images['iperf3']}",
                     "--threads", "8", "--duration", "2", "-p", f"recordcount={RECORDS}", "--out", str(out),
                     "--quiet", popen=True)
    password = None
    deadline = time.monotonic() + 60
    while password is None and proc.poll() is None and time.monotonic() < deadline:
        for c in e.client.containers.list(filters={"label": "ycsbctl.target=redis"}):
            args = c.attrs["Args"]
            password = args[args.index("--requirepass") + 1]  # what the engine was asked to run
        time.sleep(0.1)  # poll until ycsbctl has started the server
    stdout, stderr = proc.communicate(timeout=180)
    assert proc.returncode == 0, stderr
    assert password is not None and len(password) == 32
    assert stderr.count("plain TCP without authentication") == 1
    assert password not in stdout + stderr and not _files_containing(out, password)

    manifest = json.loads((out / "manifest.json").read_text())
    server = manifest["servers"]["redis"]
    assert server["host"] == e.address and server["docker_host"] == e.url
    assert server["url"].startswith(f"redis://:***@{e.address}:") and server["config"]["requirepass"] == "***"
    network = manifest["network"]["redis"]  # iperf3 against a container next to the server, on its engine
    assert network["server_host"] == e.address and network["server"].startswith(f"{e.address}:")
    assert network["gbit_s"] > 0, network["note"]

    telemetry = pd.read_parquet(out / "telemetry.parquet")
    container_cpu = telemetry[telemetry.source == "server-container"].cpu_pct.dropna()
    assert len(container_cpu) and container_cpu.max() > 0  # docker stats of the container on that engine
    assert "net-lo" not in set(telemetry.source)  # this host's loopback carries none of its traffic
    (point,) = [d for d in runs(out).values() if d["phase"] == "run"]
    assert point["status"] == "ok", point["error"]
    assert point["telemetry_summary"]["server_cpu_source"] == "server-container"
    assert point["bottleneck"]["label"] != "host-cpu"  # client and server share no cores
    assert f"on {e.address}" in (out / "report.html").read_text()
    assert e.ours() == []  # the run removed its server and the iperf3 container
    # nothing of ours is left: nothing to stop (the ctl host has no Docker of its own to look in, and says so)
    assert _down_all(e) in ("", "nothing to stop\n", "no Docker on this host: no container to look for\n")


def test_a_mongodb_protocol_server_is_refused_on_a_remote_engine(remote_engine: RemoteEngine) -> None:
    """ycsbctl cannot give a MongoDB-wire server a password: on another host it would listen open."""
    e = remote_engine
    if "mongo-wire" not in e.images:
        pytest.skip("infra/bin/mongo-wire is not built (bash infra/build-mongo-wire.sh, or scripts/setup.sh)")
    r = e.ycsbctl("up", "ferretdb", "--docker-host", e.url, "--image", f"ferretdb={e.images['mongo-wire']}")
    assert r.returncode == 1
    (error,) = [line for line in r.stderr.splitlines() if line.startswith("error:")]
    assert f"would listen on {e.address} without a password" in error
    assert e.ours() == []

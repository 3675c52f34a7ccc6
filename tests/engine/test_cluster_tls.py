"""``--cluster tls://…``: a Dask scheduler and worker started with TLS (as Dask documents it:
``--tls-ca-file --tls-cert --tls-key``), ycsbctl reading its certificate from Dask's own
configuration (``DASK_DISTRIBUTED__COMM__TLS__*``). On loopback; the certificate is made here with
``openssl``. Truth: Redis's commandstats against the merged counts, and no plain-TCP warning."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from ycsbctl.processes import stop_process

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def tls_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is missing (apt-get install openssl)")
    try:
        import distributed  # noqa: F401
    except ImportError:
        pytest.skip("Dask distributed is missing (scripts/setup.sh --for-tests installs ycsbctl[cluster])")
    tmp = tmp_path_factory.mktemp("tls")
    key, cert = tmp / "key.pem", tmp / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=ycsbctl-test",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    tls = ["--tls-ca-file", str(cert), "--tls-cert", str(cert), "--tls-key", str(key)]
    address = f"tls://127.0.0.1:{_free_port()}"
    env = dict(os.environ, PYTHONPATH=str(ROOT),
               DASK_DISTRIBUTED__COMM__TLS__CA_FILE=str(cert), DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT=str(cert),
               DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY=str(key), DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION="True")
    procs = []
    try:
        with open(tmp / "scheduler.log", "wb") as log:
            procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host",
                                           "127.0.0.1",
                                           "--port", address.rsplit(":", 1)[1], "--no-dashboard", *tls],
                                          stdout=log, stderr=subprocess.STDOUT, env=env))
        with open(tmp / "worker.log", "wb") as log:
            procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--name", "c1",
                                           "--nthreads", "2", "--no-dashboard", *tls],
                                          stdout=log, stderr=subprocess.STDOUT, env=env))
        wait = ("import sys; from distributed import Client; c = Client(sys.argv[1], timeout='30s'); "
                "c.wait_for_workers(1, timeout=60); c.close()")
        subprocess.run([sys.executable, "-c", wait, address], env=env, check=True, timeout=120, capture_output=True)
        yield address, env
    finally:
        for p in reversed(procs):
            stop_process(p, 15)


def test_a_tls_scheduler_runs_the_point_without_the_plain_tcp_warning(tls_cluster, redis_server,
                                                                      tmp_path: Path) -> None:
    address, env = tls_cluster
    rds = redis.Redis.from_url(redis_server.url)
    rds.flushall()
    out = tmp_path / "run"
    code = "import sys; from ycsbctl.cli import main; sys.exit(main())"
    start = time.monotonic()
    r = subprocess.run([sys.executable, "-c", code, "run", "workload-b", "--target", redis_server.url, "--cluster",
                        address, "--threads", "2", "--records", "300", "--duration", "2", "--load", "--no-telemetry",
                        "--out", str(out), "--quiet"], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "plain TCP" not in r.stderr
    docs = [json.loads(p.read_text()) for p in (out / "runs").glob("*.json")]
    point = next(d for d in docs if d["phase"] == "run")
    assert point["status"] == "ok", point["error"]
    assert [s["name"] for s in point["result"]["cluster"]["shards"]] == ["c1"]
    assert rds.dbsize() == 300 + 1  # loaded through the TLS-connected worker: the records and _indices
    assert time.monotonic() - start < 300
    rds.flushall()

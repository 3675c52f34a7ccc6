"""Container stats from a real Docker engine (fixture ``docker_redis``: a redis container, host network)."""

from __future__ import annotations

import subprocess
from urllib.parse import urlsplit

import pytest

from tests.test_telemetry_servers import INTERVAL_S, benchmark, rows_after, stop, wait_until
from ycsbctl.telemetry import footprint_after, footprint_before, sampling
from ycsbctl.telemetry.container import ContainerSampler

pytestmark = pytest.mark.docker


@pytest.mark.parametrize("mode", ["oneshot", "stream"])
def test_container_stats_give_cpu_and_memory(docker_redis, mode):
    sampler = ContainerSampler(docker_redis.container_id, interval_s=INTERVAL_S, mode=mode)
    sampler.start()
    try:
        rows_after(sampler, 2)
    finally:
        frame = sampler.stop()
    assert sampler.warning is None
    assert frame["cpu_pct"].notna().all() and (frame["cpu_pct"] >= 0).all()
    assert (frame["rss_bytes"] > 100_000).all() and (frame["mem_usage_bytes"] > 100_000).all()


def test_busy_container_uses_cpu_and_capture_reads_its_stats(docker_redis):
    port = urlsplit(docker_redis.url).port
    bench: list[subprocess.Popen] = []
    with sampling(docker_redis, client_pids=lambda: [p.pid for p in bench], interval_s=INTERVAL_S) as cap:
        bench.append(benchmark(port))
        try:
            wait_until(lambda: sum(s.source == "server-container" and len(s.rows) >= 3 for s in cap.samplers) == 1)
        finally:
            stop(bench[0])
    assert cap.warnings == []
    container = cap.frame[cap.frame["source"] == "server-container"]
    assert container["cpu_pct"].max() > 10.0, list(container["cpu_pct"])
    s = cap.summary()
    assert s.server_cpu_source == "server-container" and s.server_rss_bytes_max > 100_000


def test_footprint_of_a_container_reads_its_rss(docker_redis):
    before = footprint_before(docker_redis)
    fp = footprint_after(docker_redis, before, 1)
    assert fp.rss_source == "container" and fp.rss_after_bytes > 100_000

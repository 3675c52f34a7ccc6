"""Container stats from a real Docker engine (fixture ``docker_redis``: a redis container, host network)."""

from __future__ import annotations

import contextlib
import subprocess
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import psutil
import pytest
import redis

from tests.fixtures.samplers import INTERVAL_S, benchmark, own_cpu, rows_after, stop
from tests.fixtures.waiting import wait_until
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


@pytest.mark.speed
def test_busy_container_uses_cpu_and_capture_reads_its_stats(docker_redis):
    """The container's CPU figure against redis-server's own counter (INFO cpu) over the same seconds:
    whatever share of a core this machine gives it. dockerd sends a stats document a second, so a
    sample covers the second before it."""
    port = urlsplit(docker_redis.url).port
    rds = redis.Redis.from_url(docker_redis.url)
    bench: list[subprocess.Popen] = []

    def container_rows(cap) -> int:
        return sum(len(s.rows) for s in cap.samplers if s.source == "server-container")

    try:
        with sampling(docker_redis, client_pids=lambda: [p.pid for p in bench], interval_s=INTERVAL_S) as cap:
            bench.append(benchmark(port))
            try:
                wait_until(lambda: rds.info("clients")["connected_clients"] > 1)
                t0, cpu0 = own_cpu(rds)
                seen = container_rows(cap)
                wait_until(lambda: container_rows(cap) >= seen + 4)
                t1, cpu1 = own_cpu(rds)
            finally:
                stop(bench[0])
    finally:
        rds.close()
    assert cap.warnings == []
    container = cap.frame[cap.frame["source"] == "server-container"]
    own_pct = 100 * (cpu1 - cpu0) / (t1 - t0)
    inside = container[(container["t_mono"] > t0 + 1.0) & (container["t_mono"] <= t1)]["cpu_pct"].dropna()
    assert len(inside) >= 2, container
    tick_pct = 100 * 0.01 / 1.0  # /proc counts CPU in 10 ms ticks; a sample covers a second
    assert 0.75 * own_pct - tick_pct <= inside.mean() <= 1.25 * own_pct + tick_pct, (list(inside), own_pct)
    s = cap.summary()
    assert s.server_cpu_source == "server-container" and s.server_rss_bytes_max > 100_000


def test_footprint_of_a_container_reads_its_rss(docker_redis):
    before = footprint_before(docker_redis)
    fp = footprint_after(docker_redis, before, 1)
    assert fp.rss_source == "container" and fp.rss_after_bytes > 100_000


@pytest.mark.speed
def test_a_containers_cpu_is_what_its_process_used_under_a_known_quota(docker_client, local_images):
    """Held to two truths: the CPU time the kernel charged the container's redis-server (its
    ``/proc`` counters, read by the test over the same window) and the container's CFS quota
    (0.3 of a core, set with ``docker update``: the kernel never lets it use more). Redis spins
    in a Lua loop meanwhile, so the container wants a whole core and gets its quota; the throttling the
    sampler reports is the container cgroup's ``cpu.stat`` that the test reads around the same rows."""
    from ycsbctl.provision import provision, teardown

    quota = 0.3  # of one core: less than a shared 2-core host leaves a spinning server, so it is held back
    endpoint = provision("redis", "docker", experiment_id="pytest-docker-quota", image=local_images["redis"],
                         host_network=True, say=lambda message: None)
    spinner = redis.Redis.from_url(endpoint.url, socket_timeout=None)
    killer = redis.Redis.from_url(endpoint.url, socket_timeout=10)
    killer.config_set("lua-time-limit", 100)  # ms: then others get BUSY (and SCRIPT KILL works) at once
    done = threading.Event()

    def spin() -> None:
        with contextlib.suppress(redis.ResponseError):  # "Script killed by user"
            spinner.eval("while true do end", 0)
        done.set()

    thread = threading.Thread(target=spin, daemon=True)
    try:
        container = docker_client.containers.get(endpoint.container_id)
        # weighed 10× a default process (as tests.fixtures.cgroups does): other work on a shared host does not
        # keep it under its quota
        container.update(cpu_period=100_000, cpu_quota=int(quota * 100_000), cpu_shares=10240)
        server = psutil.Process(container.attrs["State"]["Pid"])
        group = _cpu_group(server.pid)
        thread.start()
        wait_until(lambda: _busy(killer))
        # 1 s rows, ten CFS periods each: a row's share of its window can exceed the quota only by the
        # part of a period it cuts at each end
        sampler = ContainerSampler(endpoint.container_id, interval_s=1.0, mode="oneshot")
        cpu0, t0, stat0 = sum(server.cpu_times()[:2]), time.monotonic(), _stat(group)
        sampler.start()
        try:
            rows_after(sampler, 4)
        finally:
            frame = sampler.stop()
        used_pct = 100.0 * (sum(server.cpu_times()[:2]) - cpu0) / (time.monotonic() - t0)
        stat1 = _stat(group)
    finally:
        with contextlib.suppress(redis.RedisError):
            killer.script_kill()
        thread.join(timeout=10)
        spinner.close()
        killer.close()
        teardown(endpoint)
    assert done.is_set()
    assert sampler.warning is None
    assert used_pct <= 100.0 * quota * 1.1  # the kernel held it to its quota …
    pct = frame["cpu_pct"].dropna()
    assert len(pct) >= 3
    # … and every interval's figure is what the kernel charged, in % of one core
    assert pct.median() == pytest.approx(used_pct, rel=0.2), (list(pct), used_pct)
    assert pct.max() <= 100.0 * quota * 1.15, list(pct)
    # … and its throttling is the container cgroup's own cpu.stat, as the test read it around the same rows
    assert sampler.quota_cores == quota
    periods, held = stat1["nr_periods"] - stat0["nr_periods"], stat1["nr_throttled"] - stat0["nr_throttled"]
    truth_s = _throttled_s(stat1) - _throttled_s(stat0)
    # a spinning server under its quota is held back: in most periods on a quiet host, in fewer where other work
    # takes the core first (17 of 43 while other suites ran): at least once at any load, and the figures below are
    # held to the kernel's own count whatever it was
    assert 0 < held <= periods, (held, periods)
    rows = frame.dropna(subset=["quota_periods"])
    assert periods - 25 <= rows["quota_periods"].sum() <= periods and rows["throttled_periods"].sum() <= held
    share = 100 * rows["throttled_periods"].sum() / rows["quota_periods"].sum()
    assert share == pytest.approx(100 * held / periods, abs=10)
    assert 0 < rows["throttled_s"].sum() <= truth_s * 1.01 and rows["throttled_s"].sum() == pytest.approx(
        truth_s, rel=0.4
    )


def _cpu_group(pid: int) -> Path:
    """The cgroup directory of ``pid``'s cpu controller, as /proc names it (v1 ``cpu``, else the v2 group)."""
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        hier, controllers, path = line.split(":", 2)
        if "cpu" in controllers.split(","):
            return Path("/sys/fs/cgroup/cpu") / path.lstrip("/")
        if hier == "0" and not controllers:
            fallback = Path("/sys/fs/cgroup") / path.lstrip("/")
    return fallback


def _stat(group: Path) -> dict[str, int]:
    return {k: int(v) for k, v in (line.split() for line in (group / "cpu.stat").read_text().splitlines())}


def _throttled_s(stat: dict[str, int]) -> float:
    return stat["throttled_usec"] / 1e6 if "throttled_usec" in stat else stat["throttled_time"] / 1e9


def _busy(client: redis.Redis) -> bool:
    """Whether the server is inside a script (it answers BUSY to anything but SCRIPT KILL)."""
    try:
        client.ping()
    except redis.exceptions.BusyLoadingError:
        return False
    except redis.ResponseError as exc:
        return "BUSY" in str(exc)
    return False


def test_a_containers_memory_leaves_its_inactive_page_cache_out_as_docker_stats_does():
    """Hand-built stats documents of cgroup v2 and v1 (docker's own fields): usage less inactive_file (what
    ``docker stats`` shows: page cache the kernel can take back is not the server's), RSS the anonymous
    memory, never the page cache; a cache larger than the usage (a racy reading) leaves the usage."""
    from ycsbctl.telemetry.container import memory

    v2 = {"memory_stats": {"usage": 300_000_000, "limit": 2_000_000_000,
                           "stats": {"anon": 120_000_000, "file": 170_000_000, "inactive_file": 150_000_000,
                                     "active_file": 20_000_000}}}
    assert memory(v2) == {"mem_usage_bytes": 150_000_000, "rss_bytes": 120_000_000, "mem_limit_bytes": 2_000_000_000}
    v1 = {"memory_stats": {"usage": 300_000_000, "limit": 9,
                           "stats": {"total_inactive_file": 100_000_000, "rss": 90_000_000, "cache": 180_000_000}}}
    assert memory(v1) == {"mem_usage_bytes": 200_000_000, "rss_bytes": 90_000_000, "mem_limit_bytes": 9}
    racy = {"memory_stats": {"usage": 100, "stats": {"inactive_file": 100}}}
    assert memory(racy)["mem_usage_bytes"] == 100 and memory(racy)["rss_bytes"] == 100
    assert memory({"memory_stats": {"usage": 100, "stats": {"inactive_file": 99}}})["mem_usage_bytes"] == 1
    assert memory({}) == {"mem_usage_bytes": None, "rss_bytes": None, "mem_limit_bytes": None}


def _doc(total: int, system: int, cpus: int | None = 4, percpu: int = 0) -> dict:
    """A stats document's CPU part as Docker's API gives it (ns): the container's total, the host's system counter."""
    usage = {"total_usage": total, **({"percpu_usage": [1] * percpu} if percpu else {})}
    return {"cpu_stats": {"cpu_usage": usage, "system_cpu_usage": system, **({"online_cpus": cpus} if cpus else {})}}


def test_a_containers_cpu_is_dockers_formula_on_two_stats_documents_and_its_memory_leaves_the_page_cache_out():
    """At unit level, on documents shaped as the API's (no server): 0.5 s of CPU while the host's counter advanced
    4 s on 4 CPUs (1 s of wall time) is 50 % of one core; without online_cpus the per-CPU list's length, else 1;
    no time or a counter that went back: None. Memory: usage less inactive_file (cgroup v2) or total_inactive_file
    (v1), never below nothing; RSS the anonymous memory, else the shown usage."""
    from ycsbctl.telemetry.container import cpu_pct, memory

    assert cpu_pct(_doc(0, 0), _doc(500_000_000, 4_000_000_000)) == pytest.approx(50.0)
    assert cpu_pct(_doc(0, 0, None), _doc(500_000_000, 4_000_000_000, None, percpu=2)) == pytest.approx(25.0)
    assert cpu_pct(_doc(0, 0, None), _doc(500_000_000, 4_000_000_000, None)) == pytest.approx(12.5)
    assert cpu_pct(_doc(0, 0), _doc(0, 4_000_000_000)) == 0.0  # idle: 0 %, not None
    assert cpu_pct(_doc(0, 5), _doc(10, 5)) is None and cpu_pct(_doc(10, 0), _doc(5, 4_000)) is None
    assert cpu_pct(_doc(0, 0), {}) is None
    assert cpu_pct(_doc(0, 0), _doc(1, 1)) == 400.0 and cpu_pct(_doc(1, 0), _doc(0, 1)) is None  # 1 ns either way
    v2 = {"memory_stats": {"usage": 1000, "limit": 4000, "stats": {"inactive_file": 300, "anon": 600}}}
    assert memory(v2) == {"mem_usage_bytes": 700, "rss_bytes": 600, "mem_limit_bytes": 4000}
    v1 = {"memory_stats": {"usage": 1000, "stats": {"total_inactive_file": 200, "rss": 500}}}
    assert memory(v1) == {"mem_usage_bytes": 800, "rss_bytes": 500, "mem_limit_bytes": None}
    none = {"memory_stats": {"usage": 1000, "stats": {}}}
    assert memory(none) == {"mem_usage_bytes": 1000, "rss_bytes": 1000, "mem_limit_bytes": None}
    assert memory({"memory_stats": {"usage": 100, "stats": {"inactive_file": 300}}})["mem_usage_bytes"] == 100

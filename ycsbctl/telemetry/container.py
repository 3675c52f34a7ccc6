"""CPU % and memory of a Docker container from the Docker stats API, computed as ``docker stats`` does."""

from __future__ import annotations

from typing import Any

from ycsbctl.stores.sampler import Sampler
from ycsbctl.telemetry.cpu_limit import CpuStat, throttling


def cpu_pct(prev: dict[str, Any], cur: dict[str, Any]) -> float | None:
    """CPU % of one core between two stats documents (docker's formula).

    ``(Δ container cpu_usage.total_usage / Δ system_cpu_usage) × online_cpus × 100``: the system
    counter advances by ``online_cpus`` ns per ns of wall time, so the result is in % of one core.
    """
    try:
        c0, c1 = prev["cpu_stats"], cur["cpu_stats"]
        d_cont = c1["cpu_usage"]["total_usage"] - c0["cpu_usage"]["total_usage"]
        d_sys = c1["system_cpu_usage"] - c0["system_cpu_usage"]
        cpus = c1.get("online_cpus") or len(c1["cpu_usage"].get("percpu_usage") or []) or 1
    except (KeyError, TypeError):
        return None
    if d_sys <= 0 or d_cont < 0:
        return None
    return 100.0 * d_cont / d_sys * cpus


def throttled(prev: dict[str, Any], cur: dict[str, Any]) -> dict[str, float | int]:
    """What the container's CPU quota did between two stats documents, from ``cpu_stats.throttling_data``
    (dockerd copies it from the container cgroup's ``cpu.stat``; ``throttled_time`` in ns): ``quota_periods``
    elapsed, ``throttled_periods`` in which the kernel held it back, their share ``throttled_pct`` (%) and
    ``throttled_s`` (seconds held back); {} for a container without a quota (no period elapsed, ever)."""
    try:
        t0, t1 = prev["cpu_stats"]["throttling_data"], cur["cpu_stats"]["throttling_data"]
        before = CpuStat(int(t0["periods"]), int(t0["throttled_periods"]), int(t0["throttled_time"]) / 1e9)
        after = CpuStat(int(t1["periods"]), int(t1["throttled_periods"]), int(t1["throttled_time"]) / 1e9)
    except (KeyError, TypeError, ValueError):
        return {}
    if not after.periods:
        return {}
    held = throttling(before, after)
    return {"throttled_pct": held.pct, "quota_periods": held.periods, "throttled_periods": held.throttled,
            "throttled_s": held.throttled_s}


def quota_cores(host_config: dict[str, Any]) -> float | None:
    """A container's CPU quota in cores from its ``HostConfig`` (``--cpus``: ``NanoCpus``; ``--cpu-quota`` /
    ``--cpu-period``: ``CpuQuota`` µs per ``CpuPeriod`` µs, 100 ms by default); None without one."""
    nano = host_config.get("NanoCpus") or 0
    if nano > 0:
        return nano / 1e9
    quota, period = host_config.get("CpuQuota") or 0, host_config.get("CpuPeriod") or 100_000
    return quota / period if quota > 0 else None


def memory(stats: dict[str, Any]) -> dict[str, int | None]:
    """``mem_usage_bytes`` (usage minus inactive file cache, what ``docker stats`` shows) and
    ``rss_bytes`` (anonymous memory: cgroup v2 ``anon``, v1 ``rss``)."""
    m = stats.get("memory_stats") or {}
    st = m.get("stats") or {}
    usage = m.get("usage")
    inactive = st.get("inactive_file", st.get("total_inactive_file", 0)) or 0
    shown = usage - inactive if usage is not None and inactive < usage else usage
    rss = st.get("anon", st.get("rss", st.get("total_rss")))
    return {"mem_usage_bytes": shown, "rss_bytes": rss if rss is not None else shown,
            "mem_limit_bytes": m.get("limit")}


def open_client(docker_host: str | None) -> Any:
    """A docker SDK client of the engine the container runs on (None: ``$DOCKER_HOST``)."""
    from ycsbctl.provision.docker import open_client as engine_client

    return engine_client(docker_host, timeout_s=10)


def one_shot(container_id: str, client: Any = None, docker_host: str | None = None) -> dict[str, Any]:
    """One stats document, without docker's two-cycle wait (API ≥ 1.41)."""
    own = client is None
    client = client or open_client(docker_host)
    try:
        return client.api.stats(container_id, stream=False, one_shot=True)
    finally:
        if own:
            client.close()


class ContainerSampler(Sampler):
    """``cpu_pct`` (of one core), ``rss_bytes``, ``mem_usage_bytes`` of one container (and, under a CPU
    quota, how it held the container back: :func:`throttled`), on the engine
    at ``docker_host`` (None: ``$DOCKER_HOST``; a remote engine's own host's cores and memory).

    ``mode="stream"`` (default) keeps one stats stream open for the run and reads the next
    document: dockerd sends one per second, so the stream sets the pace. ``mode="oneshot"`` asks
    for one document per interval (``stream=False, one_shot=True``; dockerd 20.10 still answers
    only once per second after the first call). Both compute CPU % from the difference with the
    previous document. Measured (dockerd 20.10, redis container, 2 × 30 s per mode, idle dockerd
    subtracted): stream 0.08 % of a core in this thread + ~0.6 % in dockerd/containerd; oneshot
    0.25 % + ~0.7 %.
    """

    source = "server-container"

    def __init__(self, container_id: str, interval_s: float = 1.0, mode: str = "stream",
                 docker_host: str | None = None) -> None:
        super().__init__(interval_s)
        if mode not in ("oneshot", "stream"):
            raise ValueError(f"mode must be 'oneshot' or 'stream', not {mode!r}")
        self.container_id = container_id
        self.docker_host = docker_host
        self.mode = mode
        self._client: Any = None
        self._stream: Any = None
        self._prev: dict[str, Any] | None = None
        self.quota_cores: float | None = None  # its CPU quota (cores), read when sampling starts

    def _next(self) -> dict[str, Any]:
        if self.mode == "stream":
            return next(self._stream)
        return self._client.api.stats(self.container_id, stream=False, one_shot=True)

    def prime(self) -> None:
        self._client = open_client(self.docker_host)
        self.quota_cores = quota_cores(self._client.api.inspect_container(self.container_id).get("HostConfig") or {})
        if self.mode == "stream":
            self._stream = self._client.containers.get(self.container_id).stats(stream=True, decode=True)
        self._prev = self._next()

    def sample(self) -> dict[str, Any]:
        cur = self._next()
        pct = cpu_pct(self._prev, cur) if self._prev else None
        held = throttled(self._prev, cur) if self._prev else {}
        self._prev = cur
        return {"cpu_pct": pct, **memory(cur), **held}

    def close(self) -> None:
        if self._stream is not None:
            self._stream.close()
        if self._client is not None:
            self._client.close()

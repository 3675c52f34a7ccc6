"""One real server-cpu point and one real client-cpu point, labelled by `ycsbctl run` itself.

The saturated side is confined by the kernel to a CPU quota (a cgroup, as ``docker run --cpus``
does), the other side has the rest of the host: whatever else runs on a shared 2-core machine,
the confined side can use no more than its quota, and a closed loop with many threads keeps it
asking for more. The truths the labels are checked against come from the kernel: the quota itself
(the CPU figure must be close to it and never above) and the group's ``nr_throttled`` counter (the
kernel held the side back: it was saturated). Both sides run ahead of the host's other work (nice
-10, a heavy group weight) so that other load on a shared host does not starve them.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import threading
import time
from pathlib import Path

import pandas as pd
import pytest
import redis

from tests.fixtures.cgroups import PERIOD_US, CpuGroup, cpu_quota
from tests.fixtures.cli import YCSBCTL
from tests.fixtures.servers import ROOT, start_redis
from tests.fixtures.waiting import wait_until
from ycsbctl.telemetry.cpu_limit import (
    CpuStat,
    Throttling,
    _quota_in,
    cpu_quota_cores,
    cpu_stat,
    parse_cpu_stat,
    quota_group,
    throttle_counts,
    throttling,
    usable_cores,
)

# speed on the three tests that measure a point (CPU shares, throttled periods over its seconds); the quota and
# counter readings assert no measured rate, time or CPU figure and run in the shared phase
pytestmark = [pytest.mark.truth]

# Small enough to be had in full on a busy 2-core host. A saturated server needs a client that
# out-paces it: the client spends ~2× the server's CPU per operation, so the server's share is smaller.
SERVER_QUOTA_CORES = 0.1
CLIENT_QUOTA_CORES = 0.3
POINT = ["--records", "1000", "--load", "--threads", "128", "--duration", "4", "--warmup", "1", "--quiet"]


def _first(pid: int = 0) -> None:
    """Run ``pid`` (0: this process) ahead of the host's other work (nice -10), so that a busy shared
    host does not starve the unconfined side; the quota still holds the confined one."""
    os.setpriority(os.PRIO_PROCESS, pid, -10)


def _run_point(url: str, out: Path, processes: int, group: CpuGroup | None = None) -> dict:
    """`ycsbctl run workload-b` against ``url`` (in ``group`` when given): the run point's record."""

    def setup() -> None:
        _first()
        if group:
            group.preexec()

    p = subprocess.run([YCSBCTL, "run", "workload-b", "--target", url, *POINT, "--processes", str(processes),
                        "--out", str(out)], cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=300,
                       preexec_fn=setup)
    assert p.returncode == 0, p.stderr[-3000:]
    docs = [json.loads(f.read_text()) for f in (out / "runs").glob("*.json")]
    (run,) = [d for d in docs if d["phase"] == "run"]
    return run


def _throttled(before: dict[str, int], after: dict[str, int]) -> int:
    """Quota periods in which the kernel held the group back, between two ``cpu.stat`` readings."""
    return after["nr_throttled"] - before["nr_throttled"]


# For "held back in ≥ 50 % of the periods" of the measured seconds to be true, the kernel must have
# throttled the group in at least half of them (its count covers the load and start-up too).
TICK_PCT = 100 * 0.01 / 1.0  # one 10 ms clock tick in a 1 s sample, in % of a core
MEASURED_PERIODS = int(float(POINT[POINT.index("--duration") + 1]) * 1e6 / PERIOD_US)


class StatPoller:
    """The group's own ``cpu.stat``, read every 50 ms on a thread with ``time.monotonic()`` (the clock the
    engine's window is on): the truth of what its quota did over any span of the point."""

    def __init__(self, group: CpuGroup) -> None:
        self.group, self.readings = group, [(time.monotonic(), group.stat())]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)
        self._thread.start()

    def _poll(self) -> None:
        while not self._stop.wait(0.05):
            self.readings.append((time.monotonic(), self.group.stat()))

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
        self.readings.append((time.monotonic(), self.group.stat()))

    def between(self, t0: float, t1: float) -> tuple[float, float]:
        """(% of the quota periods throttled, seconds throttled) from the last reading at or before ``t0`` to
        the first at or after ``t1`` (v2 ``throttled_usec``, v1 ``throttled_time`` in ns)."""
        first = max((r for r in self.readings if r[0] <= t0), key=lambda r: r[0])[1]
        last = min((r for r in self.readings if r[0] >= t1), key=lambda r: r[0])[1]

        def seconds(stat: dict[str, int]) -> float:
            return stat["throttled_usec"] / 1e6 if "throttled_usec" in stat else stat["throttled_time"] / 1e9

        periods = last["nr_periods"] - first["nr_periods"]
        return 100 * (last["nr_throttled"] - first["nr_throttled"]) / periods, seconds(last) - seconds(first)


def _confined_point(tmp_path: Path, cores: float, confine_server: bool) -> tuple[dict, int, StatPoller]:
    """One point against a fresh redis-server with the server (or else the client) in a cgroup of
    ``cores``: the run point's record, the quota periods in which the kernel throttled the group, and
    the group's own counters read all along."""
    server = start_redis(tmp_path / "redis")
    _first(server.proc.pid)
    try:
        with cpu_quota(cores) as group:
            if confine_server:
                group.add(server.proc.pid)
            before = group.stat()
            poller = StatPoller(group)
            try:
                record = _run_point(server.url, tmp_path / "out", 1, None if confine_server else group)
            finally:
                poller.stop()
            return record, _throttled(before, group.stat()), poller
    finally:
        server.stop()


@pytest.fixture(scope="module")
def server_confined(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, int, StatPoller, Path]:
    """One point with the server in a quota of :data:`SERVER_QUOTA_CORES`, run once for the module's two tests
    that read it (its label, its throttling figures): what :func:`_confined_point` returns, and its folder."""
    folder = tmp_path_factory.mktemp("server-confined")
    return (*_confined_point(folder, SERVER_QUOTA_CORES, confine_server=True), folder / "out")


@pytest.mark.speed
def test_a_server_confined_to_a_cpu_quota_is_labelled_server_cpu(server_confined):
    record, kernel_throttled, _, _ = server_confined
    b = record["bottleneck"]
    ev = b["evidence"]
    assert kernel_throttled >= MEASURED_PERIODS / 2, f"the kernel held the server back in {kernel_throttled} periods"
    assert b["label"] == "server-cpu", b
    assert ev["server_cores"] == pytest.approx(SERVER_QUOTA_CORES) == ev["server_usable_cores"]
    assert ev["server_throttled_pct"] >= 50, ev  # what ycsbctl read from the same counters, over its window
    # The kernel lets the group use at most its quota; a server held back in most periods uses most of it
    # (a quota is handed out in 5 ms slices per core, so less than all of it on a busy host).
    # /proc counts CPU in 10 ms ticks: a 1 s sample may read one tick (1 % of a core) over what was used.
    assert 0.6 * 100 * SERVER_QUOTA_CORES <= ev["server_cpu_pct"] <= 1.05 * 100 * SERVER_QUOTA_CORES + TICK_PCT, ev
    assert b["text"].startswith("server CPU: ") and (
        f"% of the {100 * SERVER_QUOTA_CORES:.0f}% it can use; its CPU quota held it back in " in b["text"]), b["text"]
    assert ev["client_share"] < 0.9 and ev["client_throttled_pct"] is None, ev
    # the why names the thread that ran: Redis's main thread, the server's CPU as its threads' schedstat counts it
    main = ev["server_threads"]["main"]
    assert b["why"].startswith("server-cpu: ") and "'s main thread ran " in b["why"], b["why"]
    assert main["oncpu_pct"] == pytest.approx(ev["server"]["oncpu_pct"], rel=0.2)  # the main thread did the work
    assert ev["server"]["oncpu_pct"] == pytest.approx(ev["server_cpu_pct"], rel=0.35, abs=2 * TICK_PCT), ev


@pytest.mark.speed
def test_a_server_held_by_its_cpu_quota_is_named_throttled_with_its_cgroups_own_counters(server_confined):
    """``server_throttled_pct`` and ``server_throttled_s`` of the runs table are the group's ``cpu.stat`` over the
    point's measured seconds, as the test read it itself all along (ycsbctl sums whole 1 s samples, so its span is
    the window's to half a sample at each end); the why line names the quota with those figures."""
    record, _, kernel, out = server_confined
    result = record["result"]
    start = result["t_start_mono"] + result["warmup_s"]
    measured_s = result["runtime_ms"] / 1000
    truth_pct, truth_s = kernel.between(start, start + measured_s)
    assert truth_pct >= 50 and truth_s > 0, (truth_pct, truth_s)  # the kernel held the server back in most periods
    runs = pd.read_parquet(out / "runs.parquet")
    row = runs[runs["phase"] == "run"].iloc[0]
    assert row["server_throttled_pct"] == pytest.approx(truth_pct, abs=15)
    assert row["server_throttled_s"] == pytest.approx(truth_s, rel=0.3)
    assert record["telemetry_summary"]["server_throttled_s"] == row["server_throttled_s"]
    # the why line says the evidence's figures, which are the runs table's to the evidence's 3 decimals and the
    # engine's measured seconds (the telemetry window is aligned to them)
    ev = record["bottleneck"]["evidence"]
    assert ev["server_throttled_s"] == pytest.approx(row["server_throttled_s"], abs=5e-4)
    assert ev["measured_s"] == pytest.approx(measured_s, abs=5e-4)
    held = (f"server-cpu: held by its CPU quota ({SERVER_QUOTA_CORES:g} cores): throttled in "
            f"{row['server_throttled_pct']:.0f} % of periods, {ev['server_throttled_s']:.1f} s of the "
            f"{ev['measured_s']:.1f} s measured; ")
    assert row["why"].startswith(held) and "'s main thread ran " in row["why"], row["why"]


def _client_confined_point(tmp_path: Path) -> tuple[dict, int]:
    """One point against a fresh redis-server with ycsbctl and its workers in a cgroup whose quota is
    :data:`CLIENT_QUOTA_CORES` from the end of the load on (the run point's record, the quota periods in which the
    kernel throttled the group). The group holds the client from its start, but with the host's cores as its quota
    until the records are in: its start-up and load (~3 s of a core) at 0.3 core took ~10 s before, and nothing of
    them is measured. The switch is checked to come before the run point's measured window."""
    server = start_redis(tmp_path / "redis")
    _first(server.proc.pid)
    rds = redis.Redis(port=server.port)
    switched: list[float] = []
    done = threading.Event()
    try:
        with cpu_quota(os.cpu_count() or 1) as group:
            before = group.stat()

            def confine_after_the_load() -> None:
                records = int(POINT[POINT.index("--records") + 1])
                while not done.wait(0.02):
                    if rds.dbsize() >= records + 1:  # the records and YCSB's _indices: the load has ended
                        group.set_cores(CLIENT_QUOTA_CORES)
                        switched.append(time.monotonic())
                        return

            t = threading.Thread(target=confine_after_the_load, daemon=True)
            t.start()
            try:
                record = _run_point(server.url, tmp_path / "out", 1, group)
            finally:
                done.set()
                t.join()
            result = record["result"]
            assert switched and switched[0] <= result["t_start_mono"] + result["warmup_s"], (switched, result)
            return record, _throttled(before, group.stat())
    finally:
        rds.close()
        server.stop()


@pytest.mark.speed
def test_a_client_confined_to_a_cpu_quota_is_labelled_client_cpu(tmp_path):
    record, kernel_throttled = _client_confined_point(tmp_path)
    b = record["bottleneck"]
    ev = b["evidence"]
    assert kernel_throttled >= MEASURED_PERIODS / 2, f"the kernel held the client back in {kernel_throttled} periods"
    assert b["label"] == "client-cpu", b
    assert ev["client_cores"] == pytest.approx(CLIENT_QUOTA_CORES) == ev["client_cpu_quota_cores"]
    assert ev["client_throttled_pct"] >= 50, ev
    # The worker shares the quota with ycsbctl's own process (sampling, progress): most of it.
    assert 0.6 * 100 * CLIENT_QUOTA_CORES <= ev["client_cpu_pct"] <= 1.05 * 100 * CLIENT_QUOTA_CORES + TICK_PCT, ev
    assert b["text"].startswith("client CPU: workers use ") and f"% of {100 * CLIENT_QUOTA_CORES:.0f}%" in b["text"]
    assert ev["server_share"] < 0.9 and ev["server_throttled_pct"] is None, ev
    assert b["why"].startswith("client-cpu: the load generator's workers ran "), b["why"]


@pytest.mark.parametrize(("outer", "inner"), [(1.5, 0.25), (0.25, None)])
def test_the_cpu_limit_of_a_chain_of_cgroups_is_its_tightest_quota_wherever_it_sits(outer: float,
                                                                                     inner: float | None):
    """A process in a cgroup nested in another: the cores it may use are the smaller quota of the chain (the kernel
    holds it to each), read from the group that sets it — the inner one under a looser outer one, the outer one above
    an inner one with none (cgroup v1 refuses an inner quota looser than its parent's). The quotas as the kernel
    holds them (cpu.max / cpu.cfs_quota_us, read back) are the truth, not the values asked for."""
    from contextlib import suppress

    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        with cpu_quota(outer) as group:
            child = group.path / "inner"
            if group.v2:  # the inner group's quota needs the cpu controller on for the outer group's children
                (group.path / "cgroup.subtree_control").write_text("+cpu")
            child.mkdir()
            try:
                nested = CpuGroup(child, group.v2, outer)
                if inner is not None:
                    nested.set_cores(inner)
                nested.add(sleeper.pid)

                def held(g: CpuGroup) -> float:  # the quota the kernel holds, in cores (inf: none)
                    if g.v2:
                        quota, period = (g.path / "cpu.max").read_text().split()
                        return math.inf if quota == "max" else int(quota) / int(period)
                    quota_us = int((g.path / "cpu.cfs_quota_us").read_text())
                    return math.inf if quota_us < 0 else quota_us / int((g.path / "cpu.cfs_period_us").read_text())

                truth = {group.path: held(group), child: held(nested)}
                tightest = min(truth.values())
                assert sorted(truth.values()) == sorted([outer, math.inf if inner is None else inner])
                assert cpu_quota_cores(sleeper.pid) == tightest == usable_cores(sleeper.pid)
                assert quota_group(sleeper.pid) == next(p for p, q in truth.items() if q == tightest)
            finally:
                sleeper.kill()
                sleeper.wait()
                wait_until(lambda: not nested.pids(), 10, "the inner group emptied")
                with suppress(OSError):
                    child.rmdir()
    finally:
        if sleeper.poll() is None:
            sleeper.kill()
            sleeper.wait()


def test_the_cpu_limit_of_a_process_is_its_cgroups_quota_read_as_the_kernel_wrote_it(tmp_path):
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        with cpu_quota(0.25) as group:
            group.add(sleeper.pid)
            assert cpu_quota_cores(sleeper.pid) == 0.25 and usable_cores(sleeper.pid) == 0.25
            assert quota_group(sleeper.pid) == group.path
            assert throttle_counts(group.path) == (group.stat()["nr_periods"], group.stat()["nr_throttled"])
            assert cpu_quota_cores(os.getpid()) is None and quota_group(os.getpid()) is None
            assert usable_cores(os.getpid()) == len(os.sched_getaffinity(0))
    finally:
        sleeper.kill()
        sleeper.wait()


def test_cgroup_v2_cpu_max_is_read_in_cores(tmp_path):
    """cgroup v2's format (this host may mount only v1's cpu controller): "QUOTA PERIOD" or "max PERIOD"."""
    (tmp_path / "cpu.max").write_text("150000 100000\n")
    assert _quota_in(tmp_path, v2=True) == 1.5
    (tmp_path / "cpu.max").write_text("max 100000\n")
    assert _quota_in(tmp_path, v2=True) is None


def test_cpu_stat_is_read_in_either_layout_and_throttling_is_the_change_between_two_readings():
    """cgroup v2's ``cpu.stat`` (``throttled_usec``, µs) and v1's cpu controller's (``throttled_time``, ns), as the
    kernel writes them: the same counters; between two readings 83 of 100 periods held back is 83 %, and
    1.9 s of throttled time is their difference in seconds; counters that went back (a group made anew) count from
    zero; no period elapsed is 0 %, not a division by zero."""
    v2 = parse_cpu_stat("usage_usec 4000000\nuser_usec 3000000\nsystem_usec 1000000\nnr_periods 40\n"
                        "nr_throttled 30\nthrottled_usec 600000\nnr_bursts 0\nburst_usec 0\n")
    v1 = parse_cpu_stat("nr_periods 140\nnr_throttled 113\nthrottled_time 2500000000\nnr_bursts 0\nburst_time 0\n")
    assert v2 == CpuStat(40, 30, 0.6) and v1 == CpuStat(140, 113, 2.5)
    held = throttling(v2, v1)
    assert (held.periods, held.throttled, held.pct) == (100, 83, 83.0)
    assert held.throttled_s == pytest.approx(1.9)
    assert throttling(v1, v2) == Throttling(40, 30, 0.6)  # a group made anew: from zero
    assert throttling(v1, v1).pct == 0.0 and throttling(v1, v1).throttled_s == 0.0
    assert parse_cpu_stat("usage_usec 5\nuser_usec 3\n") is None  # no cpu controller: no quota counters
    assert parse_cpu_stat("nr_periods 1\nnr_throttled x\nthrottled_time 3\n") is None


def test_a_group_made_anew_with_more_periods_but_fewer_throttled_counts_from_zero():
    """Two readings of a group's counters across its making anew, from the kernel: the old group held to a tenth of
    a core (most periods throttled), the new one unheld until it has run more periods than the old one did. Only its
    throttled count went back — so it is a new group, and its throttling is its own counters from zero (was: noticed
    only when the periods went back; the throttled count then fell below zero)."""
    import sys

    spin = [sys.executable, "-c", "import time\nend = time.time() + 30\nwhile time.time() < end:\n    pass\n"]

    def counters(group: CpuGroup) -> CpuStat:
        stat = cpu_stat(group.path)
        assert stat is not None
        return stat

    with cpu_quota(0.1, period_us=10_000) as old_group:
        p = subprocess.Popen(spin, preexec_fn=old_group.preexec)  # noqa: PLW1509 - a test's child, one thread
        try:
            wait_until(lambda: counters(old_group).throttled >= 50, 30, "the old group throttled in 50 periods")
        finally:
            p.kill()
            p.wait()
        old = counters(old_group)
    with cpu_quota(4.0, period_us=10_000) as new_group:
        p = subprocess.Popen(spin, preexec_fn=new_group.preexec)  # noqa: PLW1509
        try:
            wait_until(lambda: counters(new_group).periods > old.periods, 60, "the new group past the old's periods")
        finally:
            p.kill()
            p.wait()
        new = counters(new_group)
    assert new.periods > old.periods and new.throttled < old.throttled, (old, new)
    assert throttling(old, new) == Throttling(new.periods, new.throttled, new.throttled_s)
    assert 0.0 <= throttling(old, new).pct <= 100.0


def test_a_containers_throttling_is_its_stats_throttling_data_and_its_quota_its_host_config():
    """Docker's stats documents carry the cgroup's counters as ``throttling_data`` (``throttled_time`` in ns on
    both cgroup versions); ``--cpus 0.5`` is ``NanoCpus`` 5e8, ``--cpu-quota 30000`` over the default 100 ms
    period 0.3 cores; a container without a quota has no period, and no figures."""
    from ycsbctl.telemetry.container import quota_cores, throttled

    def doc(periods: int, held: int, ns: int) -> dict:
        return {"cpu_stats": {"throttling_data": {"periods": periods, "throttled_periods": held, "throttled_time": ns}}}

    row = throttled(doc(10, 2, 100_000_000), doc(30, 17, 1_600_000_000))
    assert row == {"throttled_pct": 75.0, "quota_periods": 20, "throttled_periods": 15, "throttled_s": 1.5}
    assert throttled(doc(0, 0, 0), doc(0, 0, 0)) == {} and throttled({}, doc(3, 1, 1)) == {}
    assert quota_cores({"NanoCpus": 500_000_000}) == 0.5
    assert quota_cores({"NanoCpus": 0, "CpuQuota": 30_000, "CpuPeriod": 0}) == 0.3
    assert quota_cores({"NanoCpus": 0, "CpuQuota": 5_000, "CpuPeriod": 10_000}) == 0.5
    assert quota_cores({"NanoCpus": 0, "CpuQuota": 0}) is None and quota_cores({}) is None

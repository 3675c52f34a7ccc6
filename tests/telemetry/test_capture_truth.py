"""The run table's telemetry figures (``Capture.summary``, ``Capture.server_events``, ``measured_frame``) from
a hand-built frame of samples whose values differ at every sample (mean ≠ max ≠ min, first ≠ last), held to
pandas computing the same figures from the same rows another way, window by window."""

from __future__ import annotations

import os

import pandas as pd
import pytest

from ycsbctl.provision.base import Endpoint
from ycsbctl.telemetry.capture import Capture, samplers_for, shard_balance
from ycsbctl.telemetry.network import NetworkBaseline

EP = Endpoint(target="redis", protocol="redis", url="redis://127.0.0.1:6379/0", backend="local")

# one sample a second at t = 1..6 s of each source; the measured window is (1.6, 4.6): samples whose interval's
# middle (t - 0.5) lies in it are t = 3, 4, 5 (t = 2's middle, 1.5, is before it; t = 6's, 5.5, after)
T = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
INSIDE = [3.0, 4.0, 5.0]
SERVER_CPU = [90.0, 80.0, 10.0, 70.0, 40.0, 95.0]
SERVER_RSS = [9e9, 1e6, 3e6, 8e6, 2e6, 9e9]
CLIENT_CPU = [1.0, 2.0, 30.0, 10.0, 20.0, 99.0]
CLIENT_RSS = [1.0, 2.0, 7e5, 9e5, 8e5, 9e9]
CLIENT_PROCS = [9, 9, 2, 4, 3, 9]
DB_OPS = [1.0, 2.0, 1000.0, 4000.0, 1000.0, 9e9]
DB_MEMORY = [1.0, 2.0, 5e6, 6e6, 4e6, 9e9]
CONNECTIONS = [99, 99, 16, 18, 17, 99]
FORKS = [5, 5, 0, 2, 1, 5]  # forks in the interval before each sample
PAUSES = [1, 1, 0, 700, 300, 1]  # latest_fork_usec
SAVING = [1, 1, 0, 1, 1, 1]  # rdb_bgsave_in_progress
DELAYED = [7, 7, 1, 2, 3, 7]  # AOF fsyncs delayed in the interval
LAG = [99e9, 99e9, 100.0, 900.0, 400.0, 99e9]
LAG_MS = [99e9, 99e9, 3.0, 9.0, 5.0, 99e9]  # a PostgreSQL standby's replay lag
NET_IN = [1.0, 1.0, 1e6, 3e6, 2e6, 9e9]
NET_OUT = [1.0, 1.0, 4e6, 1e6, 1e6, 9e9]


def _frame() -> pd.DataFrame:
    rows = []
    for i, t in enumerate(T):
        rows += [
            {"t_mono": t, "t_wall": t, "source": "server-process", "cpu_pct": SERVER_CPU[i],
             "rss_bytes": SERVER_RSS[i]},
            {"t_mono": t, "t_wall": t, "source": "client", "cpu_pct": CLIENT_CPU[i], "rss_bytes": CLIENT_RSS[i],
             "processes": CLIENT_PROCS[i]},
            {"t_mono": t, "t_wall": t, "source": "redis-info", "ops_per_s": DB_OPS[i],
             "db_used_memory_bytes": DB_MEMORY[i],
             "connections": CONNECTIONS[i], "forks": FORKS[i], "fork_pause_us": PAUSES[i],
             "rdb_bgsave_in_progress": SAVING[i], "aof_delayed_fsyncs": DELAYED[i], "repl_lag_bytes": LAG[i],
             "net_in_bytes_per_s": NET_IN[i], "net_out_bytes_per_s": NET_OUT[i]},
            {"t_mono": t, "t_wall": t, "source": "postgresql", "repl_lag_ms": LAG_MS[i]},
        ]
    return pd.DataFrame(rows)


def _capture(window: tuple[float, float] | None = (1.6, 4.6)) -> Capture:
    return Capture(EP, NetworkBaseline(0.1, "test"), host_cores=2, frame=_frame(), window=window)


def _inside(values: list) -> pd.Series:
    return pd.Series([v for t, v in zip(T, values) if t in INSIDE], dtype=float)


def test_the_measured_frame_is_the_samples_whose_interval_lies_mostly_in_the_window() -> None:
    cap = _capture()
    assert sorted(set(cap.measured_frame()["t_mono"])) == INSIDE
    assert sorted(set(_capture(None).measured_frame()["t_mono"])) == T  # no window: every sample
    # a window no sample's middle falls in (a run shorter than one interval): every sample, not none
    assert len(_capture((3.55, 3.6)).measured_frame()) == len(_frame())


def test_the_summary_is_mean_and_max_of_the_window_s_samples_as_pandas_computes_them() -> None:
    s = _capture().summary()
    assert s.server_cpu_pct_mean == pytest.approx(_inside(SERVER_CPU).mean())  # 40, where max 70 and min 10
    assert s.server_cpu_pct_max == _inside(SERVER_CPU).max() and s.server_cpu_source == "server-process"
    assert s.server_rss_bytes_max == _inside(SERVER_RSS).max()
    assert s.client_cpu_pct_mean == pytest.approx(_inside(CLIENT_CPU).mean())
    assert s.client_cpu_pct_max == _inside(CLIENT_CPU).max()
    assert s.client_rss_bytes_max == _inside(CLIENT_RSS).max() and s.client_processes == _inside(CLIENT_PROCS).max()
    assert s.db_ops_per_s_mean == pytest.approx(_inside(DB_OPS).mean())
    assert s.db_used_memory_bytes_max == _inside(DB_MEMORY).max() and s.connections_max == _inside(CONNECTIONS).max()
    # forks and delayed fsyncs are counts per interval: summed over the window; the pause is the longest one
    assert s.server_forks == _inside(FORKS).sum() and s.aof_delayed_fsyncs == _inside(DELAYED).sum()
    assert s.server_fork_pause_us_max == _inside(PAUSES).max()
    assert s.repl_lag_bytes_max == _inside(LAG).max() and s.repl_lag_ms_max == _inside(LAG_MS).max()
    assert s.net_in_bytes_per_s_mean == pytest.approx(_inside(NET_IN).mean())
    assert s.net_out_bytes_per_s_mean == pytest.approx(_inside(NET_OUT).mean())
    busier_gbit = pd.concat([_inside(NET_IN), _inside(NET_OUT)], axis=1).max(axis=1) * 8 / 1e9
    assert s.net_gbit_s_mean == pytest.approx(busier_gbit.mean()) and s.net_gbit_s_max == pytest.approx(
        busier_gbit.max()
    )
    assert s.net_share_of_baseline == pytest.approx(busier_gbit.mean() / 0.1)
    assert s.samples == 4 * len(INSIDE)


def test_a_target_of_an_alternated_session_has_its_servers_rates_over_its_own_slices_and_the_clients_whole() -> None:
    """duty: the target's share of the window (its slices; its server idle in the others'): the server's CPU, the
    database's operations and its own connections' network rates are the window's means (pandas) over that share;
    the client's CPU (it served every target), memory and counts stay the window's; the server CPU an operation cost
    is the CPU over the target's own slices by its own throughput."""
    whole, cap = _capture().summary(), _capture()
    cap.duty, cap.throughput_ops = 0.25, 2000.0
    s = cap.summary()
    assert s.server_cpu_pct_mean == pytest.approx(_inside(SERVER_CPU).mean() / 0.25)
    assert s.server_cpu_pct_max == pytest.approx(_inside(SERVER_CPU).max() / 0.25)
    assert s.db_ops_per_s_mean == pytest.approx(_inside(DB_OPS).mean() / 0.25)
    assert s.net_in_bytes_per_s_mean == pytest.approx(_inside(NET_IN).mean() / 0.25)
    assert s.net_gbit_s_mean == pytest.approx(whole.net_gbit_s_mean / 0.25)
    assert s.net_share_of_baseline == pytest.approx(whole.net_share_of_baseline / 0.25)
    assert (s.client_cpu_pct_mean, s.client_cpu_pct_max) == (whole.client_cpu_pct_mean, whole.client_cpu_pct_max)
    assert (s.server_rss_bytes_max, s.server_forks, s.connections_max) == (
        whole.server_rss_bytes_max, whole.server_forks, whole.connections_max)
    assert s.server_cpu_us_per_op == pytest.approx(_inside(SERVER_CPU).mean() / 0.25 * 1e4 / 2000.0, abs=1e-3)


def test_the_engine_s_own_client_cpu_replaces_the_sampled_mean_and_raises_the_max_only_when_above_it() -> None:
    cap = _capture()
    cap.engine_client_cpu_pct, cap.engine_processes = 25.0, 7
    s = cap.summary()
    assert (s.client_cpu_pct_mean, s.client_cpu_source) == (25.0, "engine")
    assert s.client_cpu_pct_max == _inside(CLIENT_CPU).max()  # 30 > 25: the sampled maximum stays
    assert s.client_processes == _inside(CLIENT_PROCS).max()  # sampled: the engine's count does not replace it
    cap.engine_client_cpu_pct = 45.0
    assert cap.summary().client_cpu_pct_max == 45.0


def test_a_fork_is_an_event_at_its_sample_s_time_into_the_window_with_its_pause_and_snapshot() -> None:
    events = _capture().server_events()
    # t = 4 (2 forks, 700 µs, a snapshot written through t = 4, 5 and still at 6, past the window's samples: 2 s)
    # and t = 5 (1 fork, 300 µs, the snapshot seen at t = 5 only: 1 s)
    assert events == [{"event": "fork", "at_s": round(4.0 - 1.6, 2), "forks": 2, "pause_us": 700.0, "snapshot_s": 2.0},
                      {"event": "fork", "at_s": round(5.0 - 1.6, 2), "forks": 1, "pause_us": 300.0, "snapshot_s": 1.0}]
    # no window: times from the interval before the first sample (t = 1 covers 0..1 s)
    first = _capture(None).server_events()[0]
    assert (first["at_s"], first["forks"], first["snapshot_s"]) == (1.0, 5, 2.0)
    assert Capture(EP, None, host_cores=2, frame=_frame().drop(columns=["forks"])).server_events() == []
    others = _frame().assign(source=lambda f: f["source"].replace("redis-info", "postgresql"))
    assert Capture(EP, None, host_cores=2, frame=others).server_events() == []  # no store source counts forks


def test_shard_balance_sums_each_node_s_rate_before_the_share() -> None:
    f = pd.DataFrame({"source": ["redis-shard"] * 4 + ["redis-info"], "node": ["a", "a", "b", "c", "x"],
                      "ops_per_s": [100.0, 200.0, 150.0, 50.0, 9e9]})
    assert shard_balance(f) == {"shards": 3.0, "shard_ops_share_max": 300.0 / 500.0}
    assert shard_balance(f.drop(columns=["node"])) == {} and shard_balance(f.drop(columns=["source"])) == {}


def test_the_host_s_foreign_programs_named_are_the_three_busiest() -> None:
    """Four foreign programs in the host's readings: the run table names the three busiest, busiest first."""
    host = pd.DataFrame([{"t_mono": t, "t_wall": t, "source": "host", "foreign_pct": 70.0,
                          "foreign_top": "java=40;stress=20;redis-benchmark=8;cron=2"} for t in (3.0, 6.0)])
    cap = Capture(EP, None, host_cores=2, frame=pd.concat([_frame(), host], ignore_index=True), window=(1.6, 6.6))
    assert cap.summary().host_foreign_top == "java (40%), stress (20%), redis-benchmark (8%)"


def test_no_wire_sampler_where_no_server_listens() -> None:
    """A store without a server (no port to watch): its connections' bytes are not sampled at all."""
    from ycsbctl.telemetry.capture import samplers_for
    from ycsbctl.telemetry.wire import WireSampler

    basic = Endpoint(target="basic", protocol="basic", url="basic://", backend="external")
    samplers, _ = samplers_for(basic, lambda: [], evidence=True)
    try:
        assert samplers and not any(isinstance(x, WireSampler) for x in samplers)
    finally:
        for x in samplers:
            x.close()


def test_the_window_holds_the_samples_whose_middle_is_on_either_edge() -> None:
    cap = _capture((1.5, 4.5))  # the middles of t = 2 and t = 5 exactly on the edges
    assert sorted(set(cap.measured_frame()["t_mono"])) == [2.0, 3.0, 4.0, 5.0]


def test_align_takes_the_engine_s_window_only_from_a_run_that_measured() -> None:
    from types import SimpleNamespace

    def result(t0: float, runtime_ms: float) -> SimpleNamespace:
        return SimpleNamespace(t_start_mono=t0, runtime_ms=runtime_ms, warmup_s=1.0, throughput_ops=500.0,
                               engine="native", client_cpu_s=0.5, processes=2)

    cap = _capture(None)
    cap.align(result(100.0, 2000.0))
    assert cap.window == (101.0, 103.0) and cap.engine_client_cpu_pct == 25.0 and cap.engine_processes == 2
    for t0, ms in ((0.0, 2000.0), (100.0, 0.0)):  # no start time, or nothing measured: the window stays unknown
        other = _capture(None)
        other.align(result(t0, ms))
        assert other.window is None and other.engine_client_cpu_pct is None


def test_a_snapshot_s_length_is_its_samples_times_the_interval_and_the_samplers_cost_is_to_a_tenth_of_a_ms() -> None:
    from types import SimpleNamespace

    # no window: every sample's fork (t = 1, 2, 4, 5, 6), each snapshot seen for 2, 1, 3, 2 and 1 samples of 2 s
    cap = Capture(EP, None, host_cores=2, frame=_frame(), interval_s=2.0)
    assert [e["snapshot_s"] for e in cap.server_events()] == [4.0, 2.0, 6.0, 4.0, 2.0]
    cap.samplers = [SimpleNamespace(cpu_s=0.123456), SimpleNamespace(cpu_s=0.2)]  # type: ignore[list-item]
    assert cap.summary().sampler_cpu_s == 0.3235


def test_the_quota_throttling_of_a_point_is_its_cgroups_counters_summed_over_the_window() -> None:
    """Each sample holds the group's ``cpu.stat`` change since the one before; the window's share is the
    periods held back over the periods elapsed in it (not a mean of the samples' shares: 14 of 40 = 35 %, where
    the samples' own shares 10, 50, 30 % average 30 %), its seconds their sum."""
    rows = (("server-process", [10, 10, 10, 20, 10, 10], [9, 9, 1, 10, 3, 9], [0.9, 0.9, 0.1, 0.5, 0.2, 0.9]),
            ("client", [10, 10, 10, 10, 20, 10], [9, 9, 0, 1, 8, 9], [0.9, 0.9, 0.0, 0.1, 0.4, 0.9]))
    throttled = pd.DataFrame([{"t_mono": t, "t_wall": t, "source": src, "quota_periods": n, "throttled_periods": k,
                               "throttled_pct": 100 * k / n, "throttled_s": sec}
                              for src, periods, held, secs in rows
                              for t, n, k, sec in zip(T, periods, held, secs)])
    cap = Capture(EP, None, host_cores=2, frame=pd.concat([_frame(), throttled], ignore_index=True), window=(1.6, 4.6))
    summary = cap.summary()
    assert summary.server_throttled_pct == pytest.approx(35.0) and summary.server_throttled_s == pytest.approx(0.8)
    ev = cap.bottleneck(summary).evidence
    assert (ev["server_throttled_pct"], ev["client_throttled_pct"]) == (35.0, 22.5)
    assert (ev["server_throttled_s"], ev["measured_s"]) == (0.8, 3.0)
    plain = Capture(EP, None, host_cores=2, frame=_frame(), window=(1.6, 4.6)).summary()  # no quota: no figures
    assert plain.server_throttled_pct is None and plain.server_throttled_s is None


def test_target_processes_and_ports_are_every_one_the_endpoint_lists() -> None:
    from ycsbctl.telemetry.capture import server_ports, target_pids

    ep = Endpoint(target="redis-cluster", protocol="redis", url="redis://u:pw@127.0.0.1:7001,127.0.0.1:7002/0",
                  backend="local")
    assert server_ports(ep) == [7001, 7002]
    ep.processes = [{"pid": 1, "port": 7003}, {"pid": 0}, {"pid": "7"}, {"pid": 42}]
    assert target_pids(ep, 42) == [42, 1] and target_pids(ep, None) == [1, 42]
    assert server_ports(ep) == [7003, 7001, 7002]


def test_a_server_that_forks_a_process_per_connection_has_its_children_listed_at_every_read() -> None:
    import os

    from ycsbctl.telemetry.capture import samplers_for
    from ycsbctl.telemetry.process import CHILDREN_EVERY, ProcessSampler

    assert CHILDREN_EVERY > 1
    for protocol, every in (("postgresql", 1), ("redis", CHILDREN_EVERY)):
        ep = Endpoint(target=protocol, protocol=protocol, url=f"{protocol}://127.0.0.1:1/x", backend="local",
                      pid=os.getpid())
        samplers, _ = samplers_for(ep, None, evidence=False)
        try:
            server = [x for x in samplers if isinstance(x, ProcessSampler) and x.source == "server-process"]
            assert [x.children_every for x in server] == [every], protocol
        finally:
            for x in samplers:
                x.close()


def test_the_host_share_counts_client_and_server_only_when_the_server_runs_on_this_host() -> None:
    """host_share (client + server CPU of the host's cores, the host-cpu rule's figure): the window's means as
    pandas computes them over 100 % × host cores for a server on this host; none for one on another host (they
    share no cores: host-cpu is ruled out)."""
    import dataclasses

    f = _frame()
    used = sum(
        f[(f["source"] == src) & f["t_mono"].isin(INSIDE)]["cpu_pct"].mean() for src in ("server-process", "client")
    )
    here = Capture(EP, None, host_cores=2, frame=f, window=(1.6, 4.6)).bottleneck().evidence
    assert here["host_share"] == round(used / 200, 3) == 0.3
    away = dataclasses.replace(EP, host="10.0.0.5")
    assert Capture(away, None, host_cores=2, frame=f, window=(1.6, 4.6)).bottleneck().evidence["host_share"] is None


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="a placed point needs 2 usable CPUs; this host has 1")
def test_a_server_on_cpus_apart_from_the_clients_shares_no_core_with_it() -> None:
    """A placed point: the server's process on one CPU (its affinity, as taskset leaves it), the client's workers on
    another (``client_cpus``): no host share (host-cpu ruled out, as for a server on another host); a client set that
    holds the server's CPU, or none given (a point not placed), keeps it."""
    import subprocess

    from ycsbctl.telemetry.process import ProcessSampler

    cpus = sorted(os.sched_getaffinity(0))
    server = subprocess.Popen(["sleep", "60"])
    try:
        os.sched_setaffinity(server.pid, {cpus[0]})
        f = _frame()

        def share(client_cpus: tuple[int, ...]) -> float | None:
            c = Capture(EP, None, host_cores=2, frame=f, window=(1.6, 4.6), client_cpus=client_cpus,
                        samplers=[ProcessSampler(server.pid)])
            assert c.server_pid() == server.pid
            return c.bottleneck().evidence["host_share"]

        assert share((cpus[1],)) is None
        assert share((cpus[0], cpus[1])) == share(()) == 0.3
    finally:
        server.kill()
        server.wait()


@pytest.mark.parametrize(("host", "url", "backend", "loopback_sampled"), [
    (None, "memcached://127.0.0.1:11211", "external", True),  # a loopback URL: this host's lo carries its bytes
    (None, "memcached://10.0.0.5:11211", "docker", True),  # a container of this host's engine, at its bridge address
    (None, "memcached://10.0.0.5:11211", "external", False),  # another host's server
    ("10.0.0.5", "memcached://10.0.0.5:11211", "docker", False),  # a container of another host's Docker engine
])
def test_this_hosts_loopback_is_sampled_only_for_a_server_on_this_host(host, url, backend, loopback_sampled) -> None:
    """Whose bytes this host's ``lo`` counts: a server on this host's (samplers built, none started: nothing is
    connected to)."""
    import os

    from ycsbctl.telemetry.network import InterfaceNetSampler

    ep = Endpoint(target="memcached", protocol="memcached", url=url, backend=backend, host=host, pid=os.getpid())
    samplers, _ = samplers_for(ep, None, evidence=False)
    try:
        assert any(isinstance(x, InterfaceNetSampler) for x in samplers) is loopback_sampled
    finally:
        for x in samplers:
            x.close()


def test_a_fork_whose_snapshot_ended_within_its_interval_lasted_0_s_and_a_sample_without_the_counter_is_no_fork() -> (
    None
):
    """Four INFO samples a second apart, no window: a fork at t = 1 whose snapshot was done by the sample
    (rdb_bgsave_in_progress 0) is 0 s of snapshot; t = 2 lacks both counters (a failed read): no fork, no
    snapshot; a fork at t = 3 still writing at its sample and done by the next: 1 s."""
    nan = float("nan")
    rows = [{"t_mono": t, "t_wall": t, "source": "redis-info", "forks": forks, "fork_pause_us": 100.0 * t,
             "rdb_bgsave_in_progress": saving}
            for t, forks, saving in ((1.0, 1, 0), (2.0, nan, nan), (3.0, 1, 1), (4.0, 0, 0))]
    events = Capture(EP, None, host_cores=2, frame=pd.DataFrame(rows)).server_events()
    assert events == [{"event": "fork", "at_s": 1.0, "forks": 1, "pause_us": 100.0, "snapshot_s": 0.0},
                      {"event": "fork", "at_s": 3.0, "forks": 1, "pause_us": 300.0, "snapshot_s": 1.0}]


def test_the_other_targets_of_an_alternated_session_are_ours_in_the_host_check(tmp_path) -> None:
    """Issue 72: in an alternated session each target's host check counted the other targets' servers as other
    programs. Two real redis-servers: b's server, found from its URL alone (the PID it reports, kept where that
    process listens on its port), is the process the test started; a's host sampler given b as a peer holds b's
    server among its roots (so its CPU is ours: tests/telemetry/test_host.py pins how a root's tree is counted), one
    without b does not. The roots, not CPU figures: whether b's CPU shows as ours or foreign in a sample depends on
    when the host lets it run."""
    from tests.fixtures.samplers import redis_endpoint
    from tests.fixtures.servers import start_redis
    from ycsbctl.telemetry.host import HostSampler
    from ycsbctl.telemetry.server_processes import peer_roots

    a, b = start_redis(tmp_path / "a"), start_redis(tmp_path / "b")
    try:
        assert peer_roots([redis_endpoint(b, pid=False)]) == ([b.proc.pid], [])
        assert peer_roots([Endpoint(target="basic", protocol="basic", url="basic://", backend="local")]) == ([], [])

        def roots(peers: list) -> set[int]:
            samplers, _ = samplers_for(redis_endpoint(a), lambda: [], 0.25, peers=peers)
            host = next(s for s in samplers if isinstance(s, HostSampler))
            return set(host._ours())

        assert roots([redis_endpoint(b, pid=False)]) == {a.proc.pid, b.proc.pid}
        assert roots([]) == {a.proc.pid}
    finally:
        a.stop()
        b.stop()


def test_a_peers_container_on_this_hosts_engine_is_ours_by_its_id_and_every_listed_process_of_a_peer_counts() -> None:
    """``peer_roots`` (the other targets of an alternated session, ours in the host-busy check): a container this
    host's Docker engine runs goes by its id (the host sampler counts its processes by their cgroup); one another
    host's engine runs is neither (no process of it is on this host); a several-process peer's every process."""
    from ycsbctl.telemetry.server_processes import peer_roots

    here = Endpoint(target="redis", protocol="redis", url="redis://172.17.0.2:6379/0", backend="docker",
                    container_id="c0ffee")
    away = Endpoint(target="valkey", protocol="redis", url="redis://10.0.0.5:6379/0", backend="docker",
                    container_id="beef", docker_host="tcp://10.0.0.5:2375", host="10.0.0.5")
    shards = Endpoint(target="redis-cluster", protocol="redis", url="redis://127.0.0.1:7001/0", backend="local",
                      pid=101)
    shards.processes = [{"pid": 102, "port": 7002}, {"pid": 103, "port": 7003}]
    assert peer_roots([here, away, shards]) == ([101, 102, 103], ["c0ffee"])
    assert peer_roots([away]) == ([], [])


def test_a_server_reached_through_a_relay_is_the_process_listening_on_the_urls_port_not_the_pid_it_reports(
        redis_server) -> None:
    """``local_server_pid`` keeps the PID a server reports (INFO process_id) only where that process listens on the
    URL's port: through a TCP relay (this test's own process listens) the server's PID is not what the URL reaches,
    and the listener is taken; reached directly, the server's own."""
    import os

    from tests.fixtures.tap import tap
    from ycsbctl.telemetry.server_processes import local_server_pid

    with tap("127.0.0.1", redis_server.port) as relay:
        via = Endpoint(target="redis", protocol="redis", url=f"redis://127.0.0.1:{relay.port}/0", backend="external")
        assert local_server_pid(via) == os.getpid()
    direct = Endpoint(target="redis", protocol="redis", url=redis_server.url, backend="external")
    assert local_server_pid(direct) == redis_server.proc.pid


def test_a_url_listing_several_hosts_finds_the_server_of_its_first_host(tmp_path) -> None:
    """A URL that lists two local redis-servers (``redis://a,b/0``): the server found is the first host's, the
    process the test started for it and the PID that server itself reports (INFO ``process_id``), not the
    second's nor none."""
    import redis

    from tests.fixtures.servers import start_redis
    from ycsbctl.telemetry.server_processes import local_server_pid

    a, b = start_redis(tmp_path / "a"), start_redis(tmp_path / "b")
    try:
        own = redis.Redis(port=a.port).info("server")["process_id"]
        url = f"redis://127.0.0.1:{a.port},127.0.0.1:{b.port}/0"
        ep = Endpoint(target="redis", protocol="redis", url=url, backend="external")
        assert local_server_pid(ep) == own == a.proc.pid != b.proc.pid
    finally:
        a.stop()
        b.stop()

"""The why line from evidence whose figures the test chose: each label names what its figures show, with
them; a cause is named only at its stated line and not below it; and the profile's and the wire's own
readers (folded stacks, ``ss``'s TCP_INFO) against text in those tools' formats."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from ycsbctl.telemetry.profiler import fold_counts, kernel_share, top_frames
from ycsbctl.telemetry.why import (
    CPU_WAIT_PCT,
    HELPER_SHARE,
    THROTTLED_PCT,
    WAITING_SHARE,
    explain,
    foreign_busy,
)
from ycsbctl.telemetry.wire import min_rtts_ms, parse_ss


def _role(oncpu: float, user: float, system: float, runq: float = 0.0, threads: int = 1, **states: int) -> dict:
    return {"oncpu_pct": oncpu, "user_pct": user, "system_pct": system, "runq_pct": runq,
            "busiest_pct": oncpu / threads,
            "threads": threads, "states": {"running": 0, "idle": 0, "lock": 0, "sleep": 0, "io": 0, "other": 0,
                                           **states},
            "wchan": {"futex_do_wait": states.get("lock", 0)} if states.get("lock") else {}}


def _b(label: str, **ev) -> dict:
    base = {"server_cpu_pct": 40.0, "server_cores": 1.0, "client_cpu_pct": 50.0, "client_cores": 1.0, "host_cores": 2,
            "throughput_ops": 10_000.0, "server_share": 0.4, "client_share": 0.5}
    return {"label": label, "text": f"{label}: text", "evidence": {**base, **ev}}


def test_a_server_cpu_line_names_the_busiest_thread_its_share_and_the_kernels_part():
    roles = {"main": _role(97.0, 40.0, 57.0, runq=3.0), "io_thd": _role(5.0, 4.0, 1.0, threads=2)}
    why = explain(_b("server-cpu", server_cpu_pct=102.0, server_threads=roles, wire={"packets_per_s": 21_000.0}),
                  "redis")
    assert why == ("server-cpu: redis's main thread ran 97% of a core, 59% of it in the kernel; "
                   "102 µs of server CPU and 2.1 packets per operation")


def test_a_server_that_waited_for_a_cpu_says_so_from_the_line_up():
    roles = {"main": _role(60.0, 30.0, 30.0)}
    for runq, said in ((10.0, True), (9.9, False)):
        why = explain(_b("server-cpu", server_threads=roles, server={"runq_pct": runq}), "redis")
        assert ("waited for a CPU" in why) is said, why


def test_cpu_wait_is_named_from_its_line_on_and_not_below():
    def why(runq: float) -> str:
        client = {"main": _role(30.0, 20.0, 10.0, runq=runq)}
        return explain(_b("latency", client_threads=client, server_threads={"main": _role(20.0, 10.0, 10.0)}), "redis")

    assert why(CPU_WAIT_PCT).startswith(f"cpu wait: the client's workers waited for a CPU {CPU_WAIT_PCT:.0f}% "
                                        "of the point")
    assert why(CPU_WAIT_PCT - 0.6).startswith("latency: nothing measured was saturated"), why(CPU_WAIT_PCT - 0.6)
    assert why(CPU_WAIT_PCT - 0.6).endswith("cause unknown")


def test_an_off_cpu_wait_needs_most_of_a_working_threads_samples_asleep_on_something_else_than_work():
    total = 10
    at = round(WAITING_SHARE * total)
    asleep = explain(_b("latency", server_threads={"main": _role(5.0, 3.0, 2.0, lock=at, idle=total - at)}), "pg")
    assert asleep.startswith(f"off-CPU wait: pg's main thread slept in {at} of {total} samples "
                             f"(lock: futex_do_wait {at})")
    awake = explain(_b("latency", server_threads={"main": _role(5.0, 3.0, 2.0, lock=at - 1, idle=total - at + 1)}),
                    "pg")
    assert awake.startswith("latency: ") and "cause unknown" in awake
    # threads that do no work (a background thread parked on a futex) are not where requests wait
    idle_bg = {"main": _role(5.0, 3.0, 2.0, idle=total), "bio_lazy_free": _role(0.0, 0.0, 0.0, lock=total)}
    assert explain(_b("latency", server_threads=idle_bg), "redis").startswith("latency: ")
    # nor a helper that did a little work beside a busy main thread (bio_lazy_free freeing an UNLINKed set:
    # 2.2 % of a core beside the main thread's 80 %, on its job queue's futex in every sample): below
    # HELPER_SHARE of the busiest role it is not blamed; as busy as that, it is
    main = _role(80.0, 50.0, 30.0, running=7, idle=3)
    for ran, blamed in ((HELPER_SHARE * 80.0 - 0.1, False), (HELPER_SHARE * 80.0, True)):
        line = explain(_b("latency", server_threads={"main": main, "bio_lazy_free": _role(ran, ran, 0.0, lock=total)}),
                       "redis")
        assert line.startswith("off-CPU wait: redis's bio_lazy_free thread") == blamed, (ran, line)


def test_network_delay_is_named_when_the_round_trip_is_half_the_latency():
    near = explain(_b("latency", wire={"minrtt_ms": 2.0}), "redis", 8, 4000.0)
    assert (
        near
        == "network delay: our connections' smallest round trip is 2.00 ms of the 4.00 ms an operation took on average"
    )
    assert explain(_b("latency", wire={"minrtt_ms": 1.99}), "redis", 8, 4000.0).startswith("latency: ")


def test_the_host_is_busy_from_the_stated_share_of_its_cores_with_the_programs_named(monkeypatch):
    monkeypatch.setenv("YCSBCTL_HOST_BUSY_SHARE", "0.10")
    host = {"foreign_pct": 20.0, "host_steal_pct": 0.0, "foreign_top": {"stress-ng": 18.0, "make": 2.0}}
    assert foreign_busy(_b("latency", host=host)) == ("other programs used 20% of a core (10% of the host's 2 cores, "
                                                      "above 10%) during the point: stress-ng 18%, make 2%")
    assert foreign_busy(_b("latency", host={**host, "foreign_pct": 19.9})) is None
    assert "steal" in foreign_busy(_b("latency", host={"foreign_pct": 0.0, "host_steal_pct": 20.0}))
    monkeypatch.setenv("YCSBCTL_HOST_BUSY_SHARE", "off")
    assert foreign_busy(_b("latency", host=host)) is None


def test_stalls_keep_their_own_sentence_and_host_busy_says_who():
    assert explain(_b("stall"), "redis") == "stall: text"
    assert explain({"label": "host-busy", "text": "t", "evidence": {"other": "pid 7: redis-benchmark"}}, "redis") == \
        "host-busy: pid 7: redis-benchmark"


def test_a_host_busy_line_keeps_what_the_points_own_evidence_said_then_who_kept_the_host_busy():
    """Issue 72: the stand-in's server at 47% of the 200% it may use was not said beside "host-busy". The label
    measured (kept as ``measured_label`` by :func:`host_busy_bottleneck`) gives its own line first, from the same
    evidence, then the busy-host sentence; a label with only its text (a network bound) keeps that text too."""
    from ycsbctl.telemetry.bottleneck import host_busy_bottleneck

    other = "other programs used 90% of a core (45% of the host's 2 cores, above 10%) during the point: python 90%"
    for measured in (_b("latency", server_cores=2.0, client_cores=2.0), _b("server-cpu"), _b("client-cpu"),
                     _b("network"), _b("host-cpu")):
        busy = host_busy_bottleneck(other, measured)
        assert busy["label"] == "host-busy"
        own = explain(measured, "ferretdb", 8, 300.0)
        assert own and explain(busy, "ferretdb", 8, 300.0) == f"{own}; host-busy: {other}", measured["label"]
    line = explain(host_busy_bottleneck(other, _b("latency", server_cores=2.0, server_cpu_pct=47.0)), "ferretdb")
    assert line.startswith("latency: nothing measured was saturated (server 47% of 200%"), line
    # nothing measured (no telemetry), or another benchmark: the busy-host sentence alone, as before
    assert explain(host_busy_bottleneck("pid 7: redis-benchmark", None), "redis") == "host-busy: pid 7: redis-benchmark"


FOLDED = "redis-server;main;aeMain;readQueryFromClient 30\nredis-server;main;aeMain;write;tcp_sendmsg_[k] 50\n" \
         "redis-server;main;epoll_wait;do_epoll_wait_[k] 20\n"


def test_top_frames_give_each_frames_self_and_total_share_of_the_samples():
    counts = fold_counts(FOLDED)
    rows = {r["frame"]: r for r in top_frames(counts, "server")}
    assert rows["tcp_sendmsg_[k]"]["self_share"] == 0.5 and rows["tcp_sendmsg_[k]"]["samples"] == 50
    assert rows["aeMain"]["self_share"] == 0.0 and rows["aeMain"]["total_share"] == 0.8
    assert rows["main"]["total_share"] == 1.0
    assert list(rows)[0] == "tcp_sendmsg_[k]"  # by self share first
    assert kernel_share(counts) == pytest.approx(0.7)
    assert kernel_share({}) is None and top_frames({}, "server") == []
    # folded text as perf's and py-spy's: a line without a stack or a count is none; the same stack twice adds up
    assert fold_counts("a;b 12\na;b 3\n 7\nc;d x\n\nc;d\n") == {"a;b": 15}
    # the table keeps the 20 frames of most self share (26 here: f0 … f24 and their caller, of none)
    many = {f"main;f{k}": 25 - k for k in range(25)}
    assert [r["frame"] for r in top_frames(many, "server")] == [f"f{k}" for k in range(20)]


SS = b"""0      0      127.0.0.1:48816    127.0.0.1:6379
\t cubic wscale:7,7 rto:204 rtt:0.05/0.02 minrtt:0.011 bytes_sent:376 bytes_acked:377 bytes_received:252 \
segs_out:4 segs_in:3
0      0      127.0.0.1:48830    127.0.0.1:6379
\t cubic rtt:4.7/7.5 minrtt:0.031 bytes_sent:869 bytes_received:5327 segs_out:14 segs_in:8
"""


def test_ss_counters_are_read_per_connection_with_each_ones_smallest_round_trip():
    got = parse_ss(SS)
    assert got[(b"127.0.0.1:48816", b"127.0.0.1:6379")] == (376, 252, 4, 3)
    assert got[(b"127.0.0.1:48830", b"127.0.0.1:6379")] == (869, 5327, 14, 8)
    assert min_rtts_ms(SS) == [0.011, 0.031]


def test_a_disturbance_that_stalled_the_traffic_is_named_first_as_a_single_command():
    import pandas as pd

    from ycsbctl.experiment.explain import SINGLE_COMMAND_STALL_S, with_why

    events = pd.DataFrame([
        {"event": "del:set:2M@5s", "started_s": 5.02, "command_s": 1.657, "server_s": 1.653, "stall_s": 1.6,
         "ops_lost": 39_770.0},
        {"event": "unlink:set:2M@12s", "started_s": 12.0, "command_s": 0.001, "server_s": float("nan"),
         "stall_s": SINGLE_COMMAND_STALL_S - 0.01, "ops_lost": 3.0}])
    b = with_why(_b("latency"), "redis", 8, None, events)
    assert b["why"].startswith("single command: del:set:2M@5s at 5.0 s held the server 1,657 ms (SLOWLOG 1,653 ms), "
                               "a 1.60 s stall in which every client waited (39,770 operations lost); otherwise "
                               "latency:")
    assert with_why(_b("latency"), "redis", 8, None, events.iloc[1:])["why"].startswith("latency:")


def test_the_cpu_wait_line_is_at_20_percent_of_the_point_and_steal_is_a_share_of_the_host(monkeypatch):
    """The 20 % of docs/guide/why.md (not the constant the code holds, which a wrong edit would move with the test), and
    the hypervisor's steal as a share of the host's cores: 30 % of a core on 2 cores is 15 % of the host."""
    def why(runq: float) -> str:
        client = {"main": _role(30.0, 20.0, 10.0, runq=runq)}
        return explain(_b("latency", client_threads=client, server_threads={"main": _role(20.0, 10.0, 10.0)}), "redis")

    assert why(20.0).startswith("cpu wait: the client's workers waited for a CPU 20% of the point")
    assert why(19.9).startswith("latency: "), why(19.9)
    monkeypatch.setenv("YCSBCTL_HOST_BUSY_SHARE", "0.10")
    assert foreign_busy(_b("latency", host={"foreign_pct": 0.0, "host_steal_pct": 30.0})) == \
        "the hypervisor gave 30% of a core to other machines (steal: 15% of the host)"


def test_a_line_without_the_servers_cpu_or_a_thread_count_says_what_it_has():
    """No server CPU figure: no per-operation CPU (not a crash); a role without a thread count is one thread (its
    busiest thread's share is said); the host-cpu line's capacity is the host's cores (2: 200 %)."""
    one = {"oncpu_pct": 95.0, "busiest_pct": 90.0, "user_pct": 50.0, "system_pct": 45.0, "states": {}}
    line = explain(_b("server-cpu", server_cpu_pct=None, server_threads={"main": one}), "redis")
    assert line == "server-cpu: redis's main thread ran 90% of a core, 47% of it in the kernel", line
    host = explain(_b("host-cpu", server={"runq_pct": 30.0}, client={"runq_pct": 25.0}), "redis")
    assert host == ("host-cpu: the server waited for a CPU 30% of the point and the client 25%, while together they "
                    "ran 90% of the host's 200%: they took turns on its cores"), host


def test_the_latency_line_lists_each_figure_measured_against_its_own_capacity():
    """Server 40 % of its 2 cores, client 50 % of its 2 cores, the network at 30 % of its baseline, the round trip:
    each said against its own capacity; a figure not measured (no share), or the host's loopback counters alone
    (not our own traffic), is not said."""
    ev = dict(server_cores=2.0, client_cores=2.0, net_share=0.3, wire={"minrtt_ms": 0.05})
    line = explain(_b("latency", **ev), "redis", 8, 4000.0)
    assert line == ("latency: nothing measured was saturated (server 40% of 200%, client 50% of 200%, network 30% of "
                    "the baseline, round trip 0.05 ms) — cause unknown"), line
    line = explain(_b("latency", **{**ev, "server_share": None, "net_ours": False}), "redis", 8, 4000.0)
    assert line == "latency: nothing measured was saturated (client 50% of 200%, round trip 0.05 ms) — cause unknown"
    # cores not known: each side is said against one core's 100%
    unknown = explain(_b("latency", server_cores=None, client_cores=None, net_share=None), "redis")
    assert unknown == "latency: nothing measured was saturated (server 40% of 100%, client 50% of 100%) — cause unknown"
    bare = explain(_b("latency", server_share=None, client_share=None), "redis")
    assert bare == "latency: nothing measured was saturated (no figures) — cause unknown", bare


def test_an_off_cpu_wait_says_what_the_server_ran_of_its_own_cores_and_a_delay_its_mean_in_ms():
    roles = {"main": _role(20.0, 10.0, 10.0, runq=5.0, lock=8, idle=2)}
    line = explain(_b("latency", server_cores=2.0, server_threads=roles), "pg")
    assert line == ("off-CPU wait: pg's main thread slept in 8 of 10 samples (lock: futex_do_wait 8), each off a CPU "
                    "75% of the point on average, while the server ran 40% of the 200% it may use"), line
    # each thread's share: a role of 4 threads that ran 60% and waited 20% of a core in all was off a CPU 80% each
    pool = {"io": _role(60.0, 30.0, 30.0, runq=20.0, threads=4, lock=8, idle=2)}
    assert "each off a CPU 80% of the point" in explain(_b("latency", server_threads=pool), "pg")
    # one thread at 51%: 49% off (a 1.01 thread would read 50%)
    one = {"main": _role(51.0, 30.0, 21.0, lock=8, idle=2)}
    assert "each off a CPU 49% of the point" in explain(_b("latency", server_threads=one), "pg")
    delay = explain(_b("latency", wire={"minrtt_ms": 5.0}), "redis", 8, 10_000.0)
    assert (
        delay
        == "network delay: our connections' smallest round trip is 5.00 ms of the 10.00 ms an operation took on average"
    )


def test_a_sleeping_thread_counted_on_or_waiting_for_a_cpu_all_the_point_was_off_a_cpu_none_of_it():
    """A thread's sleep is read from samples, its on-CPU and run-queue shares from counters: the two can disagree.
    Counted on or waiting for a CPU 100 % of the point or more, it was off a CPU 0 % (not a negative share, nor a
    floor above 0)."""
    for oncpu, runq in ((95.0, 5.0), (98.0, 7.0)):
        roles = {"main": _role(oncpu, 50.0, oncpu - 50.0, runq=runq, lock=8, idle=2)}
        line = explain(_b("latency", server_threads=roles), "pg")
        assert "each off a CPU 0% of the point on average" in line, line


def test_off_cpu_wait_counts_only_the_states_a_role_has_names_two_places_and_a_thread_at_the_active_line():
    """off_cpu_wait's whole contract on figures chosen here: a state absent from the samples counts none (not
    −1), the place it slept is the first two wait channels in order, and a side thread that ran exactly
    1 % of a core (beside a main thread under ten times that) is working, one just below it is not."""
    from ycsbctl.telemetry.why import off_cpu_wait

    # only the states seen are listed: 5 of 10 asleep on a lock is WAITING_SHARE of them, exactly
    sparse = {"main": {"oncpu_pct": 5.0, "states": {"lock": 5, "running": 5},
                       "wchan": {"futex_do_wait": 3, "do_epoll_wait": 1, "pipe_read": 1}}}
    assert off_cpu_wait(sparse) == ("main", sparse["main"], 5, 10, "lock: futex_do_wait 3, do_epoll_wait 1")
    for ran, working in ((1.0, True), (0.99, False)):  # the stated line: 1 % of a core
        roles = {"main": {"oncpu_pct": 9.0, "states": {"running": 10}},
                 "bg": {"oncpu_pct": ran, "states": {"io": 4}, "wchan": {}}}
        found = off_cpu_wait(roles)
        assert (found == ("bg", roles["bg"], 4, 4, "io")) is working and (found is None) is not working, ran
    # above 1 % but under a tenth of the busiest role (main's 50 %, not the least busy's 2 %): a helper, not working
    helper = {"main": {"oncpu_pct": 50.0, "states": {"running": 10}}, "bg": {"oncpu_pct": 2.0, "states": {"io": 4}}}
    assert off_cpu_wait(helper) is None
    assert off_cpu_wait({"main": helper["main"], "bg": {**helper["bg"], "oncpu_pct": 5.0}})[0] == "bg"


def test_host_busy_is_ten_percent_of_the_hosts_cores_unless_said_and_the_three_busiest_foreign_programs_are_named(
        monkeypatch):
    """The line of docs/guide/why.md: foreign CPU of 10 % of the host's cores makes a point host-busy
    (YCSBCTL_HOST_BUSY_SHARE sets another, 'off' none, an unreadable value keeps 10 %); a host scan names the three
    busiest foreign programs, busiest first (five ran here, between two scans of a /proc given by the test), and every
    share of the scan is of one core over the time between the scans."""
    import os

    from ycsbctl.telemetry import host

    monkeypatch.delenv(host.HOST_BUSY_ENV, raising=False)
    assert host.host_busy_share() == 0.10
    for given, share in (("0.25", 0.25), ("off", None), ("lots", 0.10), (" ", 0.10)):
        monkeypatch.setenv(host.HOST_BUSY_ENV, given)
        assert host.host_busy_share() == share, given
    # two scans 2 s apart (CLOCK_BOOTTIME), every figure chosen: each a share of one core over those 2 s
    me = os.getpid()
    before = {me: ("python", 1, 1.0, 7), 200: ("worker", me, 0.0, 8), 2: ("kthreadd", 0, 0.0, 1),
              30: ("kworker", 2, 0.2, 1), **{100 + k: (f"prog{k}", 1, 0.0, 9) for k in range(5)}}
    after = {me: ("python", 1, 2.0, 7), 200: ("worker", me, 0.5, 8), 2: ("kthreadd", 0, 0.0, 1),
             30: ("kworker", 2, 0.4, 1), **{100 + k: (f"prog{k}", 1, 5.0 - k, 9) for k in range(5)}}
    scans = iter([before, after])
    times = iter([{"user": 10.0, "system": 5.0, "iowait": 1.0, "steal": 0.5, "idle": 100.0},
                  {"user": 11.5, "system": 5.5, "iowait": 1.2, "steal": 0.5, "idle": 102.0}])
    clock = iter([50.0, 52.0])
    monkeypatch.setattr(host, "scan", lambda: next(scans))
    monkeypatch.setattr(host, "cpu_times", lambda: next(times))
    monkeypatch.setattr(host, "time", SimpleNamespace(CLOCK_BOOTTIME=7, clock_gettime=lambda _: next(clock)))
    sampler = host.HostSampler(lambda: [])
    sampler.prime()
    got = sampler.sample()
    assert got == pytest.approx({"host_user_pct": 75.0, "host_system_pct": 25.0, "host_iowait_pct": 10.0,
                                 "host_steal_pct": 0.0, "host_idle_pct": 100.0, "ours_pct": 75.0, "kernel_pct": 10.0,
                                 "foreign_pct": 750.0, "foreign_top": "prog0=250.0;prog1=200.0;prog2=150.0"})
    # with containers of ours: a process in one is ours, asked of its cgroup once per process
    asked: list[int] = []
    monkeypatch.setattr(host, "in_container", lambda pid, ids: asked.append(pid) or pid == 104)
    boxed = host.HostSampler(lambda: [], containers=["c0ffee"])
    assert [boxed._is_ours(pid, {me}, set()) for pid in (me, 104, 103, 104, 103)] == [True, True, False, True, False]
    assert asked == [104, 103]


def test_a_server_its_cpu_quota_held_back_is_named_throttled_from_its_line_on_and_not_below():
    """A throttled thread is runnable: without the quota's own counters its wait reads as a cpu wait. From
    :data:`THROTTLED_PCT` % of the quota's periods on, the line names the quota, its cores, the share of periods and
    the seconds of the measured window; below it, what it said before."""
    quota = {"server_quota_cores": 0.5, "server_throttled_s": 1.94, "measured_s": 4.0}
    waiting = {"server_threads": {"main": _role(45.0, 30.0, 15.0, runq=40.0)}, "server": {"runq_pct": 40.0}}
    held = explain(_b("server-cpu", server_throttled_pct=83.4, **quota, **waiting), "redis")
    assert held.startswith("server-cpu: held by its CPU quota (0.5 cores): throttled in 83 % of periods, 1.9 s of the "
                           "4.0 s measured; redis's main thread ran 45% of a core"), held
    line = explain(_b("latency", server_throttled_pct=THROTTLED_PCT, **quota, **waiting), "redis")
    assert line == (f"throttled: the server was held by its CPU quota (0.5 cores): throttled in {THROTTLED_PCT:.0f} % "
                    "of periods, 1.9 s of the 4.0 s measured; it ran 40% of a core and waited for a CPU 40% of the "
                    "point")
    below = explain(_b("latency", server_throttled_pct=THROTTLED_PCT - 0.6, **quota, **waiting), "redis")
    assert below.startswith("cpu wait: the server waited for a CPU 40% of the point"), below
    plain = explain(_b("server-cpu", **waiting), "redis")  # no quota
    assert plain.startswith("server-cpu: redis's main thread ran 45% of a core"), plain
    one = explain(_b("server-cpu", server_throttled_pct=60.0, server_quota_cores=1.0), "redis")  # no thread figures
    assert one.startswith("server-cpu: held by its CPU quota (1 core): throttled in 60 % of periods;"), one


def test_the_busiest_roles_run_queue_wait_is_per_thread_and_a_role_without_a_thread_count_is_one_thread():
    from ycsbctl.telemetry.why import _runq_per_thread

    assert _runq_per_thread({"io": {"runq_pct": 30.0, "threads": 3}, "main": {"runq_pct": 90.0}}) == 10.0
    for unknown in ({"runq_pct": 30.0}, {"runq_pct": 30.0, "threads": 0}, {"runq_pct": 30.0, "threads": None}):
        assert _runq_per_thread({"main": unknown}) == 30.0, unknown
    assert _runq_per_thread({}) == 0.0


def test_a_client_cpu_why_line_says_the_clients_wait_for_a_cpu_from_10_percent_and_a_network_one_its_bytes_per_op():
    from ycsbctl.telemetry.why import explain

    def client_cpu(runq: float) -> str | None:
        return explain({"label": "client-cpu", "evidence": {"client_cores": 2, "client_cpu_pct": 190.0,
                                                            "server_cpu_pct": 40.0, "client": {"runq_pct": runq}}},
                       "redis")

    assert client_cpu(10.0) == ("client-cpu: the load generator's workers ran 190% of the 200% they may use (0% in the "
                                "kernel) and waited for a CPU 10% of the point; the server ran 40%: the client set "
                                "this number")
    assert "waited for a CPU" not in (client_cpu(9.9) or "")
    # network: 12,500,000 bytes and 25,000 packets a second over 10,000 ops/s
    net = {"label": "network", "text": "network: 100 Mbit/s", "evidence": {
        "throughput_ops": 10_000.0, "wire": {"bytes_per_s": 12_500_000.0, "packets_per_s": 25_000.0}}}
    assert explain(net, "redis") == "network: 100 Mbit/s; 1,250 bytes and 2.5 packets per operation"
    for missing in ({"bytes_per_s": 0.0, "packets_per_s": 1.0}, {}):
        assert explain({**net, "evidence": {"throughput_ops": 10_000.0, "wire": missing}},
                       "redis") == "network: 100 Mbit/s"
    assert explain({**net, "evidence": {"throughput_ops": None, "wire": net["evidence"]["wire"]}}, "redis") == \
        "network: 100 Mbit/s"


def test_a_why_names_one_thread_in_the_singular_and_several_with_their_count():
    from ycsbctl.telemetry.why import _who

    assert [_who("redis", "io_thd", {"threads": n}) for n in (1, 2, 3)] == [
        "redis's io_thd thread", "redis's io_thd threads (2)", "redis's io_thd threads (3)"]
    assert [_who("pg", "main", {"threads": n}) for n in (1, 2)] == ["pg's main thread", "pg's main threads"]
    # not counted: one
    assert _who("redis", "bio", {}) == _who("redis", "bio", {"threads": None}) == "redis's bio thread"


def test_a_foreign_cpu_that_is_not_a_number_counts_as_none(monkeypatch):
    from ycsbctl.telemetry.host import HOST_BUSY_ENV
    from ycsbctl.telemetry.why import foreign_busy
    monkeypatch.setenv(HOST_BUSY_ENV, "0.005")  # half a % of one core
    ev = {"evidence": {"host_cores": 1, "host": {"foreign_pct": "n/a", "host_steal_pct": None}}}
    assert foreign_busy(ev) is None
    ev["evidence"]["host"]["foreign_pct"] = 0.6
    assert foreign_busy(ev) == ("other programs used 1% of a core (1% of the host's 1 cores, above 0%) during the "
                                "point: processes that ended between two scans")

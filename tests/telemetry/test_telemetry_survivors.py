"""Survivors of the per-module mutation runs of telemetry/ (issue 43), each killed by a value worked out by hand;
pure and millisecond-quick, listed first in each module's map in scripts/mutation.py."""

from __future__ import annotations

import pytest

from ycsbctl.telemetry.footprint import _per_record, stats_bytes


def test_a_mongodb_records_bytes_are_its_data_and_indexes_less_the_empty_servers():
    # the empty server: no data (0) and no size given for its indexes; after 1,000 records 250,000 + 36,864 bytes
    before = {"data_size_bytes": 0, "index_size_bytes": None}
    after = {"data_size_bytes": 250_000, "index_size_bytes": 36_864}
    assert (stats_bytes(before), stats_bytes(after)) == (0.0, 286_864.0)
    assert _per_record(stats_bytes(after), stats_bytes(before), 1_000) == 286.864
    assert stats_bytes({"data_size_bytes": None, "index_size_bytes": 4_096}) == 4_096.0
    # RSS per record less the empty server's; none without records or an after
    assert _per_record(9_000_000.0, 8_000_000.0, 4_000) == 250.0 and _per_record(9_000_000.0, None, 3) == 3_000_000.0
    assert _per_record(None, 1.0, 10) is None and _per_record(5.0, 1.0, 0) is None


def test_a_frames_self_share_is_its_leaf_samples_to_four_digits_and_parts_are_summed_per_stack():
    from ycsbctl.telemetry.profiler import fold_counts, top_frames

    # two workers' parts: "x;a" 2 + 4 samples, "a;b" 3; a is a leaf (6) and b's caller: 9 samples in all
    counts = fold_counts("\n".join(["x;a 2\na;b 3", "x;a 4\n"]))
    assert counts == {"x;a": 6, "a;b": 3}
    rows = {r["frame"]: r for r in top_frames(counts, "client")}
    assert (rows["a"]["samples"], rows["a"]["self_share"], rows["a"]["total_share"]) == (6, 0.6667, 1.0)
    assert (rows["b"]["samples"], rows["b"]["self_share"], rows["x"]["self_share"]) == (3, 0.3333, 0.0)
    # a caller only: no samples of its own, in a third of the stacks (to four digits)
    assert (rows["x"]["samples"], rows["x"]["total_share"], rows["b"]["total_share"]) == (0, 0.6667, 0.3333)
    assert list(rows) == ["a", "b", "x"]


class _Engine:
    """A docker client's two parts one_shot uses: ``api.stats`` and ``close``."""

    def __init__(self) -> None:
        self.api, self.closed = self, False

    def stats(self, container_id: str, stream: bool, one_shot: bool) -> dict:
        return {"id": container_id, "stream": stream, "one_shot": one_shot}

    def close(self) -> None:
        self.closed = True


def test_one_stats_document_leaves_the_callers_client_open_and_a_sampler_closes_before_it_started():
    from ycsbctl.telemetry.container import ContainerSampler, one_shot

    engine = _Engine()
    assert one_shot("c1", client=engine) == {"id": "c1", "stream": False, "one_shot": True}
    assert not engine.closed  # the caller's: it goes on using it
    ContainerSampler("c1").close()  # nothing opened yet: nothing to close, no error


def test_redis_with_io_threads_may_use_them_and_when_they_take_every_core_a_latency_point_is_host_cpu():
    from ycsbctl.provision.base import Endpoint
    from ycsbctl.telemetry.bottleneck import Bottleneck, io_threads_note, server_cores

    def ep(io_threads: int | None) -> Endpoint:
        return Endpoint(target="redis", protocol="redis", url="redis://127.0.0.1:6379/0", backend="local",
                        traits={"io_threads": io_threads} if io_threads else None)

    assert (server_cores(ep(None), 8), server_cores(ep(4), 8), server_cores(ep(4), 2)) == (1.0, 4.0, 2.0)
    # 2 I/O threads on the client's 2 cores: every core taken, nothing crossed its line: host-cpu
    b = io_threads_note(Bottleneck("latency", {}, "t"), ep(2), 2)
    assert (b.label, b.evidence["measured_label"], b.evidence["server_io_threads"]) == ("host-cpu", "latency", 2)
    # on 4 cores they leave the client some: the measured label stays
    assert io_threads_note(Bottleneck("latency", {}, "t"), ep(2), 4).label == "latency"
    assert io_threads_note(Bottleneck("server-cpu", {}, "t"), ep(2), 2).label == "server-cpu"
    # one I/O thread is Redis's own way (the main thread serves every client): nothing is said
    one = io_threads_note(Bottleneck("latency", {"client_share": 0.1}, "t"), ep(1), 2)
    assert (one.label, one.text, one.evidence) == ("latency", "t", {"client_share": 0.1})
    # every core taken: why is the client's share of the time it could run, below half or not
    said = {share: io_threads_note(Bottleneck("server-cpu", {"client_share": share}, "t"), ep(2), 2).text
            for share in (0.499, 0.5, None)}
    assert said[0.499].startswith("t; the server runs 2 I/O threads on the 2 cores the client uses too: no core is "
                                  "left to the client alone, and it ran only 50% of the time it could"), said
    assert said[0.5] == said[None] == ("t; the server runs 2 I/O threads on the 2 cores the client uses too: no core "
                                       "is left to the client alone, so this point is likely client-bound (client "
                                       "and server take turns on the host), not a measure of what the I/O threads give")


def test_a_counter_ss_leaves_out_is_zero():
    from ycsbctl.telemetry.wire import parse_ss

    # ss prints a counter only when it is not 0: a connection that sent nothing shows no bytes_sent nor segs_out
    text = (b"ESTAB 0 0 127.0.0.1:50000 127.0.0.1:6379\n\t cubic rtt:0.1/0.05 minrtt:0.02 segs_in:3 bytes_received:42\n"
            b"ESTAB 0 0 127.0.0.1:50002 127.0.0.1:6379\n\t cubic bytes_sent:120 segs_out:4\n")
    assert parse_ss(text) == {(b"127.0.0.1:50000", b"127.0.0.1:6379"): (0, 42, 0, 3),
                              (b"127.0.0.1:50002", b"127.0.0.1:6379"): (120, 0, 4, 0)}


def test_the_wire_grows_by_each_connections_change_and_a_new_one_on_an_old_pair_counts_from_zero():
    from ycsbctl.telemetry.wire import grown, parse_ss, wire_row

    def ss(*conns: tuple[int, str]) -> bytes:
        return b"".join(f"ESTAB 0 0 127.0.0.1:{port} 127.0.0.1:6379\n\t cubic {counters}\n".encode() for port, counters in conns)

    before = parse_ss(ss((50000, "bytes_sent:1000 bytes_received:5000 segs_out:10 segs_in:20"),
                         (50002, "bytes_sent:700 bytes_received:300 segs_out:7 segs_in:3"),  # closes
                         (50004, "bytes_sent:9000 bytes_received:9000 segs_out:90 segs_in:90")))  # closes, pair used again
    now = parse_ss(ss((50000, "bytes_sent:1300 bytes_received:5400 segs_out:13 segs_in:24"),  # +300 +400 +3 +4
                      (50004, "bytes_sent:50 bytes_received:9020 segs_out:2 segs_in:92"),  # a new one: all of it
                      (50006, "bytes_sent:11 bytes_received:22 segs_out:1 segs_in:2")))  # born since: all of it
    assert grown(before, now) == [300 + 50 + 11, 400 + 9020 + 22, 3 + 2 + 1, 4 + 92 + 2]
    assert grown(now, now) == [0, 0, 0, 0] and grown({}, now) == [1361, 14442, 16, 118]
    # per second over the interval: bytes both ways, segments both ways
    assert wire_row([300, 400, 3, 4], 2.0, 5, 0.05) == {"wire_bytes_per_s": 350.0, "wire_packets_per_s": 3.5,
                                                       "wire_connections": 5, "wire_minrtt_ms": 0.05}


def test_children_are_listed_at_the_first_read_and_then_every_nth_and_the_why_shares_read_junk_as_zero():
    """A child born after the first read is seen at the 3rd read with children_every=2 (reads 1, 3, 5 … list the
    children: a scan of /proc each) by the process sampler, at the 4th with children_every=3 (reads 1, 4, 7 …) by
    the thread sampler, at the 2nd with children_every=1."""
    import os
    import subprocess
    import sys

    from ycsbctl.telemetry.process import ProcessSampler
    from ycsbctl.telemetry.threads import ThreadSampler

    me = os.getpid()
    procs = ProcessSampler(me, include_children=True, children_every=2)
    threads = ThreadSampler(lambda: [me], "client", children_every=3)
    every = ProcessSampler(me, include_children=True, children_every=1)  # lists them at each read

    def seen(pid: int) -> tuple[bool, bool, bool]:
        return (pid in {p.pid for p in procs._current()}, pid in {p for p, _ in threads._processes()},
                pid in {p.pid for p in every._current()})

    seen(-1)  # the first read lists the children there are
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert [seen(child.pid) for _ in range(3)] == [(False, False, True), (True, False, True), (True, True, True)]
    finally:
        child.kill()
        child.wait()

    from ycsbctl.telemetry.why import _pct

    assert (_pct("n/a"), _pct(None), _pct([1]), _pct("12.5")) == (0.0, 0.0, 0.0, 12.5)


def test_a_quota_group_with_no_period_elapsed_since_the_last_read_was_held_back_in_none(tmp_path):
    """``throttled_pct`` is the share of the kernel's quota periods in which it held the processes back: between two
    reads where no period elapsed (the counters did not move) that is 0 %, not a division by zero, and where 4 of 8
    elapsed periods were throttled, 50 %. The group's ``cpu.stat`` is written here as the kernel lays it out."""
    import os

    from ycsbctl.telemetry.cpu_limit import CpuStat
    from ycsbctl.telemetry.process import ProcessSampler

    stat = tmp_path / "cpu.stat"
    stat.write_text("usage_usec 100\nnr_periods 10\nnr_throttled 3\nthrottled_usec 900\n")
    s = ProcessSampler(os.getpid(), interval_s=0.1)
    s.prime()
    s._group, s._throttle = tmp_path, CpuStat(10, 3, 900e-6)  # the group the quota pid's cgroup would be
    assert s.sample()["throttled_pct"] == 0.0
    stat.write_text("usage_usec 200\nnr_periods 18\nnr_throttled 7\nthrottled_usec 1800\n")
    row = s.sample()
    assert (row["throttled_pct"], row["quota_periods"], row["throttled_periods"]) == (50.0, 8, 4)
    assert row["throttled_s"] == pytest.approx(900e-6)


def test_a_records_bytes_are_the_servers_memory_else_its_dbstats_else_its_rss_growth_and_none_without_any():
    from ycsbctl.provision.base import Endpoint
    from ycsbctl.telemetry.footprint import footprint_of

    ep = Endpoint("t", "redis", "redis://127.0.0.1:1", "external")
    rss = {"rss_bytes": 1_000_000.0, "rss_source": "process"}
    # every figure given: the server's own memory (Redis's used_memory), 3,000 records grew it by 1,200,000 bytes
    fp = footprint_of(ep, {"db_memory_bytes": 800_000.0, "data_size_bytes": 5.0, **rss},
                      {"db_memory_bytes": 2_000_000.0, "data_size_bytes": 9.0, "rss_bytes": 4_600_000.0}, 3_000)
    assert (fp.bytes_per_record, fp.basis, fp.rss_bytes_per_record) == (400.0, "used_memory", 1_200.0)
    # no memory figure: dbStats' data + index sizes, (70,000 + 20,000 - 30,000 - 0) / 3,000
    fp = footprint_of(ep, {"data_size_bytes": 30_000.0, **rss},
                      {"data_size_bytes": 70_000.0, "index_size_bytes": 20_000.0, "rss_bytes": 4_600_000.0}, 3_000)
    assert (fp.bytes_per_record, fp.basis, fp.rss_bytes_per_record) == (20.0, "dbStats", 1_200.0)
    # only RSS: its growth, the empty server's RSS taken off
    fp = footprint_of(ep, rss, {"rss_bytes": 4_600_000.0, "rss_source": "process"}, 3_000)
    assert (fp.bytes_per_record, fp.basis, fp.rss_source) == (1_200.0, "rss", "process")
    # nothing read (a server that reports nothing, no process seen): no figure and no basis
    fp = footprint_of(ep, {}, {}, 3_000)
    assert (fp.bytes_per_record, fp.basis, fp.rss_bytes_per_record) == (None, None, None)


def test_an_intervals_wchan_adds_the_polls_looks_to_the_full_readings_most_looked_at_first():
    from ycsbctl.telemetry.threads import merge_wchan

    polled = {"futex_wait_queue": 2, "ep_poll": 1}
    # do_sys_poll seen only by the full reading keeps its 3 looks; futex 2 + 1; a part not "name=n" is left out
    assert merge_wchan(polled, "do_sys_poll=3;futex_wait_queue=1;junk;x=y") == \
        "futex_wait_queue=3;do_sys_poll=3;ep_poll=1"
    assert merge_wchan(polled, "") == "futex_wait_queue=2;ep_poll=1" and polled == {"futex_wait_queue": 2, "ep_poll": 1}
    assert merge_wchan({}, "a=1;b=4") == "b=4;a=1"


def test_a_client_spy_that_recorded_nothing_says_py_spys_error_line_and_a_flame_graph_that_failed_is_not_kept(tmp_path):
    import subprocess
    import sys

    import pytest

    from ycsbctl.telemetry import profiler

    spy, flame = profiler.tool("py-spy"), profiler.tool("inferno-flamegraph")
    if spy is None or flame is None:
        pytest.skip("needs py-spy and inferno-flamegraph")
    p = profiler.Profiler(tmp_path, [], lambda: [])
    # py-spy attached to a process that is gone writes its error, its causes and (RUST_BACKTRACE) a backtrace
    p._spies.append(subprocess.Popen([spy, "record", "--pid", "999999999", "--output", str(tmp_path / "client-1.folded")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={"RUST_BACKTRACE": "1"}))
    p._spies[0].wait(timeout=30)
    p._fold_client()
    assert p.profile.notes == ["client stacks: py-spy recorded nothing (Error: Failed to get process executable name. "
                               "Check that the process is running.)"], p.profile.notes
    # a spy whose words hold no "Error" line: its last line is said
    quiet = profiler.Profiler(tmp_path / "q", [], lambda: [])
    quiet._spies.append(subprocess.Popen([sys.executable, "-c", "import sys; sys.stderr.write('first\\nlast\\n')"],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
    quiet._spies[0].wait(timeout=30)
    quiet.folder.mkdir()
    quiet._fold_client()
    assert quiet.profile.notes == ["client stacks: py-spy recorded nothing (last)"], quiet.profile.notes
    assert (quiet.profile.server_samples, quiet.profile.client_samples) == (0, 0)  # nothing recorded: no samples
    # inferno given no stack it can read exits 1 with an SVG that says so on its output: a failure, no picture kept
    (tmp_path / "client.folded").write_text("not a stack\n")
    p._draw("client", "t")
    assert p.profile.files == [] and not (tmp_path / "client.svg").exists()
    assert p.profile.notes[-1].startswith("client flame graph: inferno-flamegraph failed ("), p.profile.notes


def test_a_stall_that_began_more_than_a_rounding_before_the_window_is_said_to_be_in_the_warm_up():
    from ycsbctl.telemetry.stall import Stall

    # 0.0503 s before the window reads 0.1 s before it; 0.05 s before (to float noise) rounds to its start
    assert Stall(4.0, 0.2, warmup_s=0.2503).began() == \
        "0.1 s before the measured window (in the warm-up; 3.9 s of it inside)"
    assert Stall(4.0, 0.2, warmup_s=0.25).began() == "0.0 s into the measured window"


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
        assert explain({**net, "evidence": {"throughput_ops": 10_000.0, "wire": missing}}, "redis") == "network: 100 Mbit/s"
    assert explain({**net, "evidence": {"throughput_ops": None, "wire": net["evidence"]["wire"]}}, "redis") == \
        "network: 100 Mbit/s"


def test_a_threads_switches_are_its_status_two_lines_and_none_without_them():
    from ycsbctl.telemetry.threads import ctxt_switches

    status = (b"Name:\tio_thd_1\nState:\tS (sleeping)\nTgid:\t41\nvoluntary_ctxt_switches:\t1234\n"
              b"nonvoluntary_ctxt_switches:\t56\nx86_Thread_features:\t0\nx86_Thread_features_locked:\t0\n")
    assert ctxt_switches(status) == (1234, 56)
    assert ctxt_switches(b"Name:\tx\nState:\tR (running)\nTgid:\t41\n") == (0, 0)  # a kernel that writes neither


def test_a_threads_reading_is_its_cpu_clock_its_kernel_ticks_and_its_own_switches():
    """A thread that spent 60 ms of CPU (reading /proc, so system time as well as user) then blocked on an
    event: its run time is its CPU clock (thread_time_ns, read just before it blocked; schedstat counts the
    same nanoseconds), its user and system seconds are psutil's reading of the same ticks, its switches at
    least those getrusage(RUSAGE_THREAD) counted before it blocked plus that block; and the thread that
    reads is running."""
    import os
    import resource
    import threading
    import time

    import psutil
    import pytest

    from ycsbctl.telemetry.threads import read_state, read_thread

    ready, release = threading.Event(), threading.Event()
    seen: dict = {}

    def work() -> None:
        t0 = time.thread_time()
        while time.thread_time() - t0 < 0.06:
            with open("/proc/self/stat", "rb") as f:
                f.read()
        seen.update(tid=threading.get_native_id(), rusage=resource.getrusage(resource.RUSAGE_THREAD),
                    run_ns=time.thread_time_ns())
        ready.set()
        release.wait()

    worker = threading.Thread(target=work)
    worker.start()
    try:
        ready.wait()
        pid, tid = os.getpid(), seen["tid"]
        while (read_state(pid, tid) or ("", ""))[0] != "lock":  # it blocked on the event
            time.sleep(0.001)
        r = read_thread(pid, tid, False)
        truth = next(t for t in psutil.Process().threads() if t.id == tid)
    finally:
        release.set()
        worker.join()
    assert r is not None and r.state == "lock" and "futex" in r.wchan
    assert seen["run_ns"] <= r.run_ns < seen["run_ns"] + 20_000_000
    assert (r.user_s, r.system_s) == (pytest.approx(truth.user_time), pytest.approx(truth.system_time))
    assert r.user_s + r.system_s > 0
    assert r.vcsw >= seen["rusage"].ru_nvcsw + 1 and seen["rusage"].ru_nivcsw <= r.ivcsw <= seen["rusage"].ru_nivcsw + 50
    me = read_thread(os.getpid(), threading.get_native_id(), True)
    assert me is not None and (me.role, me.state, me.wchan) == ("main", "running", "")
    # a main thread starts with its process: psutil's start time (boot time + stat's starttime / clock ticks)
    started = (psutil.Process().create_time() - psutil.boot_time()) * os.sysconf("SC_CLK_TCK")
    assert abs(me.start_ticks - started) <= 1 and me.start_ticks <= r.start_ticks, (me.start_ticks, started)
    assert read_state(os.getpid(), threading.get_native_id()) == ("running", "")  # the poll's one look at itself


def test_the_threads_whose_states_are_polled_are_those_that_ran_most_and_each_main_thread():
    from ycsbctl.telemetry.threads import STATE_THREADS, ThreadReading, ThreadSampler

    def reading(role: str, run_ns: int) -> ThreadReading:
        return ThreadReading(role, 0.0, 0.0, run_ns, 0, 0, 0)

    sampler = ThreadSampler(lambda: [], "server-threads")
    before = {(1, 1): reading("main", 1_000), (1, 2): reading("io", 1_000), (1, 3): reading("w", 1_000),
              (1, 9): reading("gone", 5)}
    now = {(1, 1): reading("main", 1_000),  # did not run: polled all the same (the main thread is a role alone)
           (1, 2): reading("io", 1_300), (1, 3): reading("w", 1_000),  # ran 300 ns; did not run
           (1, 4): reading("bio", 1), (1, 5): reading("x", 0)}  # born since: ran (if 1 ns); never ran
    sampler._choose_polled(now, before)
    assert sampler._polled == [(1, 2, "io", False), (1, 4, "bio", False), (1, 1, "main", True)]
    # more threads ran than are polled: the busiest STATE_THREADS
    now = {(2, t): reading("w", 1_000 * t) for t in range(1, STATE_THREADS + 3)}
    sampler._choose_polled(now, {})
    assert [tid for _, tid, _, _ in sampler._polled] == list(range(STATE_THREADS + 2, 2, -1))


def test_the_polls_count_each_threads_state_and_the_waits_kernel_function_and_close_ends_them():
    """A thread blocked on an event (a futex: lock) and one in select() (idle), polled 50 ms apart: every
    poll counts one state for each, the lock's kernel function as often, the idle one's not at all; a thread
    gone is skipped; close() returns once the poller has ended, its CPU counted."""
    import os
    import select
    import threading
    import time

    from ycsbctl.telemetry.threads import ThreadSampler

    release = threading.Event()
    r, w = os.pipe()
    tids: dict[str, int] = {}

    def locked() -> None:
        tids["lock"] = threading.get_native_id()
        release.wait()

    def idle() -> None:
        tids["idle"] = threading.get_native_id()
        select.select([r], [], [])

    threads = [threading.Thread(target=locked), threading.Thread(target=idle)]
    for t in threads:
        t.start()
    sampler = ThreadSampler(lambda: [], "client-threads", interval_s=0.25)
    try:
        while len(tids) < 2:
            time.sleep(0.001)
        time.sleep(0.02)  # both blocked
        pid = os.getpid()
        sampler._polled = [(pid, tids["lock"], "a", False), (pid, tids["idle"], "b", False), (pid, 2 ** 22 + 1, "c", False)]
        sampler._poller = poller = threading.Thread(target=sampler._poll_states)
        poller.start()
        deadline = time.monotonic() + 10
        while sum(sampler._states.get("a", {}).values()) < 2 and poller.is_alive() and time.monotonic() < deadline:
            time.sleep(0.005)
        sampler.close()
        assert not poller.is_alive()
    finally:
        release.set()
        os.write(w, b"x")
        for t in threads:
            t.join()
        os.close(r)
        os.close(w)
    n = sampler._states["a"]["lock"]
    assert n >= 2 and sampler._states == {"a": {"lock": n}, "b": {"idle": n}}
    (wchan, looks), = sampler._waits["a"].items()
    assert "futex" in wchan and looks == n and list(sampler._waits) == ["a"]
    assert sampler.child_cpu_s > 0


def test_a_thread_first_seen_counts_from_zero_if_it_started_in_the_tick_of_the_last_reading_or_after():
    from ycsbctl.telemetry.threads import ThreadReading, role_figures

    def first_seen(start_ticks: int) -> dict:
        return role_figures({}, {(1, 5): ThreadReading("x", 0.5, 0.0, 10**9, 0, 1, 0, start_ticks=start_ticks)}, 2.0, 10)

    assert first_seen(10)["x"]["oncpu_pct"] == 50.0 and first_seen(11)["x"]["threads"] == 1
    assert first_seen(9) == {}  # older: its counters hold time from before the interval


def test_a_why_names_one_thread_in_the_singular_and_several_with_their_count():
    from ycsbctl.telemetry.why import _who

    assert [_who("redis", "io_thd", {"threads": n}) for n in (1, 2, 3)] == [
        "redis's io_thd thread", "redis's io_thd threads (2)", "redis's io_thd threads (3)"]
    assert [_who("pg", "main", {"threads": n}) for n in (1, 2)] == ["pg's main thread", "pg's main threads"]
    assert _who("redis", "bio", {}) == _who("redis", "bio", {"threads": None}) == "redis's bio thread"  # not counted: one


def test_a_stall_that_began_in_the_warm_up_says_how_much_of_it_was_inside_the_window():
    from ycsbctl.telemetry.stall import Stall

    # from 4 s before the window: 6 s long, 2 s of it inside; 2 s long, none inside (never a negative part)
    assert Stall(6.0, 1.0, warmup_s=5.0).began() == "4.0 s before the measured window (in the warm-up; 2.0 s of it inside)"
    assert Stall(2.0, 1.0, warmup_s=5.0).began() == "4.0 s before the measured window (in the warm-up; 0.0 s of it inside)"
    # within 0.05 s of the window's start is its start (a tenth of a second is the figure's precision)
    assert Stall(3.0, 0.0, warmup_s=0.05).began() == "0.0 s into the measured window"
    assert Stall(3.0, 0.0, warmup_s=0.0503).began().startswith("0.1 s before the measured window")
    assert Stall(3.0, 7.0, warmup_s=2.0).text() == "no reply for 3.0 s, from 5.0 s into the measured window"


def test_a_paced_points_silence_is_a_stall_when_half_its_heard_seconds_but_one_were_busy():
    import math

    import pandas as pd

    from ycsbctl.telemetry.stall import find_stall

    def series(ops: list[int], timeouts: list[float] | None) -> pd.DataFrame:
        cols = {"second": range(len(ops)), "op": "OVERALL", "operations": ops, "max_us": 1_000.0, "warmup": False}
        return pd.DataFrame({**cols, **({"timeouts": timeouts} if timeouts is not None else {})})

    # heard in 5 seconds, 2 of them busy (5 operations or more): 2 x 2 >= 5 - 1, so the 3 silent seconds are a stall
    # (the one reply of second 6 ends it)
    ops = [500, 500, 3, 0, 0, 0, 1, 3]
    for timeouts in (None, [math.nan] * 8, [0.0] * 8):  # no timeouts column, or none known: none
        stall = find_stall(series(ops, timeouts), paced=True)
        assert stall is not None and (stall.seconds, stall.from_s) == (3.0, 3.0), (timeouts, stall)
    # a silence no longer than 1.5 x the median latency is the operations' own length: 3 s with a median of 2 s
    assert find_stall(series(ops, None), paced=True, typical_s=2.0) is None
    assert find_stall(series(ops, None), paced=True, typical_s=1.99) is not None
    # one quiet second more (heard in 6): too few busy ones for a paced point's silence to prove anything
    assert find_stall(series([500, 500, 3, 3, 0, 0, 0, 3, 3], None), paced=True) is None


def test_a_perf_that_recorded_nothing_or_an_empty_file_says_perfs_last_words(tmp_path):
    import subprocess
    import sys

    from ycsbctl.telemetry import profiler

    def folded(data: bytes | None) -> list[str]:
        folder = tmp_path / str(len(list(tmp_path.iterdir())))
        folder.mkdir()
        p = profiler.Profiler(folder, [], lambda: [])
        p._perf = subprocess.Popen([sys.executable, "-c", "import sys; sys.stderr.write('x\\nperf: not permitted\\n')"],
                                   stderr=subprocess.PIPE)
        p._perf.wait(timeout=30)
        if data is not None:
            (folder / "server.perf.data").write_bytes(data)
        p._fold_server()
        return p.profile.notes

    said = ["server stacks: perf recorded nothing (perf: not permitted; perf_event_paranoid, a container's seccomp "
            "or a missing CAP_PERFMON can forbid it)"]
    assert folded(None) == folded(b"") == said


def test_a_port_two_processes_listen_on_is_the_lowest_pids():
    import os
    import socket
    import subprocess
    import sys

    from ycsbctl.telemetry.process import listener_of

    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        code = ("import socket, sys, time; s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1); "
                f"s.bind(('127.0.0.1', {port})); s.listen(); print('up', flush=True); time.sleep(30)")
        child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
        try:
            assert child.stdout is not None and child.stdout.readline() == b"up\n"
            assert listener_of(port) == min(os.getpid(), child.pid)
        finally:
            child.kill()
            child.wait()


def test_the_wire_minrtt_is_the_mean_of_the_connections_smallest_round_trips(tmp_path):
    """Three connections whose smallest round trips are 0.02, 0.04 and 0.24 ms (as ``ss`` prints them, read
    by the sampler through its own child process): 0.1 ms, their mean — not the smallest (0.02) nor the
    middle one (0.04)."""
    import statistics

    from ycsbctl.telemetry.wire import WireSampler

    text = "".join(f"ESTAB 0 0 127.0.0.1:{5000 + i} 127.0.0.1:6379\n\t cubic rtt:0.3/0.1 minrtt:{m} bytes_sent:{i}\n"
                   for i, m in enumerate(("0.02", "0.04", "0.24")))
    (tmp_path / "ss.out").write_text(text)
    ss = tmp_path / "ss"
    ss.write_text(f"#!/bin/sh\ncat {tmp_path / 'ss.out'}\n")
    ss.chmod(0o755)
    sampler = WireSampler([6379])
    sampler._ss = str(ss)  # the output of ss with these three connections open, every time it is asked
    sampler.prime()
    row = sampler.sample()
    assert row["wire_minrtt_ms"] == pytest.approx(statistics.mean([0.02, 0.04, 0.24])) == pytest.approx(0.1)
    assert row["wire_connections"] == 3

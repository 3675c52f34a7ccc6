"""The thread sampler (telemetry/threads.py): a thread's reading from its /proc files, which threads are
polled, what the polls count, and each role's figures."""

from __future__ import annotations


def test_an_intervals_wchan_adds_the_polls_looks_to_the_full_readings_most_looked_at_first():
    from ycsbctl.telemetry.threads import merge_wchan

    polled = {"futex_wait_queue": 2, "ep_poll": 1}
    # do_sys_poll seen only by the full reading keeps its 3 looks; futex 2 + 1; a part not "name=n" is left out
    assert merge_wchan(polled, "do_sys_poll=3;futex_wait_queue=1;junk;x=y;=5") == \
        "futex_wait_queue=3;do_sys_poll=3;ep_poll=1"
    assert merge_wchan(polled, "") == "futex_wait_queue=2;ep_poll=1" and polled == {"futex_wait_queue": 2, "ep_poll": 1}
    assert merge_wchan({}, "a=1;b=4") == "b=4;a=1"


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
    assert (
        r.vcsw >= seen["rusage"].ru_nvcsw + 1 and seen["rusage"].ru_nivcsw <= r.ivcsw <= seen["rusage"].ru_nivcsw + 50
    )
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
        sampler._polled = [(pid, tids["lock"], "a", False), (pid, tids["idle"], "b", False),
                           (pid, 2 ** 22 + 1, "c", False)]
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
        return role_figures({}, {(1, 5): ThreadReading("x", 0.5, 0.0, 10**9, 0, 1, 0, start_ticks=start_ticks)}, 2.0,
                            10)

    assert first_seen(10)["x"]["oncpu_pct"] == 50.0 and first_seen(11)["x"]["threads"] == 1
    assert first_seen(9) == {}  # older: its counters hold time from before the interval


def test_thread_figures_are_each_counters_change_and_the_threads_in_each_state():
    from ycsbctl.telemetry.threads import ThreadReading, role_figures
    before = {(1, 1): ThreadReading("io", 2.0, 1.5, 9_000_000_000, 700_000_000, 100, 40, start_ticks=5),
              (1, 2): ThreadReading("io", 1.0, 0.5, 4_000_000_000, 100_000_000, 10, 4, start_ticks=5)}
    after = {(1, 1): ThreadReading("io", 2.5, 1.75, 9_900_000_000, 900_000_000, 130, 45, "running", "", 5),
             # a counter that went back (a reused tid) adds nothing, not a nanosecond
             (1, 2): ThreadReading("io", 0.75, 0.25, 3_000_000_000, 50_000_000, 9, 3, "lock", "futex_wait", 5),
             # born after: every counter from zero (none at 0, so that a start of 1 would show)
             (1, 3): ThreadReading("io", 0.25, 0.125, 200_000_000, 40_000_000, 3, 2, "lock", "futex_wait", 20),
             (1, 4): ThreadReading("io", 50.0, 9.0, 1, 1, 1, 1, "idle", "ep_poll", 1)}  # older, first seen: not counted
    fig = role_figures(before, after, 2.0, since_ticks=10)["io"]
    assert fig["threads"] == 3 and (fig["wait_running"], fig["wait_lock"], fig["wait_idle"],
                                    fig["wait_io"]) == (1, 2, 0, 0)
    assert fig["wchan"] == "futex_wait=2"
    assert fig["oncpu_pct"] == 45.0 + 0.0 + 10.0 and fig["busiest_pct"] == 100 * 0.9 / 2
    assert (fig["user_pct"], fig["system_pct"]) == (25.0 + 0.0 + 12.5, 12.5 + 0.0 + 6.25)
    assert fig["runq_pct"] == 10.0 + 0.0 + 2.0 and (fig["vcsw_per_s"], fig["ivcsw_per_s"]) == (33 / 2, 7 / 2)


def test_a_processes_children_are_read_whole_however_long_their_list(tmp_path):
    """The children of this process, against psutil's scan of /proc; and a file longer than one read
    (9,988 bytes: three reads of 4,096) comes back whole."""
    import os
    import subprocess
    import sys

    import psutil

    from ycsbctl.telemetry.threads import _children, read_whole

    long = tmp_path / "long"
    long.write_bytes(bytes(range(256)) * 39 + b"end!")
    assert read_whole(str(long)) == long.read_bytes() and len(long.read_bytes()) == 9_988
    kids = [subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"]) for _ in range(2)]
    try:
        assert sorted(_children(os.getpid())) == sorted(p.pid for p in psutil.Process().children(recursive=True))
        assert {k.pid for k in kids} <= set(_children(os.getpid()))
    finally:
        for k in kids:
            k.kill()
            k.wait()


def test_a_thread_whose_wchan_reads_0_is_on_a_run_queue_where_the_kernel_shows_its_processes_wchan(monkeypatch):
    """wchan reads "0" for a thread on a run queue: running, or preempted between saying it would sleep and sleeping
    (its stat still says S: a busy host's Redis main thread, at every other look). Once any thread of its process
    was seen asleep in a named function, "0" counts it running; for a process whose wchan the kernel never showed
    (another user's server, no symbols) it stays an ``other`` wait."""
    from ycsbctl.telemetry import threads

    def reads(*said: bytes):
        files = iter(said)

        def read_file(path: str, size: int = 4096) -> bytes:
            assert path.endswith(("/stat", "/wchan")), path
            return next(files)

        monkeypatch.setattr(threads, "read_file", read_file)

    def stat(letter: str) -> bytes:
        return f"7 (redis-server) {letter} 1 7 7 0 -1 4194560 9 0 0 0 5 3 0 0 20 0 5 0 100 1 1".encode()

    monkeypatch.setattr(threads, "_SHOWN", set())
    reads(stat("S"), b"0")
    assert threads.read_state(7, 7) == ("other", "")  # nothing of process 7 seen named yet
    reads(stat("S"), b"futex_do_wait\n")  # its background thread
    assert threads.read_state(7, 9) == ("lock", "futex_do_wait")
    reads(stat("S"), b"0")
    assert threads.read_state(7, 7) == ("running", "")
    reads(stat("S"), b"do_epoll_wait")
    assert threads.read_state(7, 7) == ("idle", "do_epoll_wait")
    reads(stat("R"))
    assert threads.read_state(7, 7) == ("running", "")
    reads(stat("S"), b"0")
    assert threads.read_state(8, 8) == ("other", "")  # another process: never seen named

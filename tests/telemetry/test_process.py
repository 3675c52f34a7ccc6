"""The process sampler (telemetry/process.py): when it lists a process's children, the quota group's
throttled share, and the listener of a port."""

from __future__ import annotations

import pytest


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
        code = ("import socket, sys, time; s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, "
                "1); "
                f"s.bind(('127.0.0.1', {port})); s.listen(); print('up', flush=True); time.sleep(30)")
        child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
        try:
            assert child.stdout is not None and child.stdout.readline() == b"up\n"
            assert listener_of(port) == min(os.getpid(), child.pid)
        finally:
            child.kill()
            child.wait()


def test_children_are_listed_at_the_first_read_and_every_third_after_it():
    """children_every=3: the reads that list the children are the 1st (the priming), the 4th, the 7th…; a
    child born after the 2nd read is counted from the 4th on (this process is the sampled one)."""
    import os
    import subprocess
    import sys

    from ycsbctl.telemetry.process import ProcessSampler

    sampler = ProcessSampler(os.getpid(), "server-process", 1.0, children_every=3)
    sampler.prime()
    base = sampler.sample()["processes"]  # read 2
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert [sampler.sample()["processes"] for _ in range(3)] == [base, base + 1, base + 1]  # reads 3, 4, 5
    finally:
        child.kill()
        child.wait()


def test_a_processs_cgroup_and_its_ancestors_are_found_under_the_mount_inside_a_cgroup_namespace():
    from pathlib import Path

    from ycsbctl.telemetry.cpu_limit import _dirs

    mount = Path("/sys/fs/cgroup")
    # the namespace's root is /a: /proc names the process's cgroup from the host's root, the mount shows /a's inside
    assert _dirs(mount, "/a", "/a/b/c") == [mount / "b" / "c", mount / "b", mount]
    assert _dirs(mount, "/a", "/a") == [mount]
    assert _dirs(mount, "/", "/b/c") == [mount / "b" / "c", mount / "b", mount]
    assert _dirs(mount, "/a", "/ab/c") == [mount / "ab" / "c", mount / "ab", mount]  # /ab is not under /a

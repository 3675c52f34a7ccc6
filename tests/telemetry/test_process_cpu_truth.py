"""The process sampler's CPU (telemetry/process.py) against the kernel's own counts read while every
process is blocked, so that the two readings are of the same counters: a child seen at priming and
reaped in the span counts only its CPU after the priming; a child first seen late and reaped counts
once; the quota's throttled share is the cgroup's own ``cpu.stat``, for a fixed PID and for a PID
source with ``quota_pid``."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import psutil
import pytest

from tests.fixtures.cgroups import cpu_quota
from ycsbctl.telemetry.process import ProcessSampler

SPIN_AFTER_S = 0.2  # the CPU seconds the child spins after the priming (by its own process_time: at any speed)
TICK_S = 1 / os.sysconf("SC_CLK_TCK")  # the kernel counts CPU in ticks

# A parent that, on "fork", starts a child spinning 0.3 s of CPU then waiting on a pipe; on "go", lets
# the child spin SPIN_AFTER_S more and exit, reaps it (wait4) and prints the child's CPU from the rusage.
_PARENT = r"""
import os, sys, time

def spin(s):
    t = time.process_time()
    while time.process_time() - t < s:
        pass

r, w = os.pipe()
child = 0
for line in sys.stdin:
    if line.strip() == "fork":
        child = os.fork()
        if child == 0:
            spin(0.3)
            print("spun", time.process_time(), flush=True)
            os.read(r, 1)
            spin(SPIN_AFTER_S)
            os._exit(0)
    elif line.strip() == "ping":  # started, and about to block again
        print("pong 0", flush=True)
    elif line.strip() == "go":
        os.write(w, b"x")
        _, _, ru = os.wait4(child, 0)
        print("reaped", ru.ru_utime + ru.ru_stime, flush=True)
""".replace("SPIN_AFTER_S", repr(SPIN_AFTER_S))


def _total(pid: int) -> float:
    """The process's CPU seconds with its reaped children's, as /proc gives them."""
    t = psutil.Process(pid).cpu_times()
    return t.user + t.system + t.children_user + t.children_system


def _say(proc: subprocess.Popen, line: str, expect: str) -> float:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(line + "\n")
    proc.stdin.flush()
    word, value = proc.stdout.readline().split()
    assert word == expect
    return float(value)


def _cpu_s(sampler: ProcessSampler) -> float:
    """One sample's CPU seconds: its CPU % times its own interval."""
    t0 = sampler._t_last
    row = sampler.sample()
    return row["cpu_pct"] / 100 * (sampler._t_last - t0)


@pytest.fixture
def parent():
    proc = subprocess.Popen([sys.executable, "-c", _PARENT], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    yield proc
    proc.kill()
    proc.wait()


def test_a_child_seen_at_priming_and_reaped_counts_only_its_cpu_after_the_priming(parent):
    """CPU % × the interval is the parent's growth (own + reaped) less the child's CPU at the priming,
    exactly (every process is blocked while the sampler and the test read); the child's own rusage
    and process_time agree to the kernel's tick."""
    at_spun = _say(parent, "fork", "spun")
    child = psutil.Process(parent.pid).children()[0]
    before, child_before = _total(parent.pid), sum(child.cpu_times()[:2])
    sampler = ProcessSampler(parent.pid, "server-process", 1.0, children_every=1)
    sampler.prime()
    reaped = _say(parent, "go", "reaped")
    truth = _total(parent.pid) - before - child_before
    assert _cpu_s(sampler) == pytest.approx(truth, rel=1e-9, abs=1e-9)
    assert truth == pytest.approx(reaped - at_spun, abs=0.03)  # 0.2 s spun after the priming, by its own clock
    assert truth >= SPIN_AFTER_S - TICK_S - 1e-9  # what it spun, less a tick, whatever the ticks' float sum rounds to


def test_a_child_first_seen_late_and_reaped_counts_once(parent):
    """Children listed every second read: a child born after the priming is first seen one read late,
    its CPU until then left for its parent's reaped count; over the reads, the CPU summed is the parent's
    growth (own + reaped), exactly, not less what was never counted."""
    sampler = ProcessSampler(parent.pid, "server-process", 1.0, children_every=2)
    _say(parent, "ping", "pong")  # its start-up's CPU done before the span
    before = _total(parent.pid)
    sampler.prime()
    _say(parent, "fork", "spun")
    summed = _cpu_s(sampler)  # not listed yet
    summed += _cpu_s(sampler)  # listed: its CPU so far is its parent's to report once reaped
    reaped = _say(parent, "go", "reaped")
    summed += _cpu_s(sampler)
    truth = _total(parent.pid) - before
    assert summed == pytest.approx(truth, rel=1e-9, abs=1e-9)
    assert truth >= reaped - 0.02 >= 0.45


def test_the_throttled_share_is_the_cgroups_own_for_a_fixed_pid_and_for_a_pid_source_with_quota_pid():
    spin = "while True: pass"
    with cpu_quota(0.2, period_us=20_000) as group:
        spinner = subprocess.Popen([sys.executable, "-c", spin], preexec_fn=group.preexec)
        try:
            samplers = [ProcessSampler(spinner.pid, "server-process", 0.5),
                        ProcessSampler(lambda: [spinner.pid], "client-process", 0.5, quota_pid=spinner.pid)]
            time.sleep(0.2)
            s0 = group.stat()
            for s in samplers:
                s.prime()
            time.sleep(0.6)
            rows = [s.sample() for s in samplers]
            s1 = group.stat()
        finally:
            spinner.kill()
            spinner.wait()
    periods = s1["nr_periods"] - s0["nr_periods"]
    truth = 100 * (s1["nr_throttled"] - s0["nr_throttled"]) / periods
    assert periods >= 20 and truth > 30  # a spinner under a fifth of a core is held back in most periods
    for row in rows:
        assert row["throttled_pct"] == pytest.approx(truth, abs=100 * 3 / periods)

"""The host's CPU (telemetry/host.py): /proc/stat's seconds per kind, each process's change, and the scan
read as psutil reads a process."""

from __future__ import annotations

from pathlib import Path


def test_the_hosts_cpu_seconds_are_procs_user_plus_nice_and_system_plus_interrupts():
    import psutil

    from ycsbctl.telemetry.host import cpu_times
    ours, theirs = cpu_times(), psutil.cpu_times()
    ours_after = cpu_times()
    slack = ours_after["user"] + ours_after["system"] + ours_after["idle"] + ours_after["iowait"] \
        - ours["user"] - ours["system"] - ours["idle"] - ours["iowait"] + 0.05 * (psutil.cpu_count() or 1)
    for key, truth in [("user", theirs.user + theirs.nice), ("system", theirs.system + theirs.irq + theirs.softirq),
                       ("idle", theirs.idle), ("iowait", theirs.iowait), ("steal", theirs.steal)]:
        assert ours[key] - slack <= truth <= ours_after[key] + slack, (key, ours[key], truth)


def test_the_hosts_cpu_seconds_from_a_stat_line_whose_every_field_differs():
    import os

    from ycsbctl.telemetry.host import cpu_times_of
    tick = 1.0 / os.sysconf("SC_CLK_TCK")
    got = cpu_times_of(b"cpu  1000 70 500 90000 200 30 11 5 0 0\ncpu0 1 2 3 4 5 6 7 8 9 10\nintr 1\n")
    assert got == {"user": 1000 * tick + 70 * tick, "system": 500 * tick + 30 * tick + 11 * tick,
                   "idle": 90000 * tick, "iowait": 200 * tick, "steal": 5 * tick}
    old = cpu_times_of(b"cpu  1000 70 500 90000\n")  # a kernel before iowait: the rest are zeros
    assert (old["user"], old["iowait"], old["steal"]) == (1000 * tick + 70 * tick, 0.0, 0.0)


def test_the_hosts_scan_reads_a_process_as_psutil_does_and_its_shares_add_up_to_the_cores(monkeypatch):
    """scan(): a child's name, parent, user + system CPU (it spent 0.2 s of CPU reading /dev/urandom, so
    its system time is large, its waited children's none) and start, as psutil reads them; a HostSampler's
    five shares of the host's CPU over an interval add up to 100 % per core; with no busy-share setting the
    default 10 %."""
    import os
    import subprocess
    import sys
    import time

    import psutil

    from ycsbctl.telemetry.host import (
        HOST_BUSY_ENV,
        HOST_BUSY_SHARE,
        HostSampler,
        host_busy_share,
        in_container,
        scan,
    )

    busy = ("import os, time\nf = open('/dev/urandom', 'rb', 0)\nwhile time.process_time() < 0.2:\n"
            "    f.read(1 << 20)\n"
            "print('done', flush=True)\ntime.sleep(30)\n")
    child = subprocess.Popen([sys.executable, "-c", busy], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline() == "done\n"
        p = psutil.Process(child.pid)
        name, ppid, cpu_s, start = scan()[child.pid]
        t = p.cpu_times()
        assert (name, ppid) == (p.name(), os.getpid()) and t.system > 0.08
        tick = 1 / os.sysconf("SC_CLK_TCK")  # /proc counts CPU time and start times in the kernel's clock ticks
        assert abs(cpu_s - (t.user + t.system)) <= 2 * tick  # two reads of one counter, each to a tick
        assert abs(psutil.boot_time() + start / os.sysconf("SC_CLK_TCK") - p.create_time()) <= tick
    finally:
        child.kill()
        child.wait()
    sampler = HostSampler(lambda: [])
    sampler.prime()
    time.sleep(0.3)
    row = sampler.sample()
    total = sum(row[f"host_{k}_pct"] for k in ("user", "system", "iowait", "steal", "idle"))
    cores = psutil.cpu_count()
    assert 0.8 * 100 * cores <= total <= 1.2 * 100 * cores, (total, cores)
    for part in ("ours", "kernel", "foreign"):  # each a part of what the host ran: none above all its cores
        assert 0.0 <= row[f"{part}_pct"] <= 1.2 * 100 * cores, (part, row)
    mine = Path(f"/proc/{os.getpid()}/cgroup").read_text().split("\n")[0]  # this process's own cgroup line
    assert in_container(os.getpid(), [mine]) and not in_container(os.getpid(), ["0123456789abcdef-not-here"])
    monkeypatch.delenv(HOST_BUSY_ENV, raising=False)
    assert host_busy_share() == HOST_BUSY_SHARE


def test_the_hosts_cpu_per_kind_is_each_processes_change_and_a_new_ones_all():
    from ycsbctl.telemetry.host import cpu_use, descendants

    # pid -> (name, parent, CPU s, start tick)
    before = {1: ("systemd", 0, 5.0, 10), 2: ("kthreadd", 0, 0.0, 10), 50: ("kworker/0:1", 2, 1.0, 20),
              100: ("ycsbctl", 1, 3.0, 100), 101: ("python", 100, 2.0, 110), 200: ("stress", 1, 10.0, 300),
              300: ("redis-server", 1, 4.0, 400), 400: ("old", 1, 7.0, 500), 600: ("gone", 1, 9.0, 500)}
    now = {1: ("systemd", 0, 5.0, 10),  # did not run: not named
           2: ("kthreadd", 0, 0.0, 10), 50: ("kworker/0:1", 2, 1.25, 20),  # the kernel's: +0.25
           100: ("ycsbctl", 1, 3.5, 100), 101: ("python", 100, 2.75, 110),  # ours: +0.5, +0.75
           200: ("stress", 1, 11.5, 300),  # foreign: +1.5
           300: ("redis-server", 1, 4.5, 400),  # ours by is_ours (a container's): +0.5
           400: ("stress", 1, 0.125, 900),  # PID 400 used again by another process: all of its 0.125
           500: ("cc1", 1, 0.375, 950)}  # started since: all of it
    kernel, ours = descendants([2], now), descendants([0, 100], now)  # (0: no such root)
    assert (kernel, ours) == ({2, 50}, {100, 101})
    used, foreign = cpu_use(before, now, kernel, lambda pid: pid in ours or pid == 300)
    assert used == {"ours": 0.5 + 0.75 + 0.5, "kernel": 0.25, "foreign": 1.5 + 0.125 + 0.375}
    assert foreign == {"stress": 1.625, "cc1": 0.375}


def _spinner(prefix: list[str], name: str) -> int:
    """A process named ``name`` that spins on a CPU for at most 20 s, started under ``prefix`` and left to
    init (not this process's descendant, so only its network namespace can make it ours): its pid."""
    import shlex
    import subprocess
    import sys

    code = (f"open('/proc/self/comm', 'w').write({name!r})\nimport time\nend = time.time() + 20\n"
            "while time.time() < end:\n    pass\n")
    sh = f"{shlex.join([sys.executable, '-c', code])} >/dev/null 2>&1 & echo $!"
    out = subprocess.run([*prefix, "sh", "-c", sh], capture_output=True, text=True, timeout=30, check=True)
    return int(out.stdout.split()[0])


def test_a_process_on_a_lab_host_is_ours_and_one_on_this_host_is_another_program(tmp_path):
    """Two spinners, neither this process's descendant: one on the lab's server host (``ip netns exec``), one on
    this machine's own network. ``ip netns identify`` (iproute2, not our reading) says which is on the lab's
    host; the host sampler counts that one as ours, the other as a foreign program by its name."""
    import os
    import shutil
    import signal
    import subprocess
    import time

    import psutil
    import pytest

    from ycsbctl.provision.lab import Lab, lab_namespaces
    from ycsbctl.telemetry.host import HostSampler, net_namespace

    if shutil.which("ip") is None or os.geteuid() != 0:
        pytest.skip("the namespace lab needs `ip` and root")
    lab = Lab(clients=0, logs=str(tmp_path)).make_hosts()
    pids: list[int] = []
    try:
        pids += [_spinner(lab.exec_argv("srv"), "labspin"), _spinner([], "hostspin")]
        named = {subprocess.run(["ip", "netns", "identify", str(p)], capture_output=True, text=True).stdout.strip()
                 for p in pids}
        assert named == {lab.ns("srv"), ""}, named  # the truth: one on the lab's host, one on none of its hosts
        assert net_namespace(pids[0]) in lab_namespaces() and net_namespace(pids[1]) not in lab_namespaces()
        sampler = HostSampler(lambda: [])
        sampler.prime()
        used = [psutil.Process(p).cpu_times() for p in pids]
        while min(sum(psutil.Process(p).cpu_times()[:2]) - sum(u[:2]) for p, u in zip(pids, used)) < 0.3:
            time.sleep(0.05)  # until each has run 0.3 s of CPU since the prime
        row = sampler.sample()
        top = dict(kv.split("=") for kv in (row["foreign_top"] or "").split(";") if kv)
        assert "hostspin" in top and "labspin" not in top, row
    finally:
        for p in pids:
            os.kill(p, signal.SIGKILL)
        lab.down()
    assert not {lab.ns("srv"), lab.ns("sw")} & set(os.listdir("/var/run/netns"))

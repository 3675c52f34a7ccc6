"""Where a process's time went, per thread: checked against threads whose work the test chose (a spinner
in user space, a thread in system calls, two spinners sharing one CPU, threads asleep on a lock, a timer
and a socket), and the host's foreign CPU against a CPU hog that is not ours."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.fixtures.waiting import wait_until
from ycsbctl.telemetry.host import HostSampler
from ycsbctl.telemetry.threads import ThreadSampler, read_thread, role_figures

# Threads named through prctl(PR_SET_NAME) so that their roles are known; each does one kind of work
# outside the GIL (hashing a large block, reading /dev/zero, waiting), so that none waits on another.
_WORKERS = r"""
import ctypes, hashlib, os, socket, sys, threading, time
libc = ctypes.CDLL(None)
def named(name, body):
    def run():
        libc.prctl(15, name.encode(), 0, 0, 0)
        body()
    threading.Thread(target=run, daemon=True).start()
BLOCK = bytes(8 << 20)
def spin():  # hashing a large block releases the GIL: the threads spin in parallel
    while True:
        hashlib.sha256(BLOCK).digest()
def syscalls():
    fd = os.open("/dev/zero", os.O_RDONLY)
    while True:
        os.read(fd, 65536)
held = threading.Lock(); held.acquire()
a, b = socket.socketpair()
named("spinner", spin)
named("syscaller", syscalls)
named("locked", held.acquire)
named("sleeper", lambda: time.sleep(3600))
named("reader", lambda: a.recv(1))
if sys.argv[1:] == ["pinned"]:
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    named("pair", spin); named("pair", spin)
print("ready", flush=True)
time.sleep(3600)
"""


@pytest.fixture(scope="module")
def workers() -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", _WORKERS, "pinned"], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    yield proc
    proc.kill()
    proc.wait()


def _roles(pid: int, seconds: float = 1.0) -> dict[str, dict]:
    s = ThreadSampler(lambda: [pid], "server-threads", include_children=False)
    s.prime()
    before, t0 = s.read_all(), time.monotonic()
    time.sleep(seconds)
    return role_figures(before, s.read_all(), time.monotonic() - t0)


def test_user_and_kernel_time_and_cpu_waits_are_each_threads_own(workers: subprocess.Popen) -> None:
    roles = _roles(workers.pid)
    spinner, syscaller, pair = roles["spinner"], roles["syscaller"], roles["pair"]
    # the spinner never enters the kernel; the reader of /dev/zero spends its time there
    assert spinner["user_pct"] > spinner["system_pct"]
    assert syscaller["system_pct"] / (syscaller["user_pct"] + syscaller["system_pct"]) > \
        spinner["system_pct"] / (spinner["user_pct"] + spinner["system_pct"])
    # two spinners on one CPU: each waits for it about as long as the other runs
    assert pair["threads"] == 2
    assert pair["runq_pct"] >= 0.5 * pair["oncpu_pct"]
    assert pair["busiest_pct"] <= pair["oncpu_pct"]
    # the idle ones ran (almost) nothing
    assert roles["sleeper"]["oncpu_pct"] < 0.1 * spinner["oncpu_pct"]


def test_a_sleeping_thread_is_told_apart_by_what_it_waits_on(workers: subprocess.Popen) -> None:
    found = {}
    for tid in os.listdir(f"/proc/{workers.pid}/task"):
        r = read_thread(workers.pid, int(tid), main=False)
        if r is not None:
            found[r.role] = r.state
    assert found["locked"] == "lock"
    assert found["sleeper"] == "sleep"
    assert found["reader"] == "idle"


SPIN_30_S = "import time\nend = time.time() + 30\nwhile time.time() < end: pass"  # ends by itself if a test dies


def test_a_cpu_hog_that_is_not_ours_is_named_and_ours_are_not(tmp_path: Path) -> None:
    """Two spinners under names of their own (links to the interpreter: a process is named after the
    file it runs): ``foreignhog`` started through ``setsid -f`` (its parent gone at once, so not a
    descendant of this process), ``ourspinner`` a child of ours. Only the first is foreign."""
    for name in ("foreignhog", "ourspinner"):
        (tmp_path / name).symlink_to(sys.executable)
    pidfile = tmp_path / "hog.pid"
    subprocess.run(["setsid", "-f", "sh", "-c", f"echo $$ > {pidfile}; exec {tmp_path}/foreignhog -c '{SPIN_30_S}'"],
                   check=True)
    wait_until(lambda: pidfile.exists() and pidfile.read_text().strip(), 10, "the foreign hog to start")
    hog = int(pidfile.read_text())
    ours = subprocess.Popen([str(tmp_path / "ourspinner"), "-c", SPIN_30_S])
    try:
        s = HostSampler(lambda: [], interval_s=0.5, top=10_000)  # every foreign program, however busy the host
        s.start()
        time.sleep(1.6)
        frame = s.stop()
    finally:  # both always stopped, whatever happened to the other
        ours.kill()
        ours.wait()
        with contextlib.suppress(ProcessLookupError):
            os.kill(hog, signal.SIGKILL)
    tops = ";".join(frame["foreign_top"].dropna())
    assert "foreignhog=" in tops
    assert "ourspinner" not in tops
    assert frame["ours_pct"].mean() > 0

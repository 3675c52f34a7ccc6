"""A lab of hosts made of Linux network namespaces, for tests and for rehearsing a multi-host plan.

Hosts (one network namespace each, joined by veth pairs to a bridge that lives in a namespace of
its own, so nothing is added to this host's own network)::

    ctl  198.18.0.2   the Dask scheduler, and where ``ycsbctl run --cluster`` runs
    srv  198.18.0.10  redis-server :6379, mongo-wire :27017 when given, iperf3 -s (network baseline)
    c1   198.18.0.21  dask worker
    c2   198.18.0.22  dask worker

Addresses come from 198.18.0.0/15 (reserved for network benchmarking, RFC 2544) and exist only
inside these namespaces. ``link`` shapes the server's link with ``tc tbf`` in both directions (the
kernel here has tbf but no netem). Every name carries a random tag, so two labs never collide;
:meth:`Lab.down` stops every process and deletes every namespace (deleting a namespace removes its
veth ends and the bridge). The lab's state (namespaces, pids) is a JSON file, so ``ycsbctl lab down``
removes a lab that ``ycsbctl lab up`` left running.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ycsbctl.errors import UserError
from ycsbctl.processes import interrupts_kept
from ycsbctl.provision.state import write_json

NET = "198.18.0"  # /24 inside 198.18.0.0/15
ADDRESSES = {"ctl": f"{NET}.2", "srv": f"{NET}.10", "c1": f"{NET}.21", "c2": f"{NET}.22", "c3": f"{NET}.23"}
SCHEDULER_PORT = 8786
REDIS_PORT = 6379
MONGO_PORT = 27017
IPERF_PORT = 5201
_RATE = re.compile(r"^(\d+(?:\.\d+)?)(k|m|g)?bit$", re.IGNORECASE | re.ASCII)
NETNS_DIR = "/var/run/netns"  # where `ip netns add` binds a namespace's file
_LAB_NS = re.compile(r"^yl[0-9a-f]+-[a-z0-9]+$")  # Lab.ns(): yl<tag>-<host>


def parse_rate(text: str) -> str:
    """``1.29gbit``, ``200mbit`` → the same, checked, in the spelling ``tc`` takes."""
    m = _RATE.match(text.strip())
    if not m or float(m.group(1)) <= 0:
        raise UserError(f"--link {text!r}: write a rate such as 200mbit or 1.29gbit")
    return text.strip().lower()


def lab_namespaces(folder: str = NETNS_DIR) -> set[tuple[int, int]]:
    """The (device, inode) of every network namespace a lab made (``<folder>/yl<tag>-<host>``, any lab's):
    a process whose ``/proc/PID/ns/net`` has one of them runs on a host of a lab, not on this machine's own
    network. Empty when there is none (or no such folder)."""
    try:
        names = [n for n in os.listdir(folder) if _LAB_NS.match(n)]
    except OSError:
        return set()
    out = set()
    for name in names:
        with contextlib.suppress(OSError):
            st = os.stat(os.path.join(folder, name))
            out.add((st.st_dev, st.st_ino))
    return out


def rate_bit_s(rate: str) -> float:
    """``200mbit`` → 2e8 bit/s."""
    m = _RATE.match(rate)
    assert m is not None
    return float(m.group(1)) * {None: 1, "k": 1e3, "m": 1e6, "g": 1e9}[(m.group(2) or "").lower() or None]


@dataclass
class Lab:
    """One lab: ``tag`` names everything it creates; ``clients`` client hosts (1–3)."""

    tag: str = field(default_factory=lambda: secrets.token_hex(3))
    clients: int = 2
    link: str | None = None  # tc rate of the server's link, e.g. "200mbit"
    python: str = sys.executable
    namespaces: list[str] = field(default_factory=list)
    pids: dict[str, int] = field(default_factory=dict)
    logs: str = ""
    pythonpath: str = ""  # for the lab's Python processes (the workers import ycsbctl)
    mongo_wire: str = ""  # infra/bin/mongo-wire, to serve MongoDB's wire protocol on srv too
    state_file: Path | None = None  # where up() records what it made (for `ycsbctl lab down`)

    # -- names and addresses ----------------------------------------------------------------

    def ns(self, host: str) -> str:
        return f"yl{self.tag}-{host}"

    @property
    def hosts(self) -> list[str]:
        return ["ctl", "srv"] + [f"c{i}" for i in range(1, self.clients + 1)]

    @property
    def scheduler(self) -> str:
        return f"tcp://{ADDRESSES['ctl']}:{SCHEDULER_PORT}"

    @property
    def redis_url(self) -> str:
        return f"redis://{ADDRESSES['srv']}:{REDIS_PORT}"

    @property
    def mongo_url(self) -> str | None:
        return f"mongodb://{ADDRESSES['srv']}:{MONGO_PORT}/ycsb" if "srv-mongo-wire" in self.pids else None

    def exec_argv(self, host: str) -> list[str]:
        """The prefix that runs a command on ``host``."""
        return ["ip", "netns", "exec", self.ns(host)]

    def run(self, host: str, argv: list[str], **kw) -> subprocess.CompletedProcess:
        """Run ``argv`` on ``host`` and wait (output captured as text)."""
        return subprocess.run(self.exec_argv(host) + argv, capture_output=True, text=True, **kw)

    # -- up and down --------------------------------------------------------------------------

    def up(self, state_file: Path | None = None) -> Lab:
        """Create the namespaces and links, then start the servers, scheduler and workers (ready on return)."""
        if not 1 <= self.clients <= 3:
            raise UserError("a lab has 1 to 3 client hosts")
        for tool in ("ip", "tc"):
            if shutil.which(tool) is None:
                raise UserError(f"the lab needs `{tool}` (apt-get install iproute2)")
        if os.geteuid() != 0:
            raise UserError("the lab creates network namespaces: run it as root")
        self.logs = self.logs or f"/tmp/ycsbctl-lab-{self.tag}"
        Path(self.logs).mkdir(parents=True, exist_ok=True)
        self.state_file = state_file or self.state_file
        try:
            with interrupts_kept():  # an interrupt is never lost: a half-made lab is removed
                self._network()
                self._save()
                self.start_process("srv-redis", "srv", ["redis-server", "--bind", ADDRESSES["srv"], "--port",
                                                        str(REDIS_PORT), "--save", "", "--appendonly", "no",
                                                        "--protected-mode", "no"])
                if self.mongo_wire and Path(self.mongo_wire).exists():
                    data = Path(self.logs) / "mongo-wire-data"
                    data.mkdir(exist_ok=True)
                    self.start_process(
                        "srv-mongo-wire",
                        "srv",
                        [self.mongo_wire, "--listen", f"{ADDRESSES['srv']}:{MONGO_PORT}", "--data", str(data)],
                    )
                if shutil.which("iperf3"):
                    self.start_process("srv-iperf3", "srv", ["iperf3", "-s", "-B", ADDRESSES["srv"], "-p",
                                                             str(IPERF_PORT)])
                self.start_scheduler()
                for c in self.hosts[2:]:
                    self.start_worker(c)
                self.wait_port("srv", ADDRESSES["srv"], REDIS_PORT)
                if "srv-mongo-wire" in self.pids:
                    self.wait_port("srv", ADDRESSES["srv"], MONGO_PORT)
                self.wait_workers(self.clients)
        except BaseException:
            self.down()
            raise
        return self

    def make_hosts(self) -> Lab:
        """Only the namespaces and links, nothing started in them (for a caller that starts its own
        servers, e.g. a Docker engine on ``srv``); :meth:`down` removes them. ``clients`` may be 0."""
        if shutil.which("ip") is None:
            raise UserError("the lab needs `ip` (apt-get install iproute2)")
        if os.geteuid() != 0:
            raise UserError("the lab creates network namespaces: run it as root")
        try:
            self._network()
            self._save()
        except BaseException:
            self.down()
            raise
        return self

    def netns_path(self, host: str) -> str:
        """The network namespace file of ``host`` (for ``nsenter --net=…``: unlike ``ip netns exec``, it
        leaves /sys and the cgroup mounts alone, which dockerd needs)."""
        return f"{NETNS_DIR}/{self.ns(host)}"

    def _network(self) -> None:
        sw = self.ns("sw")
        self._ip(["netns", "add", sw])
        self.namespaces.append(sw)
        self._ip(["-n", sw, "link", "add", "br0", "type", "bridge"])
        self._ip(["-n", sw, "link", "set", "br0", "up"])
        self._ip(["-n", sw, "link", "set", "lo", "up"])
        for host in self.hosts:
            ns = self.ns(host)
            self._ip(["netns", "add", ns])
            self.namespaces.append(ns)
            # one veth pair: "eth0" in the host, "<host>" on the bridge (names are per namespace)
            self._ip(["-n", ns, "link", "add", "eth0", "type", "veth", "peer", "name", host, "netns", sw])
            self._ip(["-n", ns, "addr", "add", f"{ADDRESSES[host]}/24", "dev", "eth0"])
            self._ip(["-n", ns, "link", "set", "eth0", "up"])
            self._ip(["-n", ns, "link", "set", "lo", "up"])
            self._ip(["-n", sw, "link", "set", host, "master", "br0"])
            self._ip(["-n", sw, "link", "set", host, "up"])
        if self.link:
            self.shape(self.link)

    def shape(self, rate: str) -> None:
        """Limit the server's link to ``rate`` in both directions (``tc tbf`` on each end of its veth)."""
        rate = parse_rate(rate)
        burst = max(32_000, int(rate_bit_s(rate) / 8 / 250))  # ≥ 4 ms of traffic: tbf needs burst ≥ rate/HZ
        for ns, dev in ((self.ns("srv"), "eth0"), (self.ns("sw"), "srv")):
            subprocess.run(["tc", "-n", ns, "qdisc", "replace", "dev", dev, "root", "tbf", "rate", rate,
                            "burst", str(burst), "latency", "50ms"], check=True, capture_output=True, text=True)
        self.link = rate

    def unshape(self) -> None:
        """Remove the shaping of the server's link."""
        for ns, dev in ((self.ns("srv"), "eth0"), (self.ns("sw"), "srv")):
            subprocess.run(["tc", "-n", ns, "qdisc", "del", "dev", dev, "root"], capture_output=True)
        self.link = None

    def start_scheduler(self) -> None:
        """The Dask scheduler on ``ctl`` (ready on return: it listens)."""
        self.start_process("ctl-scheduler", "ctl", [self.python, "-m", "distributed.cli.dask_scheduler", "--host",
                                                    ADDRESSES["ctl"], "--port", str(SCHEDULER_PORT), "--no-dashboard"])
        self.wait_port("ctl", ADDRESSES["ctl"], SCHEDULER_PORT)

    def start_worker(self, host: str) -> None:
        """``dask worker`` (under its nanny, as Dask's docs start it) on client host ``host``: one thread, all
        a point's one shard per worker needs, so a shard left running holds the worker the next point wants."""
        self.start_process(f"{host}-worker", host, [self.python, "-m", "distributed.cli.dask_worker", self.scheduler,
                                             "--name", host, "--host", ADDRESSES[host], "--nthreads", "1",
                                             "--no-dashboard"])

    def wait_workers(self, n: int, timeout_s: float = 60.0) -> None:
        """Until the scheduler has ``n`` workers."""
        code = ("import sys; from distributed import Client; c = Client(sys.argv[1], timeout='10s'); "
                "c.wait_for_workers(int(sys.argv[2]), timeout=float(sys.argv[3])); c.close()")
        out = self.run("ctl", [self.python, "-c", code, self.scheduler, str(n), str(timeout_s)], timeout=timeout_s + 30)
        if out.returncode != 0:
            raise UserError(f"the lab's Dask workers did not register: {out.stderr.strip().splitlines()[-1:]}; "
                            f"see {self.logs}")

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        """Send ``sig`` to the process group of one of the lab's processes (e.g. ``c2-worker``)."""
        pid = self.pids.get(name)
        if pid:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, sig)

    def down(self) -> None:
        """Stop every process and delete every namespace of this lab (idempotent). Ctrl-C and
        SIGTERM wait until it is done (then are raised): a half-removed lab is never left."""
        from ycsbctl.processes import deferred_signals

        with deferred_signals():
            self._down()

    def _down(self) -> None:
        for name in list(self.pids):
            self.kill(name, signal.SIGTERM)
        deadline = time.monotonic() + 5
        for name, pid in list(self.pids.items()):
            while _alive(pid) and time.monotonic() < deadline:
                time.sleep(0.05)
            self.kill(name, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pid, os.WNOHANG)
        self.pids.clear()
        for ns in self.namespaces:  # anything else still running in a host of ours (a process whose pid an
            self._kill_inside(ns)   # interrupt kept from being recorded, a child that left its group)
        for ns in reversed(self.namespaces):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        self.namespaces.clear()
        if self.state_file is not None:
            with contextlib.suppress(FileNotFoundError):
                self.state_file.unlink()

    # -- helpers --------------------------------------------------------------------------------

    @staticmethod
    def _kill_inside(ns: str) -> None:
        """SIGKILL every process in network namespace ``ns`` (``ip netns pids``), and reap our children."""
        out = subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True)
        for pid in (int(p) for p in out.stdout.split() if p.isdigit()):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pid, 0)

    def _ip(self, args: list[str]) -> None:
        out = subprocess.run(["ip", *args], capture_output=True, text=True)
        if out.returncode != 0:
            raise UserError(f"ip {' '.join(args)}: {out.stderr.strip()}", exit_code=1)

    def start_process(self, name: str, host: str, argv: list[str]) -> None:
        """Start ``argv`` on ``host`` in a session of its own (logged to ``<logs>/<name>.log``; stopped by down())."""
        log = open(Path(self.logs) / f"{name}.log", "ab")  # noqa: SIM115 - the child keeps it
        env = dict(os.environ, PYTHONPATH=self.pythonpath) if self.pythonpath else None
        proc = subprocess.Popen(self.exec_argv(host) + argv, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True, env=env)
        log.close()
        self.pids[name] = proc.pid
        self._save()

    def wait_port(self, host: str, addr: str, port: int, timeout_s: float = 30.0) -> None:
        """Until something listens on ``addr:port``, asked from ``host``."""
        code = ("import socket, sys, time\nend = time.time() + float(sys.argv[3])\nwhile True:\n"
                "    try:\n        socket.create_connection((sys.argv[1], int(sys.argv[2])), 1).close(); break\n"
                "    except OSError:\n        assert time.time() < end, 'not listening'\n        time.sleep(0.1)\n")
        out = self.run(host, [self.python, "-c", code, addr, str(port), str(timeout_s)], timeout=timeout_s + 10)
        if out.returncode != 0:
            raise UserError(f"nothing listens on {addr}:{port} in the lab's {host}; see {self.logs}", exit_code=1)

    def _save(self) -> None:
        if self.state_file is not None:
            write_json(self.state_file, {k: v for k, v in asdict(self).items() if k != "state_file"})

    @classmethod
    def load(cls, state_file: Path) -> Lab:
        d = json.loads(state_file.read_text())
        lab = cls(**{k: v for k, v in d.items() if k in cls.__dataclass_fields__})
        lab.state_file = state_file
        return lab


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with contextlib.suppress(ChildProcessError, OSError):
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            return False
    return True

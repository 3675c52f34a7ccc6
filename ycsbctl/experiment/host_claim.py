"""One benchmark per host: a ycsbctl that measures holds a claim another one can see.

Each measuring ycsbctl keeps ``<claims>/<pid>.claim`` open under an exclusive ``flock`` (released
by the kernel when the process ends, however it ends) with its command line inside. The claims
folder is host-wide, whoever runs ycsbctl and whatever its state dir: ``$YCSBCTL_CLAIM_DIR``, else
``/tmp/ycsbctl-claims`` (made world-writable and sticky, like /tmp itself, so every user's
ycsbctl sees every other's). Another ycsbctl that finds a claim it cannot lock knows someone is
measuring on this host and refuses to start, unless told to go on (``--allow-concurrent``); then
the points of both are labelled ``host-busy``.

Other load generators hold no claim: a look at the host's processes (:data:`LOAD_GENERATORS`:
redis-benchmark, memtier_benchmark, a YCSB JVM, …; ycsbctl's own children aside) finds them too,
and points measured while one ran are ``host-busy`` as well. ``$YCSBCTL_LOAD_GENERATORS`` (a comma
list of program names; empty: none) replaces that list, for a host where one of them runs for another
purpose (and for the tests, which must not depend on what else runs on their host).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
from pathlib import Path

from ycsbctl.errors import UserError

CLAIM_DIR_ENV = "YCSBCTL_CLAIM_DIR"
LOAD_GENERATORS_ENV = "YCSBCTL_LOAD_GENERATORS"
DEFAULT_CLAIM_DIR = Path("/tmp/ycsbctl-claims")
# Programs that load a server the way ycsbctl does: a point measured beside one shares the cores.
LOAD_GENERATORS = ("redis-benchmark", "valkey-benchmark", "memtier_benchmark", "memtier-benchmark",
                   "keydb-benchmark", "mc-crusher", "pgbench", "go-ycsb")
JAVA_LOAD_GENERATORS = ("site.ycsb.Client", "com.yahoo.ycsb.Client")  # the real YCSB's main class


def _folder() -> Path:
    env = os.environ.get(CLAIM_DIR_ENV)
    path = Path(env) if env else DEFAULT_CLAIM_DIR
    if not path.is_dir():
        path.mkdir(parents=True, exist_ok=True)
        if not env:  # shared by every user of the host, like /tmp
            with contextlib.suppress(OSError):
                os.chmod(path, 0o1777)
    st = path.stat()
    if not env and st.st_uid != os.getuid() and (st.st_mode & stat.S_IWOTH) == 0:
        raise UserError(f"cannot claim the host: {path} belongs to another user and is not writable for all; "
                        f"set {CLAIM_DIR_ENV} to a folder every user of this host can write")
    return path


def other_load_generators() -> list[str]:
    """``pid N: redis-benchmark …`` of every load generator running on this host that is not ours
    (not this process or one of its children: ``--engine ycsb`` runs the real YCSB's JVM itself)."""
    programs: tuple[str, ...] = LOAD_GENERATORS
    java: tuple[str, ...] = JAVA_LOAD_GENERATORS
    if (given := os.environ.get(LOAD_GENERATORS_ENV)) is not None:
        names = {n.strip() for n in given.split(",") if n.strip()}
        programs, java = tuple(n for n in names if "." not in n), tuple(n for n in names if "." in n)
        if not names:
            return []
    procs = _processes()
    ours = _descendants(os.getpid(), procs)
    found = []
    for pid, (name, _, state) in sorted(procs.items()):
        if pid in ours or state == "Z":  # a zombie loads nothing
            continue
        cmd = _cmdline(pid)
        exe = os.path.basename(cmd[0]) if cmd else name
        if len(name) >= COMM_LEN and exe.startswith(name):  # the kernel keeps 15 bytes of a name (psutil's rule)
            name = exe
        if exe in programs or name in programs or ("java" in exe and any(c in java for c in cmd)):
            found.append(f"pid {pid}: {' '.join(cmd)[:120] or name}")
    return found


COMM_LEN = 15  # the bytes of a program's name the kernel keeps (TASK_COMM_LEN less its NUL)


def _processes() -> dict[int, tuple[str, int, str]]:
    """Every process now: pid -> (name, parent pid, state letter), from ``/proc/<pid>/stat`` alone (psutil's
    ``process_iter`` read three files of each and built an object per process: ~10× the time, twice a point)."""
    out: dict[int, tuple[str, int, str]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read(512)
        except OSError:  # gone since the listing
            continue
        read = parse_stat(stat)
        if read is not None:
            out[int(entry)] = read
    return out


def parse_stat(stat: bytes) -> tuple[str, int, str] | None:
    """``/proc/<pid>/stat``'s (name, parent pid, state letter), or None for a text cut before its state and parent
    (the name is whatever stands between the first ``(`` and the last ``)``: a name may hold either)."""
    close = stat.rfind(b")")
    fields = stat[close + 2:].split(b" ", 2)
    if close < 0 or len(fields) < 2:
        return None
    return stat[stat.find(b"(") + 1:close].decode(errors="replace"), int(fields[1]), fields[0].decode(errors="replace")


def _descendants(root: int, procs: dict[int, tuple[str, int, str]]) -> set[int]:
    """``root`` and every process below it, from the parents in ``procs``."""
    kids: dict[int, list[int]] = {}
    for pid, (_, ppid, _) in procs.items():
        kids.setdefault(ppid, []).append(pid)
    seen, todo = set(), [root]
    while todo:
        p = todo.pop()
        if p not in seen:
            seen.add(p)
            todo += kids.get(p, [])
    return seen


def _cmdline(pid: int) -> list[str]:
    """A process's arguments as psutil splits ``/proc/<pid>/cmdline`` (NUL-separated; a program that rewrote its
    title into one string with spaces, split on the spaces); [] for a kernel thread or one gone meanwhile."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            data = f.read().decode(errors="replace")
    except OSError:
        return []
    if not data:
        return []
    sep = "\x00" if data.endswith("\x00") else " "
    if data.endswith(sep):
        data = data[:-1]
    cmd = data.split(sep)
    if sep == "\x00" and len(cmd) == 1 and " " in data:
        cmd = data.split(" ")
    return cmd


def _age(path: Path) -> tuple[int, int]:
    return path.stat().st_mtime_ns, int(path.stem)


def _live_claims(mine: Path | None = None, older_only: bool = False) -> list[str]:
    """``pid N: ycsbctl run …`` of every live claim but ``mine`` (stale ones are removed); with
    ``older_only``, only those made before ``mine``."""
    age = _age(mine) if mine is not None and older_only else None
    found = []
    for p in sorted(_folder().glob("*.claim")):
        if p == mine:
            continue
        try:
            with open(p) as f:
                try:
                    fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB)
                except BlockingIOError:
                    if age is None or _age(p) < age:
                        found.append(f.read().strip() or p.stem)
                    continue
            p.unlink(missing_ok=True)  # its process is gone (another user's: its owner removes it)
        except (OSError, ValueError):
            continue
    return found


class HostClaim:
    """This process's claim; :meth:`others` names the other ycsbctl processes measuring now."""

    def __init__(self, command_line: str) -> None:
        self.path = _folder() / f"{os.getpid()}.claim"
        self._f = open(self.path, "w")  # noqa: SIM115 - held open (and locked) until close()
        with contextlib.suppress(OSError):
            os.chmod(self.path, 0o644)  # readable by every user's ycsbctl
        fcntl.flock(self._f, fcntl.LOCK_EX)
        self._f.write(f"pid {os.getpid()}: {command_line}\n")
        self._f.flush()

    def others(self) -> list[str]:
        """``pid N: ycsbctl run …`` of every other live claim, then every other load generator
        running now (:func:`other_load_generators`)."""
        return _live_claims(self.path) + other_load_generators()

    def close(self) -> None:
        self.path.unlink(missing_ok=True)
        self._f.close()


def _refuse(others: list[str]) -> UserError:
    who = ("another ycsbctl is measuring on this host" if "ycsbctl" in others[0]
           else "another load generator is running on this host")
    return UserError(f"{who} ({others[0]}): both would share the cores and neither result would be true; wait "
                     "for it to end, or pass --allow-concurrent to measure anyway (points are then labelled "
                     "host-busy)", exit_code=1)


def claim_host(command_line: str, allow_concurrent: bool) -> HostClaim:
    """Claim this host for measuring; refuse in one line when another ycsbctl is measuring or
    another load generator is running. The look comes before the claim is made: a ycsbctl that
    is refused never shows a claim to the one measuring (whose points would turn host-busy). Of
    two that looked at once and both found nothing, the later claim gives way to the earlier."""
    if not allow_concurrent:
        others = _live_claims() + other_load_generators()
        if others:
            raise _refuse(others)
    claim = HostClaim(command_line)
    if not allow_concurrent:
        earlier = _live_claims(claim.path, older_only=True)
        if earlier:
            claim.close()
            raise _refuse(earlier)
    return claim

"""On-CPU stacks of one point: the server's with ``perf record -e cpu-clock -g`` (a software event:
it works in a VM without hardware counters), the client's workers' with ``py-spy`` (a sampling
profiler for Python, from PyPI), folded by ``inferno-collapse-perf`` (py-spy folds its own) and drawn
as flame graphs by ``inferno-flamegraph`` (crates.io: ``cargo install inferno``).

What is missing or not permitted (no perf, ``perf_event_paranoid`` too strict for a user, no ptrace
right, no inferno) costs one line in :attr:`Profile.notes` and the rest goes on.

``top_frames`` reads the folded stacks: per frame, its **self** share (samples where it is the leaf:
where the CPU was) and its **total** share (samples where it is on the stack). ``kernel_share`` is the
share of the server's samples whose leaf is a kernel frame (inferno marks them ``_[k]``): the
independent reading of the server's system-time share from ``/proc`` (``python -m bench why`` compares the two).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ycsbctl.processes import deferred_signals

# Low rates, so that the profiled point stays the point: python -m bench why --only cost measures what they
# cost the profiled point and --only kernel what they still tell ("Profiles" in docs/guide/why.md gives both, at these
# rates and at the higher ones tried before); py-spy's attaching (reading the interpreter's symbols) is paid
# during the warm-up when there is one.
SERVER_HZ = 25  # perf's sampling frequency (Hz per CPU)
CLIENT_HZ = 9  # py-spy's (Hz per process)
TOP = 20
KERNEL_MARK = "_[k]"
STOP_TIMEOUT_S = 30.0


def tool(name: str) -> str | None:
    """The path of a program: on PATH, beside this interpreter (a venv's py-spy) or in ~/.cargo/bin."""
    found = shutil.which(name)
    if found:
        return found
    for folder in (Path(sys.executable).parent, Path.home() / ".cargo" / "bin"):
        if (folder / name).is_file() and os.access(folder / name, os.X_OK):
            return str(folder / name)
    return None


def fold_counts(text: str) -> dict[str, int]:
    """Folded stacks (``a;b;c 12`` per line) as stack -> samples."""
    out: dict[str, int] = {}
    for line in text.splitlines():
        stack, _, n = line.rpartition(" ")
        if stack and n.isdigit():
            out[stack] = out.get(stack, 0) + int(n)
    return out


def top_frames(folded: dict[str, int], side: str, top: int = TOP) -> list[dict[str, Any]]:
    """The ``top`` frames by self share (then total share): ``side``, ``frame``, ``self_share``,
    ``total_share``, ``samples`` (self)."""
    total = sum(folded.values())
    if not total:
        return []
    own: dict[str, int] = {}
    inclusive: dict[str, int] = {}
    for stack, n in folded.items():
        frames = stack.split(";")
        own[frames[-1]] = own.get(frames[-1], 0) + n
        for f in set(frames):
            inclusive[f] = inclusive.get(f, 0) + n
    ranked = sorted(inclusive, key=lambda f: (-own.get(f, 0), -inclusive[f]))[:top]
    return [{"side": side, "frame": f, "self_share": round(own.get(f, 0) / total, 4),
             "total_share": round(inclusive[f] / total, 4), "samples": own.get(f, 0)} for f in ranked]


def kernel_share(folded: dict[str, int]) -> float | None:
    """Share of samples whose leaf frame is the kernel's."""
    total = sum(folded.values())
    if not total:
        return None
    return sum(n for s, n in folded.items() if s.rpartition(";")[2].endswith(KERNEL_MARK)) / total


@dataclass
class Profile:
    """What one profiled point left: files in ``folder`` (``server.folded``, ``server.svg``,
    ``client.folded``, ``client.svg``, ``top_frames.csv``), the top frames, the server's kernel
    share, and one line per thing that could not be done."""

    folder: Path
    notes: list[str] = field(default_factory=list)
    frames: list[dict[str, Any]] = field(default_factory=list)
    server_kernel_share: float | None = None
    server_samples: int = 0
    client_samples: int = 0
    files: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"folder": self.folder.name, "notes": self.notes, "top_frames": self.frames[:10],
                "server_kernel_share": self.server_kernel_share, "server_samples": self.server_samples,
                "client_samples": self.client_samples, "files": self.files}


def _stop(proc: subprocess.Popen[bytes], sig: int = signal.SIGINT) -> None:
    if proc.poll() is None:
        proc.send_signal(sig)
    try:
        proc.wait(timeout=STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


class Profiler:
    """Start with :meth:`start` (the server's PIDs now; the client's through ``client_pids`` once its
    workers exist), end with :meth:`stop` -> :class:`Profile`."""

    def __init__(self, folder: Path, server_pids: Iterable[int], client_pids: Callable[[], Iterable[int]] | None,
                 title: str = "") -> None:
        self.folder = folder
        self.server_pids = [p for p in server_pids if p]
        self.client_pids = client_pids
        self.title = title
        self.profile = Profile(folder)
        self._perf: subprocess.Popen[bytes] | None = None
        self._spies: list[subprocess.Popen[bytes]] = []
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        note = self.profile.notes.append
        perf = tool("perf")
        if not self.server_pids:
            note("server stacks: no server process on this host to profile")
        elif perf is None:
            note("server stacks: perf is not installed (apt-get install linux-perf)")
        else:
            with deferred_signals():  # started and kept for stop(), or not started
                self._perf = subprocess.Popen(
                    [perf, "record", "-e", "cpu-clock", "-F", str(SERVER_HZ), "-g", "--quiet", "-o",
                     str(self.folder / "server.perf.data"), "-p", ",".join(map(str, self.server_pids))],
                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if self.client_pids is not None:
            if tool("py-spy") is None:
                note("client stacks: py-spy is not installed (pip install py-spy)")
            else:
                self._watcher = threading.Thread(target=self._attach_clients, name="profiler-clients", daemon=True)
                self._watcher.start()

    def _attach_clients(self) -> None:
        """Attach py-spy to each worker as soon as it exists (workers start after the run begins)."""
        spy = tool("py-spy")
        seen: set[int] = set()
        assert self.client_pids is not None and spy is not None
        while not self._stop.is_set():
            for pid in self.client_pids():
                if pid in seen:
                    continue
                seen.add(pid)
                self._spies.append(subprocess.Popen(
                    [spy, "record", "--pid", str(pid), "--rate", str(CLIENT_HZ), "--format", "raw", "--nonblocking",
                     "--output", str(self.folder / f"client-{pid}.folded")],
                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
            self._stop.wait(0.05)

    def stop(self) -> Profile:
        self._stop.set()
        if self._watcher is not None:
            self._watcher.join(timeout=5)
        if self._perf is not None:
            _stop(self._perf)
        for spy in self._spies:
            _stop(spy)
        self._fold_server()
        self._fold_client()
        self._write_top()
        return self.profile

    def _fold_server(self) -> None:
        p, note = self.profile, self.profile.notes.append
        data = self.folder / "server.perf.data"
        if self._perf is None:
            return
        if not data.exists() or data.stat().st_size == 0:
            err = (self._perf.stderr.read().decode(errors="replace").strip().splitlines() if self._perf.stderr else [])
            note(f"server stacks: perf recorded nothing ({err[-1] if err else 'not permitted here?'}; "
                 "perf_event_paranoid, a container's seccomp or a missing CAP_PERFMON can forbid it)")
            return
        collapse = tool("inferno-collapse-perf")
        if collapse is None:
            note("server stacks: inferno is not installed, so they are not folded or drawn (cargo install inferno); "
                 "perf's own data is kept (server.perf.data)")
            return
        script = subprocess.run([str(tool("perf")), "script", "-i", str(data)], capture_output=True, timeout=300)
        folded = subprocess.run([collapse, "--all"], input=script.stdout, capture_output=True, timeout=300).stdout
        (self.folder / "server.folded").write_bytes(folded)
        data.unlink()  # the folded stacks say what it said, in a fraction of the room
        counts = fold_counts(folded.decode(errors="replace"))
        p.server_samples = sum(counts.values())
        p.server_kernel_share = kernel_share(counts)
        p.frames += top_frames(counts, "server")
        p.files.append("server.folded")
        self._draw("server", f"{self.title} — server on-CPU stacks (perf cpu-clock {SERVER_HZ} Hz)")

    def _fold_client(self) -> None:
        parts = sorted(self.folder.glob("client-*.folded"))
        if not parts:
            if self._spies:
                err = self._spies[0].stderr.read().decode(errors="replace").strip() if self._spies[0].stderr else ""
                lines = err.splitlines()  # py-spy's "Error: …" line, before its causes (and any backtrace)
                said = next((ln for ln in lines if ln.startswith("Error")), lines[-1] if lines else "no samples")
                self.profile.notes.append(f"client stacks: py-spy recorded nothing ({said})")
            return
        counts = fold_counts("\n".join(part.read_text(errors="replace") for part in parts))  # summed per stack
        for part in parts:
            part.unlink()
        (self.folder / "client.folded").write_text("".join(f"{s} {n}\n" for s, n in counts.items()))
        self.profile.client_samples = sum(counts.values())
        self.profile.frames += top_frames(counts, "client")
        self.profile.files.append("client.folded")
        self._draw("client", f"{self.title} — client (load generator) on-CPU Python stacks (py-spy {CLIENT_HZ} Hz)")

    def _draw(self, side: str, title: str) -> None:
        flame = tool("inferno-flamegraph")
        if flame is None:
            self.profile.notes.append(f"{side} flame graph: inferno is not installed (cargo install inferno)")
            return
        folded = self.folder / f"{side}.folded"
        if not folded.stat().st_size:
            return
        svg = subprocess.run([flame, "--title", title, "--width", "1000", str(folded)], capture_output=True,
                             timeout=300)
        if svg.returncode == 0 and svg.stdout:
            (self.folder / f"{side}.svg").write_bytes(svg.stdout)
            self.profile.files.append(f"{side}.svg")
        else:
            self.profile.notes.append(f"{side} flame graph: inferno-flamegraph failed "
                                      f"({svg.stderr.decode(errors='replace')[:120]})")

    def _write_top(self) -> None:
        if not self.profile.frames:
            return
        import pandas as pd

        pd.DataFrame(self.profile.frames).to_csv(self.folder / "top_frames.csv", index=False)
        self.profile.files.append("top_frames.csv")



@dataclass
class Holder:
    """The profile of a :func:`profiling` block, once it ended (None when not profiled)."""

    value: Profile | None = None


@contextmanager
def profiling(folder: Path | None, server_pids: Iterable[int],
              client_pids: Callable[[], Iterable[int]] | None) -> Iterator[Holder]:
    """Record the on-CPU stacks of the server's processes and of the client's workers into ``folder``
    while the block runs (nothing when ``folder`` is None)."""
    holder = Holder()
    if folder is None:
        yield holder
        return
    profiler = Profiler(folder, server_pids, client_pids, title=folder.name)
    try:
        profiler.start()  # inside: perf started by a start that a Ctrl-C cuts short is stopped too
        yield holder
    finally:
        holder.value = profiler.stop()

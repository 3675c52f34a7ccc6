"""What one small ``ycsbctl`` command costs beyond its point, as a test that runs it sees it: the whole process
started with its stdout and stderr piped and read to their end (``subprocess.run(capture_output=True)``, which
waits until every process holding the pipes, the engine's fork server too, has let go of them).

The command (by default ``run workload-b --target basic:// --threads 1 --duration 0.5 --warmup 0 --records 200
--repeat 1``; ``--folder`` adds ``--out``, a result folder written and finalised) is timed on this process's
monotonic clock in three parts: its **start**, to the point's progress line (``[1/1] …``: the interpreter, the
imports, the plan, the engine's fork server); its **point and writing**, from there to the command's last line on
stderr; and its **end**, from that line to both pipes' end (the exit handlers, the interpreter's teardown, its
children's exit). With ``--against CHECKOUT`` (another ycsbctl source tree) the same command runs from that tree in
turn with this one (A B A B …: what the host does meanwhile falls on both); printed are the medians of each part
per checkout and the paired ratio of the whole with its 95 % interval over the rounds, then the load average.

    .venv/bin/python -m bench command_cost [--rounds 5] [--folder] [--against /tmp/old]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from bench._against import checkouts, ratio_line

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("start", "point", "end", "whole")


@dataclass(frozen=True)
class CommandRun:
    """One command's parts, in s: to the point's line, from there to its last line, from there to its pipes' end."""

    start: float
    point: float
    end: float

    @property
    def whole(self) -> float:
        return self.start + self.point + self.end


def command(args: argparse.Namespace, out: Path) -> list[str]:
    """The ``ycsbctl`` command line timed (the same for both checkouts)."""
    cmd = ["run", "workload-b", "--target", "basic://", "--threads", "1", "--duration", f"{args.duration:g}",
           "--warmup", "0", "--records", "200", "--repeat", "1", "--allow-concurrent"]
    return cmd + (["--out", str(out)] if args.folder else [])


def run_once(checkout: Path, args: argparse.Namespace) -> CommandRun:
    """Run the command from ``checkout``'s sources, timing its parts."""
    with tempfile.TemporaryDirectory(prefix="bench-command-") as tmp:
        env = {**os.environ, "PYTHONPATH": str(checkout)}
        t0 = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-m", "ycsbctl", *command(args, Path(tmp) / "out")], cwd=tmp,
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        assert proc.stdout is not None and proc.stderr is not None
        drained = threading.Thread(target=proc.stdout.read, daemon=True)
        drained.start()
        point = last = None
        tail: list[str] = []
        for line in proc.stderr:
            last = time.monotonic()
            if point is None and line.startswith("[1/"):
                point = last
            tail = (tail + [line])[-5:]
        drained.join()
        ended = time.monotonic()
        code = proc.wait()
    if code not in (0, 3) or point is None or last is None:  # 3: a point degraded (the host was busy), kept
        raise RuntimeError(f"ycsbctl from {checkout} exited {code}: {''.join(tail).strip()}")
    return CommandRun(point - t0, last - point, ended - last)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duration", type=float, default=0.5, help="seconds of the point")
    ap.add_argument("--folder", action="store_true", help="write a result folder (--out)")
    ap.add_argument("--rounds", type=int, default=5, help="runs of the command per checkout")
    ap.add_argument("--against", type=Path, help="another checkout of ycsbctl, run in turn with this one")
    args = ap.parse_args()
    trees = checkouts(ROOT, args.against)
    if trees is None:
        return 2
    print(f"command: ycsbctl {' '.join(command(args, Path('…')))}", flush=True)
    print(f"load average before {os.getloadavg()[0]:.1f}", flush=True)
    got: dict[str, dict[int, CommandRun]] = {n: {} for n in trees}
    for i in range(args.rounds):
        for name, tree in trees.items():
            r = got[name][i] = run_once(tree, args)
            print(f"  round {i + 1} {name:>7}: " + ", ".join(f"{p} {getattr(r, p):.2f} s" for p in PARTS), flush=True)
    print(f"\n{'checkout':>8}  " + "  ".join(f"{p + ' s':>8}" for p in PARTS) + "   (medians)")
    for name in trees:
        runs = got[name].values()
        print(f"{name:>8}  " + "  ".join(f"{statistics.median(getattr(r, p) for r in runs):8.2f}" for p in PARTS))
    if args.against:
        print("\n" + ratio_line({i: r.whole for i, r in got["against"].items()},
                                {i: r.whole for i, r in got["this"].items()}, "the whole command"))
    print(f"load average after {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

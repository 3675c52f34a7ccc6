"""How often the verdicts are wrong on this machine: A/A pairs, planted differences, drift between folders.

Each experiment runs four Redis servers of one build that this benchmark starts, all on the servers'
CPU set (``taskset``, as ``--placement split`` would), the client (``ycsbctl`` itself) on the other:

- ``a``: the baseline; ``twin``: the same build and settings under another label (A/A);
- ``slowN``: the same, its CPU held to a quota by a cgroup (``--slow 0.7,0.45``: cores), a planted
  difference whose true size is measured here, pooled over every round of every experiment. A quota
  written ``dial10`` is dialled here for a gap of about 10 % (:func:`dial_quota`: a bisection on the
  quota, each step one alternated session of the held server and an unheld twin).

``--experiments`` experiments (≥ 3), each with ``--repeat`` rounds (≥ 5) over ``--threads`` (≥ 4 thread
counts), first on the machine as it is (``quiet``), then with one core held busy by a spinning process
(``busy``; ``--busy-cpu``: the client's core, where on 2 cores the client becomes the bottleneck and no server-side
gap shows, or the servers', where the ``dialN`` quotas are dialled again beside it). Per condition it prints:

- A/A: the share of twin-against-a cells called ``better``/``worse`` (goal ≤ 5 %) and the share whose
  interval of the ratio (at the family's level, which agrees with the verdicts) holds 1.0 (goal ≥ 90 %);
- planted: per slowed server, the true gap per thread count, and the share of its cells called ``worse``
  (goal ≥ 80 % where the gap is ≥ 10 %, ≥ 50 % at 4-10 %, every cell at 30 %); with ``--apart`` each
  planted server is compared with ``a`` alone, in runs of its own (as a user compares two things);
- between folders (``ycsbctl compare`` of consecutive experiments): the share of A/A cells called a
  difference without a control target (a minimum-effect test against the host's drift record as it stood
  before this run, or the default margin) and with ``a`` as the control, and the largest drift of the
  control itself. Every cell's drift between consecutive experiments (nothing changed between them) is
  then added to this host's drift record (``ycsbctl/results/host_drift.py``; ``--no-record`` to leave it).

``--order`` (default auto: alternate, a cell's targets in one engine session) and ``--slice`` set the experiments'
order; ``--order-pairs N`` also times the same plan with ``--order target`` and ``interleaved`` alternately (the
goal: interleaving costs ≤ 5 % more wall time).

    .venv/bin/python -m bench verdicts [--experiments 3] [--repeat 5] [--threads 8,16,32,64]
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._servers import stop  # noqa: E402
from bench._verdict_tally import (  # noqa: E402
    YCSBCTL,
    between_folders,
    compared_cells,
    host_factor_text,
    labels,
    summarise,
)
from tests.fixtures.cgroups import cpu_quota  # noqa: E402
from tests.fixtures.servers import free_port, wait_for_port  # noqa: E402
from ycsbctl.processes import sigterm_as_interrupt  # noqa: E402

CPUS = sorted(os.sched_getaffinity(0))
SERVER_CPUS, CLIENT_CPUS = CPUS[: len(CPUS) // 2] or CPUS, CPUS[len(CPUS) // 2:] or CPUS


def _cpuset(cpus: list[int]) -> str:
    return ",".join(map(str, cpus))


@contextlib.contextmanager
def servers(names: list[str], slow: dict[str, float], tmp: Path,
            groups: dict[str, Any] | None = None) -> Iterator[dict[str, str]]:
    """name -> URL of a redis-server each (AOF/RDB off) on the servers' CPUs; the slowed ones in a quota.
    ``groups``, when given, receives each server's cgroup (name -> group), to hold one later."""
    procs, urls = [], {}
    with contextlib.ExitStack() as stack:
        try:
            for name in names:
                port = free_port()
                d = tmp / name
                d.mkdir(parents=True, exist_ok=True)
                cmd = ["taskset", "-c", _cpuset(SERVER_CPUS), "redis-server", "--port", str(port), "--bind",
                       "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(d)]
                p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                procs.append(p)
                wait_for_port(port, p)
                # every server in a cgroup of its own, the unheld ones without a limit: a server left among the
                # host's other processes competes with all of them, one in a group as the group, so on a busy host
                # the held servers outran `a` (true gaps of -8 to -26 % with quotas meant to slow them)
                group = stack.enter_context(cpu_quota(slow.get(name, float(len(CPUS)))))
                if name not in slow:
                    _set_quota(group, None)
                # the tests' group weighs 10× a process (so a busy host cannot keep it under its quota):
                # here every server's group weighs the default, alike
                (group.path / ("cpu.weight" if group.v2 else "cpu.shares")).write_text("100" if group.v2 else "1024")
                group.add(p.pid)
                urls[name] = f"redis://127.0.0.1:{port}"
                if groups is not None:
                    groups[name] = group
            yield urls
        finally:
            for p in procs:
                stop(p)


def _set_quota(group, cores: float | None) -> None:
    """Hold ``group`` to ``cores`` of CPU per period (None: no limit)."""
    from tests.fixtures.cgroups import PERIOD_US

    if group.v2:
        (group.path / "cpu.max").write_text(f"{int(cores * PERIOD_US)} {PERIOD_US}" if cores else f"max {PERIOD_US}")
    else:
        (group.path / "cpu.cfs_quota_us").write_text(str(int(cores * PERIOD_US)) if cores else "-1")


def dial_quota(gap: float, threads: str, tmp: Path, records: int, seconds: float = 4.0,
               steps: int = 6) -> tuple[float, list[str]]:
    """The CPU quota (cores) that holds a redis-server about ``gap`` (0.10) slower than unheld at
    ``threads`` (the bench's largest count), by bisection on the quota (geometric, between a twentieth
    of a core and the CPUs there are). Each step is one alternated session (ycsbctl's default order with two
    targets) of a held server and an unheld twin: the two measured in the same seconds, slice by slice, so the
    host's drift between them cancels (two points one after the other moved ±20 % on this kind of VM and set
    quotas whose gaps came out from -6 % to +26 %). The quota is raised where the session's gap is above ``gap``
    and lowered where below; the response is far from proportional to the quota (a server whose quota runs out
    stalls for the rest of each 100 ms period), hence the search. The quota returned is interpolated (in log quota)
    between the final bracket's two measured ends, where both were measured, rather than its geometric middle: a
    step's gap moves about ±3 % between sessions, and the middle of a bracket whose ends read +2 % and +9 % for a 5 %
    goal is no better a guess than the line through them. Returns the quota and one line per step."""
    lines = []
    lo, hi = 0.05, float(len(SERVER_CPUS))
    seen_at: dict[float, float] = {}
    groups: dict[str, Any] = {}
    with servers(["held", "free"], {}, tmp, groups) as urls:
        for step in range(steps):
            q = math.sqrt(lo * hi)
            _set_quota(groups["held"], q)
            out = tmp / f"step{step}"
            run_ycsbctl(urls, out, ["--threads", threads, "--duration", str(seconds), "--warmup", "1", "--records",
                                    str(records), "--no-telemetry", *(["--load"] if step == 0 else [])])
            lab = {v: k for k, v in labels(out, ["held", "free"]).items()}
            r = pd.read_parquet(out / "runs.parquet")
            r = r[r["phase"] == "run"]
            r = r.assign(name=r["target"].map(lab)).set_index("name")
            held, free = float(r.loc["held", "throughput_ops"]), float(r.loc["free", "throughput_ops"])
            seen = 1 - held / free
            lines.append(f"dial step {step + 1}: quota {q:.3f} cores: {held:,.0f} against {free:,.0f} "
                         f"ops/s unheld in the same session, gap {seen:+.1%}")
            seen_at[q] = seen
            lo, hi = (q, hi) if seen > gap else (lo, q)
    if lo in seen_at and hi in seen_at:  # then seen_at[lo] > gap >= seen_at[hi]: the bisection's own rule
        share = (seen_at[lo] - gap) / (seen_at[lo] - seen_at[hi])  # where the gap falls between the ends, 0..1
        q = math.exp(math.log(lo) + share * (math.log(hi) - math.log(lo)))
        lines.append(f"dial: quota {q:.3f} cores, between {lo:.3f} ({seen_at[lo]:+.1%}) and {hi:.3f} "
                     f"({seen_at[hi]:+.1%}) where the line through them reads {gap:+.1%}")
        return q, lines
    return math.sqrt(lo * hi), lines


def slowed(args: argparse.Namespace) -> tuple[dict[str, float], list[str]]:
    """The slowed servers' quotas (name -> cores) from ``--slow``, a ``dialN`` one dialled now (on the host as it
    is: a busy core held meanwhile counts), and the dial's lines."""
    slow: dict[str, float] = {}
    dials: list[str] = []
    for i, q in enumerate(x for x in args.slow.split(",") if x):
        if q.startswith("dial"):
            biggest = str(max(int(t) for t in args.threads.split(",")))
            with tempfile.TemporaryDirectory(prefix="bench-dial-") as d:
                slow[f"slow{i + 1}"], said = dial_quota(int(q[4:] or 10) / 100, biggest, Path(d), args.records)
            dials += said
        else:
            slow[f"slow{i + 1}"] = float(q)
    return slow, dials


@contextlib.contextmanager
def busy_core(on: bool, where: str = "client") -> Iterator[None]:
    """One core held busy while ``on``: a spinning process on the client's last CPU (``where`` = client: the client
    then shares its core, and on 2 cores becomes the bottleneck, so no server-side gap shows) or on the servers'
    first (``server``: the servers, each in a cgroup of the default weight, share their core with it)."""
    if not on:
        yield
        return
    cpu = CLIENT_CPUS[-1] if where == "client" else SERVER_CPUS[0]
    hog = subprocess.Popen(["taskset", "-c", str(cpu), sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        stop(hog)


def experiment(urls: dict[str, str], out: Path, args: argparse.Namespace, order: str | None = None) -> float:
    """Run one experiment into ``out`` (the client on its CPUs) in ``order`` (None: ``--order``'s); its wall time
    (s)."""
    t0 = time.monotonic()
    run_ycsbctl(urls, out, ["--load", "--threads", args.threads, "--repeat", str(args.repeat), "--duration",
                            str(args.duration), "--warmup", str(args.warmup), "--records", str(args.records),
                            "--order", order or args.order,
                            *(("--slice", str(args.slice)) if args.slice else ()),
                            *(("--margin", args.margin) if args.margin else ()),
                            *(("--budget", args.budget) if str(args.repeat) == "auto" else ()),
                            *(() if args.telemetry else ("--no-telemetry",))])
    return time.monotonic() - t0


def run_ycsbctl(urls: dict[str, str], out: Path, options: list[str], ok: tuple[int, ...] = (0, 1, 3)) -> None:
    """``ycsbctl run workload-b`` on ``urls`` (the client on its CPUs) with ``options``, into ``out``; an exit code
    outside ``ok`` raises (3, a degraded point, is a result: its verdicts are judged as the report judges them)."""
    cmd = ["taskset", "-c", _cpuset(CLIENT_CPUS), YCSBCTL, "run", "workload-b",
           *(a for u in urls.values() for a in ("--target", u)), *options, "--allow-concurrent", "--quiet", "--out",
           str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=3600, cwd=out.parent)
    if proc.returncode not in ok:
        raise RuntimeError(f"exit {proc.returncode}: {proc.stderr[-2000:]}")


def across(args: argparse.Namespace, quota: float, tmp: Path) -> list[str]:
    """Across folders with no control target named (each folder's reference server and yardstick read the host; the
    telemetry kept, whatever ``--telemetry`` says, so that a held server is seen as changed):
    (1) the same plan twice, one core held busy during the first folder only: A/A cells called (goal ≤ 5 %);
    (2) the same plan twice on the host as it is, ``twin`` held to ``quota`` cores in the second folder: its cells
    called worse (goal ≥ 80 %), its true gap measured inside that folder against ``a``;
    (3) the busy first folder of (1) against the held one of (2): where the host differed beyond what the reference
    divides out no cell may be called better or equivalent (``undecided``, saying the host differed, or ``worse``)."""
    lines = ["== across folders: no control target named"]
    # with the telemetry a user's run keeps: the servers' cpu.stat shows the quota set on twin in the fourth folder,
    # so compare takes the unchanged a as its control by itself (ycsbctl.results.quota_held), as it does for a
    # user's changed setting or build; without it no control is chosen (30 Nov: every cell read through the
    # reference alone)
    args = argparse.Namespace(**{**vars(args), "telemetry": True})
    groups: dict[str, Any] = {}
    with servers(["a", "twin"], {}, tmp / "across", groups) as urls:
        folders = []
        for i, (hog, held) in enumerate(((True, False), (False, False), (False, False), (False, True))):
            _set_quota(groups["twin"], quota if held else None)
            with busy_core(hog):
                out = tmp / f"across-{i}"
                wall = experiment(urls, out, args)
            folders.append(out)
            print(f"across experiment {i + 1}/4 ({'busy' if hog else 'quiet'}"
                  f"{f', twin held to {quota:g} core' if held else ''}): {wall:.0f} s", flush=True)
        _set_quota(groups["twin"], None)
        lab = labels(folders[0], ["a", "twin"])
        aa = compared_cells(folders[0], folders[1])
        n = sum(c["verdict"] in ("better", "worse") for c in aa)
        lines.append(f"the same plan, busy then quiet: {n} of {len(aa)} A/A cells called better/worse "
                     f"({n / max(1, len(aa)):.1%}, goal ≤ 5 %); {host_factor_text(aa)}")
        r = pd.read_parquet(folders[3] / "runs.parquet")
        r = r[(r["phase"] == "run") & (r["status"] == "ok")]
        rt = r.pivot_table(index=["threads", "repetition"], columns="target", values="throughput_ops")
        gaps = (rt[lab["twin"]] / rt[lab["a"]]).groupby(level=0).apply(lambda x: 1 - math.exp(x.apply(math.log).mean()))
        true = ", ".join(f"{t}: {g:+.1%}" for t, g in gaps.items())
        for name, (x, y) in (("quiet then quiet", (2, 3)), ("busy then quiet", (0, 3))):
            slowed = compared_cells(folders[x], folders[y])
            tw = [c for c in slowed if c["target"] == lab["twin"] and c["metric"] == "throughput"]
            worse = sum(c["verdict"] == "worse" for c in tw)
            wrong = sum(c["verdict"] in ("better", "equivalent") for c in tw)
            other = [c for c in slowed if c["target"] == lab["a"] and c["metric"] == "throughput"]
            called = sum(c["verdict"] in ("better", "worse") for c in other)
            lines.append(f"{name}, twin held in the second folder ({true} true gap against a there): twin's "
                         f"throughput worse in {worse} of {len(tw)} ({worse / max(1, len(tw)):.0%}"
                         f"{', goal ≥ 80 %' if x == 2 else ''}), better or equivalent in {wrong} (goal 0); a's "
                         f"called in {called} of {len(other)}; {host_factor_text(slowed)}")
    return lines


def compare_condition(args: argparse.Namespace, condition: str, names: list[str], slow: dict[str, float],
                      dialled: bool, tmp: Path) -> None:
    """``--experiments`` experiments of ``condition`` (quiet or busy) and what they called, printed: every server in
    one alternation, or (``--apart``) ``a`` with each other server alone."""
    held = slow
    busy = condition == "busy"
    with busy_core(busy, args.busy_cpu):
        if busy and args.busy_cpu == "server" and dialled:  # the quotas' effect depends on the hog beside
            held, said = slowed(args)
            print("\n".join(f"busy: {line}" for line in said), flush=True)
        sets = [["a", n] for n in names[1:] if n != "twin" or not args.no_a_a] if args.apart else [names]
        folders: dict[tuple[str, ...], list[Path]] = {tuple(x): [] for x in sets}
        with servers(names, held, tmp / condition) as urls:
            for i in range(args.experiments):
                for x in sets:
                    out = tmp / (f"{condition}-{i}" + ("-" + x[1] if args.apart else ""))
                    wall = experiment({n: urls[n] for n in x}, out, args)
                    print(f"{condition} experiment {i + 1}/{args.experiments}"
                          f"{' (' + ', '.join(x) + ')' if args.apart else ''}: {wall:.0f} s", flush=True)
                    folders[tuple(x)].append(out)
    for x in sets:
        lines = summarise(folders[tuple(x)], x, {n: q for n, q in held.items() if n in x}, condition)
        if "twin" in x:  # the drift between folders: of the A/A set (the held servers' cells are erratic)
            lines += between_folders(folders[tuple(x)], x, not args.no_record)
        print("\n".join(lines), flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--experiments", type=int, default=3)
    ap.add_argument("--repeat", default="5", help="rounds, or auto: until decided or --budget is spent")
    ap.add_argument("--budget", default="10m", help="with --repeat auto: each experiment's time budget")
    ap.add_argument("--telemetry", action="store_true",
                    help="keep the telemetry (its host figures bound the noise of one round: the default plan's)")
    ap.add_argument("--threads", default="8,16,32,64")
    ap.add_argument("--duration", type=float, default=1.0)
    ap.add_argument("--warmup", type=float, default=2.0, help="seconds of warm-up before each point's window")
    ap.add_argument("--records", type=int, default=5000)
    ap.add_argument("--slow", default="dial10,0.7,0.45",
                    help="CPU quotas (cores) of the slowed servers; dialN: dialled here for a gap of about N %%")
    ap.add_argument("--conditions", default="quiet,busy,across",
                    help="quiet, busy (one core held busy), across (folders compared across a busy host's drift)")
    ap.add_argument("--busy-cpu", choices=("client", "server"), default="client",
                    help="the core the busy condition holds: the client's, or the servers' (where a planted gap "
                         "still shows; the dialled quotas are then dialled again under it)")
    ap.add_argument("--order", default="auto", help="the experiments' --order (auto: alternate with several targets)")
    ap.add_argument("--slice", type=float, default=None, help="the experiments' --slice (s) [ycsbctl's default]")
    ap.add_argument("--margin", default=None,
                    help="the experiments' --margin (the equivalence margin, e.g. 5%%) [ycsbctl's default]")
    ap.add_argument("--order-pairs", type=int, default=1)
    ap.add_argument("--no-record", action="store_true", help="leave this host's drift record as it is")
    ap.add_argument("--apart", action="store_true",
                    help="compare each planted server with a alone (a, twin; then a, slowN; ... each its own run, "
                         "as a user compares two things), not all of them in one alternation")
    ap.add_argument("--no-a-a", action="store_true",
                    help="with --apart: leave out the a, twin runs (the planted gaps only)")
    ap.add_argument("--keep", type=Path, help="keep the experiments' folders under this folder (else removed)")
    args = ap.parse_args()
    if not shutil.which("taskset") or not shutil.which("redis-server"):
        print("error: needs taskset (util-linux) and redis-server (make setup)", file=sys.stderr)
        return 2
    slow, dials = slowed(args)
    names = ["a", "twin", *slow]
    if dials:
        print("\n".join(dials), flush=True)
    print(f"servers on CPU {_cpuset(SERVER_CPUS)}, client on CPU {_cpuset(CLIENT_CPUS)}; workload B, "
          f"{args.repeat} rounds × threads {args.threads} × {args.duration:g} s (after {args.warmup:g} s of warm-up), "
          f"{args.records} records", flush=True)
    # a SIGTERM ends it like Ctrl-C: the servers, the busy process and the cgroups it made are removed
    with sigterm_as_interrupt(), tempfile.TemporaryDirectory(prefix="bench-verdicts-") as scratch:
        tmp = str(args.keep.resolve()) if args.keep else scratch
        Path(tmp).mkdir(parents=True, exist_ok=True)
        for condition in args.conditions.split(","):
            if condition == "across":
                # the ~30 % quota (0.7 core), not the dial
                held = min(slow.values(), key=lambda q: abs(q - 0.7), default=0.7)
                print("\n".join(across(args, held, Path(tmp))), flush=True)
                continue
            compare_condition(args, condition, names, slow, bool(dials), Path(tmp))
        if args.order_pairs:
            walls: dict[str, list[float]] = {"target": [], "interleaved": []}
            with servers(["a", "twin"], {}, Path(tmp) / "order") as urls:
                for i in range(args.order_pairs):
                    for order in ("target", "interleaved"):
                        walls[order].append(experiment(urls, Path(tmp) / f"order-{order}-{i}", args, order))
            ratios = [b / a for a, b in zip(walls["target"], walls["interleaved"])]
            print(f"== order: interleaved ÷ target wall time, pair by pair: {', '.join(f'{x:.3f}' for x in ratios)} "
                  f"(goal ≤ 1.05)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

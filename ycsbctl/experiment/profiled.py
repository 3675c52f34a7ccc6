"""``--cpu-profile``: on-CPU stacks of the points that matter (:mod:`ycsbctl.telemetry.profiler`).

- ``all``: every point is profiled as it is measured.
- ``peak`` (the value when none is given): after a target's last point, the best ``ok`` point of each
  workload (highest throughput) is run once more with the profilers attached. That run is not a
  point of the experiment (its numbers would be the profilers' as much as the server's); its
  throughput is kept beside the peak's, which says what profiling cost.

Files go to ``profiles/<run id>/`` in the result folder (``server.folded``/``.svg``,
``client.folded``/``.svg``, ``top_frames.csv``), and the manifest's ``profiles`` says what each holds,
its notes (perf missing or not permitted: one line, and the point goes on), the server's kernel share
from its stacks beside its system-time share from ``/proc``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ycsbctl.results.names import RunStatus

if TYPE_CHECKING:
    from ycsbctl.experiment.point_runner import PointRunner
    from ycsbctl.provision import Endpoint
    from ycsbctl.results.folder import RunRecord
    from ycsbctl.telemetry.profiler import Profile

PROFILES_DIR = "profiles"


NO_FOLDER = "--cpu-profile: profiles are kept in a result folder; give --out DIR (this run is not profiled)"


def profile_folder(runner: PointRunner, run_id: str) -> Path | None:
    """Where a point's profile goes: ``profiles/<run id as a file name>`` of the result folder (None: no folder,
    said once)."""
    root = getattr(runner.sink, "path", None)
    if root is None:
        if not runner.profile_refused:
            runner.console.note(NO_FOLDER)
            runner.profile_refused = True
        return None
    from ycsbctl.results.tables import file_stem

    return Path(root) / PROFILES_DIR / file_stem(run_id)


def keep(runner: PointRunner, run_id: str, profile: Profile | None, **extra: Any) -> None:
    """Record ``profile`` in the manifest (and say its notes)."""
    if profile is None:
        return
    for note in profile.notes:
        runner.console.note(f"profile {run_id}: {note}")
    entry = {**profile.to_dict(), **{k: v for k, v in extra.items() if v is not None}}
    runner.sink.update_manifest(profiles={**runner.sink.manifest.profiles, run_id: entry})


def best_points(records: list[RunRecord], label: str) -> list[RunRecord]:
    """The highest-throughput ``ok`` run-phase point of each of ``label``'s workloads."""
    best: dict[str, RunRecord] = {}
    for r in records:
        if r.target != label or r.phase != "run" or r.status != RunStatus.OK or r.result is None:
            continue
        if r.workload not in best or r.result.throughput_ops > best[r.workload].result.throughput_ops:  # type: ignore[union-attr]
            best[r.workload] = r
    return list(best.values())


def profile_peaks(runner: PointRunner, ep: Endpoint, label: str) -> None:
    """Run the best point of each of ``label``'s workloads once more, profiled (see the module's doc)."""
    from ycsbctl.experiment.measure import run_point

    for record in best_points(runner.records, label):
        point = runner.measured.get(record.run_id)
        if point is None:  # measured before a --resume: its point is not known to this sweep
            continue
        folder = profile_folder(runner, record.run_id)
        if folder is None:
            return
        runner.console.start_point(f"{label} {record.workload} {record.threads} threads, profiled (the peak, again)")
        out = run_point(ep, point, runner.study, runner.console.progress, baseline=runner.baseline,
                        engine=runner.engine, profile_dir=folder)
        tput = out.result.throughput_ops if out.result is not None else None
        peak = record.result.throughput_ops if record.result is not None else None
        runner.console.progress.end_point(
            f"{tput:,.0f} ops/s profiled against {peak:,.0f} unprofiled" if tput and peak else "profiled run failed")
        proc_share = out.telemetry_summary.server_kernel_share if out.result is not None else None
        keep(runner, record.run_id, out.profile, profiled_throughput_ops=tput, throughput_ops=peak,
             server_kernel_share_proc=proc_share, mode="peak")

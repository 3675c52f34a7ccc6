"""Running a plan: the host claim, the result folder's life cycle (create or ``--resume``, finalize,
a full disk), Ctrl-C and SIGTERM; the sweep itself is :class:`~ycsbctl.experiment.sweep.Sweep`."""

from __future__ import annotations

import sys
from pathlib import Path

from ycsbctl.engine.contract import Engine
from ycsbctl.engine.limits import check_workload_memory, raise_fd_limit
from ycsbctl.errors import UserError
from ycsbctl.experiment.facts import host_facts, versions
from ycsbctl.experiment.host_claim import claim_host
from ycsbctl.experiment.live_console import Console, YcsbBlock
from ycsbctl.experiment.measure import engine_for
from ycsbctl.experiment.naming import (
    check_disturbances,
    check_plan,
    experiment_id,
    sweep_phase,
    workload_properties,
)
from ycsbctl.experiment.outcome import Outcome
from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.progress import Progress
from ycsbctl.experiment.servers import ProvisionedServers, Servers
from ycsbctl.experiment.store import MemoryStore, ResultStore
from ycsbctl.experiment.sweep import Sweep
from ycsbctl.processes import sigterm_as_interrupt
from ycsbctl.results.disk import check_writable, disk_error
from ycsbctl.results.names import FolderStatus
from ycsbctl.results.schema import Manifest
from ycsbctl.results.store import ResultFolder, now_iso
from ycsbctl.results.variants import split_variant
from ycsbctl.urls import redact_text
from ycsbctl.workload.core_plugin import CorePlugin
from ycsbctl.workload.plugin import load_workload


def build_manifest(plan: Plan, command_line: str, exp_id: str) -> Manifest:
    """The manifest a run starts with: plan, versions, host; servers and the rest fill in as it goes."""
    return Manifest(experiment_id=exp_id, command_line=redact_text(command_line), plan=plan.to_dict(),
                    versions=versions(), host=host_facts(), started_at=now_iso())


def run_plan(
    plan: Plan,
    out_root: Path | None,
    command_line: str,
    *,
    resume: Path | None = None,
    write: bool = True,
    print_ycsb: bool = False,
    quiet: bool = False,
    allow_concurrent: bool = False,
    engine: Engine | None = None,
    servers: Servers | None = None,
    resume_targets: bool = False,
) -> Outcome:
    """Run ``plan`` (or the rest of the plan stored in ``resume``) and finalise its folder.

    Refused before anything starts when another ycsbctl measures on this host (unless
    ``allow_concurrent``) or the folder cannot be written; a disk that fills or turns read-only
    later ends the run with one line naming the folder and the ``--resume`` command. ``engine``
    and ``servers`` default to the plan's (:func:`~ycsbctl.experiment.measure.engine_for`, :mod:`ycsbctl.provision`).
    ``resume_targets``: with ``resume``, ``plan.targets`` were given by the user (to carry passwords)."""
    if resume is None:
        check_plan(plan)
    if any(not t.startswith("basic:") for t in plan.targets):  # basic:// opens no connection
        raise_fd_limit(max(plan.threads), plan.processes)
    for workload in plan.workloads:  # values that cannot fit in memory: refused before anything starts
        w = load_workload(workload_properties(plan, workload))
        if isinstance(w, CorePlugin):
            check_workload_memory(w.core, max(plan.threads))
        else:
            w.check_memory(max(plan.threads))
    if resume is not None:  # a folder another ycsbctl writes is refused before this one claims the host
        ResultFolder.check_free(Path(resume))
    claim = claim_host(redact_text(command_line), allow_concurrent)
    folder: ResultFolder | None = None
    try:
        if resume is not None:
            check_writable(Path(resume).parent)
            # the plan given with --resume only carries the passwords the manifest does not keep; it is
            # checked against the stored one before the folder is touched
            given, stored = plan, []
            folder = ResultFolder.reopen(resume, check=lambda m: stored.append(Plan.from_dict(m.plan).with_secrets(
                given.targets if resume_targets else [], given.properties)))
            plan = stored[0]
        elif write:
            # --out names the folder itself; by default it is reports/<experiment-id>.
            root, exp_id = (out_root.parent, out_root.name) if out_root is not None else (Path("reports"), experiment_id(plan))
            check_writable(root / exp_id)
            try:
                folder = ResultFolder.create(root, exp_id, build_manifest(plan, command_line, exp_id),
                                             unique=out_root is None)
            except OSError as exc:
                raise _disk_full(exc, root / exp_id, None) from None
        # a single point not kept (no --out) is held in memory: printed, then gone
        store: ResultStore = folder if folder is not None else MemoryStore(
            Manifest(experiment_id=experiment_id(plan), plan=plan.to_dict()))
        # every planned point, plus the dataset load of each target whose run-phase points need one (one
        # per variant of a sweep axis: each loads its own dataset)
        wanted = [w if split_variant(w)[1] else "" for w in plan.workloads if sweep_phase(plan, w) == "run"]
        datasets = sum(1 for i, d in enumerate(wanted) if i == 0 or d != wanted[i - 1]) or 1
        loads = datasets * sum(1 for t in plan.targets if plan.loads(t) and plan.phase != "load"
                               and any(sweep_phase(plan, w) == "run" for w in plan.workloads))
        console = Console(Progress(plan.points() + loads, quiet=quiet), YcsbBlock.of(plan) if print_ycsb else None)
        for line in check_disturbances(plan):  # what each target will be sent (each checked above)
            console.note(f"disturbance on {line}")
        servers = servers or ProvisionedServers(plan, store.manifest.experiment_id, console.note)
        sweep = Sweep(plan, servers, engine or engine_for(plan), store, console, claim)
        sweep.outcome.experiment_id = store.manifest.experiment_id
        return _sweep(sweep, folder)
    finally:
        if folder is not None:
            folder.close()
        claim.close()


def _disk_full(exc: OSError, where: Path, folder: ResultFolder | None) -> UserError:
    """One line for a write the file system refused, naming the folder and how to go on."""
    resume = f"free space, then `ycsbctl run --resume {folder.final_path}`" if folder else ""
    return UserError(f"cannot write the result folder {where}: {exc.strerror or exc}"
                     + ("; the finished points are kept" if folder else ""), exit_code=1, fix=resume)


def _sweep(sweep: Sweep, folder: ResultFolder | None) -> Outcome:
    """Run the sweep with SIGTERM as Ctrl-C, then finalise the folder whatever happened."""
    refused: OSError | None = None
    outcome = sweep.outcome
    with sigterm_as_interrupt():
        try:
            sweep.run()
        except OSError as exc:
            if folder is None or not disk_error(exc):
                raise
            refused = exc
        finally:
            sweep.console.close()
            if folder is not None:
                try:
                    status = outcome.folder_status(refused=refused is not None)
                    if status == FolderStatus.COMPLETE and sys.exc_info()[0] is not None:
                        status = FolderStatus.PARTIAL  # the sweep stopped early (e.g. no Dask worker left)
                    folder.update_manifest(ended_at=now_iso(), status=status)
                    outcome.folder = folder.finalize(status)
                except OSError as exc:
                    if not disk_error(exc):
                        raise
                    refused = refused or exc
    if refused is not None:
        assert folder is not None  # only a folder's writes are refused
        raise _disk_full(refused, folder.path, folder)
    return outcome

"""Running a plan: the host claim, the result folder's life cycle (create or ``--resume``, finalize,
a full disk), Ctrl-C and SIGTERM; the sweep itself is :class:`~ycsbctl.experiment.sweep.Sweep`."""

from __future__ import annotations

import errno
import sys
from pathlib import Path

from ycsbctl.engine.contract import Engine, NativeEngine
from ycsbctl.engine.limits import check_workload_memory, raise_fd_limit
from ycsbctl.errors import UserError
from ycsbctl.experiment.cannot import cannot_line
from ycsbctl.experiment.facts import host_facts, versions
from ycsbctl.experiment.host_claim import claim_host
from ycsbctl.experiment.live_console import Console, YcsbBlock
from ycsbctl.experiment.measure import engine_for
from ycsbctl.experiment.outcome import Outcome
from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.progress import Progress
from ycsbctl.experiment.resolve import experiment_id, resolve_study
from ycsbctl.experiment.result_sink import MemorySink, ResultSink
from ycsbctl.experiment.servers import ProvisionedServers, Servers
from ycsbctl.experiment.study import Study
from ycsbctl.experiment.sweep import Sweep
from ycsbctl.experiment.url_datasets import check_url_datasets
from ycsbctl.processes import sigterm_as_interrupt
from ycsbctl.results.disk import check_writable, disk_error
from ycsbctl.results.folder import ResultFolder, now_iso
from ycsbctl.results.names import FolderStatus
from ycsbctl.results.schema import Manifest
from ycsbctl.telemetry.network import baseline_seconds
from ycsbctl.urls import redact_text
from ycsbctl.workload.core_plugin import CorePlugin
from ycsbctl.workload.properties import PropertySources


def build_manifest(study: Study, command_line: str, exp_id: str) -> Manifest:
    """The manifest a run starts with: plan, versions, host; servers and the rest fill in as it goes."""
    return Manifest(experiment_id=exp_id, command_line=redact_text(command_line), plan=study.plan_dict(),
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
    sources: PropertySources | None = None,
    study: Study | None = None,
) -> Outcome:
    """Run ``plan`` (or the rest of the plan stored in ``resume``) and finalise its folder.

    The plan is resolved once (:func:`~ycsbctl.experiment.resolve.resolve_study`: checked, its property
    files read — ``sources``: as the command already read them —, its workloads built) and refused before
    anything starts when another ycsbctl measures on this host (unless ``allow_concurrent``) or the folder
    cannot be written; a disk that fills or turns read-only later ends the run with one line naming the
    folder and the ``--resume`` command. ``engine`` and ``servers`` default to the plan's
    (:func:`~ycsbctl.experiment.measure.engine_for`, :mod:`ycsbctl.provision`). ``resume_targets``: with
    ``resume``, ``plan.targets`` were given by the user (to carry passwords). ``study``: the plan as the caller
    resolved it already (the CLI does, so that bad input is refused before this module's imports)."""
    if resume is None:
        study = study or resolve_study(plan, sources)
        _check_host_limits(study)
    else:  # a folder another ycsbctl writes is refused before this one claims the host
        ResultFolder.check_free(Path(resume))
    if plan.telemetry:
        baseline_seconds()  # a bad YCSBCTL_BASELINE_S is one line before anything starts
    claim = claim_host(redact_text(command_line), allow_concurrent)
    folder: ResultFolder | None = None
    try:
        if resume is not None:
            folder, study = _reopen(Path(resume), plan, resume_targets)
        else:
            assert study is not None
            check_url_datasets(study)  # after the claim: another ycsbctl loading the URL now is said as that
            if write:
                folder = _create_folder(study, out_root, command_line)
        # a single point not kept (no --out) is held in memory: printed, then gone
        sink: ResultSink = folder if folder is not None else MemorySink(
            Manifest(experiment_id=experiment_id(study), plan=study.plan_dict()))
        console = _console(study, sink, print_ycsb, quiet)
        servers = servers or ProvisionedServers(study, sink.manifest.experiment_id, console.note)
        engine = engine or engine_for(study)
        if isinstance(engine, NativeEngine):  # its workers' imports done while the servers start, once
            engine.warm_up(t.store for t in study.targets)
        sweep = Sweep(study, servers, engine, sink, console, claim)
        sweep.outcome.experiment_id = sink.manifest.experiment_id
        return _sweep(sweep, folder)
    finally:
        if folder is not None:
            folder.close()
        claim.close()


def _reopen(resume: Path, given: Plan, resume_targets: bool) -> tuple[ResultFolder, Study]:
    """The folder ``resume`` reopened, with its stored plan resolved. The plan ``given`` with ``--resume`` only
    carries the passwords the manifest does not keep (``resume_targets``: its targets were given by the user);
    it is checked against the stored one, and the stored one resolved, before the folder is touched."""
    check_writable(resume.parent)
    stored: list[Study] = []

    def resolve_stored(m: Manifest) -> None:
        if m.source == "import-ycsb":  # was resumed: our own points added as repetitions of another tool's
            raise UserError(f"{resume} holds YCSB output read by import-ycsb: there is no plan of ours "
                            "to finish", fix="start a new experiment (ycsbctl run … --out DIR) and compare the two")
        from ycsbctl.experiment.rerun import plan_of_manifest

        resumed = resolve_study(plan_of_manifest(resume, m, "--resume").with_secrets(
            given.targets if resume_targets else [], given.properties))
        _check_host_limits(resumed)
        stored.append(resumed)

    folder = ResultFolder.reopen(resume, check=resolve_stored)
    return folder, stored[0]


def _create_folder(study: Study, out_root: Path | None, command_line: str) -> ResultFolder:
    """The new result folder: ``--out`` names the folder itself; by default it is reports/<experiment-id>."""
    root, exp_id = (out_root.parent, out_root.name) if out_root is not None else (Path("reports"), experiment_id(study))
    check_writable(root / exp_id)
    try:
        return ResultFolder.create(root, exp_id, build_manifest(study, command_line, exp_id),
                                   unique=out_root is None)
    except OSError as exc:
        raise _disk_full(exc, root / exp_id, None) from None


def _console(study: Study, sink: ResultSink, print_ycsb: bool, quiet: bool) -> Console:
    """The console of the run, counting every planned point but those of the cells a store cannot do, plus the
    dataset load of each target whose run-phase points need one; it has said, before anything starts, what
    each target will be sent (each disturbance checked when resolved) and each cell a store cannot do (one
    line each, kept in the manifest)."""
    console = Console(Progress(study.plan.points() - study.points_not_run + study.dataset_loads, quiet=quiet),
                      YcsbBlock.of(study) if print_ycsb else None)
    for line in study.disturbances:
        console.note(f"disturbance on {line}")
    for cell in study.cannot:
        console.note(cannot_line(cell))
    if study.cannot:
        sink.update_manifest(cannot=list(study.cannot))
    return console


def _check_host_limits(study: Study) -> None:
    """Open files for every client connection, values that fit in memory, and the YCSB install ``--engine ycsb``
    names: raised or refused before anything starts."""
    plan = study.plan
    if plan.engine == "ycsb":  # a --ycsb-home that is no YCSB: one line, exit 2, not a failed point per point
        from ycsbctl.engine.ycsb_java import find_ycsb

        find_ycsb(plan.ycsb_home)
    if not all(t.store.engine_only for t in study.targets):  # basic:// opens no connection
        raise_fd_limit(max(plan.threads), plan.processes)
    for case in study.cases:
        w = case.built
        if isinstance(w, CorePlugin):
            check_workload_memory(w.core, max(plan.threads))
        else:
            w.check_memory(max(plan.threads))


def _disk_full(exc: OSError, where: Path, folder: ResultFolder | None) -> UserError:
    """One line for a write the file system refused, naming the folder and how to go on."""
    # "free space" was said of a folder made read-only or immutable too (campaign, 27 Nov: chattr +i mid-sweep)
    first = "free space" if exc.errno in (errno.ENOSPC, errno.EDQUOT) else f"make {where} writable again"
    resume = f"{first}, then `ycsbctl run --resume {folder.final_path}`" if folder else ""
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

"""Runs a plan: provision → iperf baseline → load → each thread count with telemetry → store.

Everything we start is stopped on any exit (Ctrl-C and SIGTERM included); every finished point
is on disk before the next starts; the folder is renamed into place when the plan ends.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ycsbctl.dataset_check import DatasetCheck
from ycsbctl.errors import UserError
from ycsbctl.experiment_judge import judge
from ycsbctl.host_claim import HostClaim, claim_host
from ycsbctl.limits import raise_fd_limit
from ycsbctl.manifest import host_facts, versions
from ycsbctl.plan import DEFAULT_TARGETS, Plan, is_url, target_label
from ycsbctl.point import PointOutcome, guarded, load_dataset, run_point
from ycsbctl.progress import Progress
from ycsbctl.provision import Endpoint, provision, redact_url, restart, server_alive, teardown
from ycsbctl.provision.signals import sigterm_as_interrupt
from ycsbctl.results.client_lag import client_lag_warning
from ycsbctl.results.disk import check_writable, disk_error
from ycsbctl.results.store import ResultFolder, RunRecord, now_iso
from ycsbctl.urls import redact_text
from ycsbctl.workload.core import CoreWorkload
from ycsbctl.workload.properties import Properties, load_properties, resolve_workload

MONGO_STAND_IN = "ferretdb"


@dataclass
class Outcome:
    """What a plan produced: the folder, every point, skipped targets, and how it ended."""

    folder: Path | None
    records: list[RunRecord] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)
    interrupted: bool = False
    report_failed: bool = False  # the data is complete but report.html could not be written

    @property
    def exit_code(self) -> int:
        """130 after Ctrl-C; 1 when a target was skipped or any point is not ``ok`` — a ``degraded``
        point (stalled server, short dataset, busy host) too: its numbers are not a healthy server's."""
        if self.interrupted:
            return 130
        bad = self.skipped or any(r.status != "ok" for r in self.records)
        return 1 if bad else 0


def experiment_id(plan: Plan) -> str:
    names = "-".join(Path(resolve_workload(w)).name.replace("workload", "") for w in plan.workloads)
    return time.strftime("%Y%m%d-%H%M%S") + f"-{names}"[:40]


def workload_properties(plan: Plan, workload: str) -> Properties:
    """The workload file, -P files, the plan's scale, then -p overrides (the user wins)."""
    props = load_properties(workload, plan.property_files, [])
    props["recordcount"] = str(plan.record_count)
    ops = plan.point_operations
    # 0 = until the duration ends (YCSB's convention). With zipfian and run-phase inserts (E), YCSB
    # sizes the key space with operationcount·insertproportion: pass -p operationcount=N for that.
    props["operationcount"] = str(ops if ops is not None else 0)
    props.update(load_properties(None, [], plan.properties))
    if plan.measurement:
        props["measurement.interval"] = plan.measurement
    return props


def build_manifest(plan: Plan, command_line: str, exp_id: str) -> dict[str, Any]:
    return {
        "experiment_id": exp_id,
        "command_line": redact_text(command_line),
        "plan": plan.to_dict(),
        "versions": versions(),
        "host": host_facts(),
        "servers": {},
        "footprints": {},
        "network": {},
        "skipped_targets": [],
        "substitutions": [],
        "started_at": now_iso(),
        "status": "running",
    }


class Experiment:
    """One plan's execution; :func:`run_plan` is the entry point."""

    def __init__(self, plan: Plan, folder: ResultFolder | None, progress: Progress, print_ycsb: bool,
                 claim: HostClaim | None = None) -> None:
        self.plan = plan
        self.claim = claim
        self.folder = folder
        self.progress = progress
        self.print_ycsb = print_ycsb
        self.outcome = Outcome(folder=None)
        self.exp_id = folder.manifest["experiment_id"] if folder else experiment_id(plan)
        self.done_ids = folder.run_ids("ok") if folder else set()
        self.baseline: Any = None  # the current target's iperf3 baseline
        self.busy_at_start: list[str] = []  # other ycsbctl measuring when the current point began
        self.dataset = DatasetCheck(progress)

    # -- targets --------------------------------------------------------------------------

    def _provision(self, target: str) -> Endpoint | None:
        plan = self.plan
        try:
            ep = provision(
                _with_password(target, workload_properties(plan, plan.workloads[0])), plan.backend,
                experiment_id=self.exp_id, image=plan.images.get(target),
                server_cpus=plan.server_cpus, server_memory=plan.server_memory, say=self.progress.note,
            )
        except UserError as exc:
            self._skip(target, str(exc))
            return None
        if self.folder:
            servers = dict(self.folder.manifest.get("servers", {}))
            servers[target_label(target)] = ep.to_dict() | {"url": redact_url(ep.url)}
            self.folder.update_manifest(servers=servers)
        return ep

    def _skip(self, target: str, reason: str) -> None:
        fix = reason.rsplit(": ", 1)[-1] if ": " in reason else ""  # our errors end with what to do
        entry = {"target": target_label(target), "reason": reason, "fix": fix}
        self.outcome.skipped.append(entry)
        self.progress.note(f"{target_label(target)}: skipped — {reason}")
        if self.folder:
            self.folder.update_manifest(skipped_targets=self.outcome.skipped)

    # -- the sweep ------------------------------------------------------------------------

    def run(self) -> Outcome:
        try:
            targets = list(self.plan.targets)
            for target in targets:  # a stand-in appended below is swept in its turn
                if not self._points_left(target):
                    continue
                ep = self._provision(target)
                if ep is None:
                    self._add_stand_in(target, targets)
                    continue
                self.endpoint = ep
                try:
                    self._sweep_target(target, ep)
                finally:
                    teardown(self.endpoint)  # the one running now (a crash may have restarted it)
        except KeyboardInterrupt:
            self.outcome.interrupted = True
            self.progress.close()
            self.progress.note("interrupted: stopped every server we started; keeping the finished points")
        return self.outcome

    def _add_stand_in(self, target: str, targets: list[str]) -> None:
        """When the default plan's ``mongodb`` cannot run here, measure its MongoDB-protocol
        stand-in too — announced, recorded, and labelled as itself, never as MongoDB."""
        if target != "mongodb" or list(self.plan.targets) != list(DEFAULT_TARGETS) or MONGO_STAND_IN in targets:
            return
        targets.append(MONGO_STAND_IN)
        msg = (f"mongodb could not be provisioned here; measuring {MONGO_STAND_IN} as the MongoDB-protocol "
               "stand-in (its numbers are not MongoDB's)")
        self.progress.note(msg)
        if self.folder:
            self.folder.update_manifest(substitutions=[{"wanted": "mongodb", "used": MONGO_STAND_IN, "note": msg}])

    def _points_left(self, target: str) -> bool:
        return any(
            RunRecord.make_id(target_label(target), _wl_name(w), _phase_of(w, self.plan), t, r) not in self.done_ids
            for w in self.plan.workloads
            for t in self.plan.threads
            for r in range(1, self.plan.repeat + 1)
        )

    def _sweep_target(self, target: str, ep: Endpoint) -> None:
        plan = self.plan
        label = target_label(target)
        self.baseline = None
        if plan.telemetry:
            self._baseline(label, ep)
        loaded = False
        if not plan.loads(target) and plan.phase != "load":  # `ycsbctl load` reads nothing
            self._check_dataset(label, ep)
        for workload in plan.workloads:
            props = workload_properties(plan, workload)
            w = CoreWorkload.from_properties(props)
            name = _wl_name(workload)
            for threads in plan.threads:
                for rep in range(1, plan.repeat + 1):
                    phase = "load" if w.insert_only or plan.phase == "load" else "run"
                    run_id = RunRecord.make_id(label, name, phase, threads, rep)
                    if run_id in self.done_ids:
                        continue
                    if phase == "load":
                        # The insert workload measures the load itself, into an empty database each
                        # time; `ycsbctl load` loads into the target as it is.
                        fresh = plan.phase != "load"
                        record = self._point(ep, label, name, "load", threads, rep, props, fresh=fresh)
                    else:
                        if not loaded and plan.loads(target):
                            ok = self._load(ep, label, props)
                            if not ok:
                                return
                            loaded = True
                        record = self._point(ep, label, name, "run", threads, rep, props)
                    if record.status == "interrupted":
                        raise KeyboardInterrupt
                    if record.status == "failed" and not is_url(target) and not server_alive(ep):
                        self.progress.note(f"{label}: the server died during the point; restarting it")
                        try:
                            ep = self.endpoint = restart(ep)
                        except UserError as exc:
                            self._skip(target, f"could not restart after a crash: {exc}")
                            return
                        loaded = False  # an in-memory server comes back empty

    def _check_dataset(self, label: str, ep: Endpoint) -> None:
        """A server we do not load must hold the records the plan reads: say so when it does not."""
        wanted = int(workload_properties(self.plan, self.plan.workloads[0]).get("recordcount", 0) or 0)
        stored = self.dataset.at_start(label, ep.url, wanted)
        if stored and self.plan.telemetry and self.folder is not None:
            from ycsbctl import telemetry

            # Not loaded by us: the whole server's memory over the records it holds (an upper bound).
            got = guarded("server's memory", lambda: telemetry.footprint_after(ep, {}, stored), self.progress)
            if got is not None:
                fp = got.to_dict()
                fp["note"] = "measured on a server ycsbctl did not load: includes the empty server's own memory"
                self.folder.update_manifest(footprints={**self.folder.manifest.get("footprints", {}), label: fp})

    def _baseline(self, label: str, ep: Endpoint) -> None:
        from ycsbctl import telemetry

        base = telemetry.iperf_baseline(ep, iperf_server=self.plan.iperf_server)
        self.baseline = base
        if base is None:
            return
        info = base.to_dict()
        gbit = info.get("gbit_s")
        note = f" ({info['note']})" if info.get("note") else ""
        self.progress.note(f"{label}: network baseline {f'{gbit:.2f} Gbit/s' if gbit else 'not measured'}{note}")
        if self.plan.cluster and self.plan.iperf_server:  # and from each client host (Dask worker)
            from ycsbctl.telemetry.client_network import client_host_baselines

            info["client_hosts"] = client_host_baselines(self.plan.cluster, self.plan.iperf_server)
            self.progress.note(f"{label}: from client hosts " + ", ".join(
                f"{h['name']} {h['gbit_s']:.2f} Gbit/s" if h.get("gbit_s") else f"{h['name']} not measured ({h['note']})"
                for h in info["client_hosts"]))
        if self.folder:
            network = dict(self.folder.manifest.get("network", {}))
            network[label] = info
            self.folder.update_manifest(network=network)

    def _load(self, ep: Endpoint, label: str, props: Properties) -> bool:
        """Clear and load the dataset once per target; keep the load as a point and its footprint."""
        plan = self.plan
        threads = min(max(plan.threads[0], 8), 32)
        name = _wl_name(plan.workloads[0])
        self.progress.start_point(f"{label} load of {plan.record_count:,} records, {threads} threads")
        started = now_iso()
        out: PointOutcome = load_dataset(ep, props, threads, plan, self.progress, baseline=self.baseline)
        if out.footprint and self.folder:
            fps = dict(self.folder.manifest.get("footprints", {}))
            fps[label] = out.footprint
            self.folder.update_manifest(footprints=fps)
        record = self._store(out, ep, label, name, "load", threads, 1, started)
        if record.status == "interrupted":
            raise KeyboardInterrupt
        if record.status not in ("ok", "degraded"):  # a degraded load still loaded every record
            self._skip(label, f"loading the dataset failed: {record.error or 'see the load point'}")
            return False
        return True

    def _point(self, ep: Endpoint, label: str, workload: str, phase: str, threads: int, rep: int,
               props: Properties, fresh: bool = False) -> RunRecord:
        plan = self.plan
        self.progress.start_point(f"{label} {workload} {threads} threads" + (f" (rep {rep})" if plan.repeat > 1 else ""))
        started = now_iso()
        wanted = int(props.get("recordcount", 0) or 0)
        note = self.dataset.before_point(label, ep.url, wanted, props.get("table", "usertable")) if phase == "run" else None
        self.busy_at_start = self.claim.others() if self.claim is not None else []
        out = run_point(ep, props, phase, threads, plan, self.progress, fresh=fresh, baseline=self.baseline)
        return self._store(out, ep, label, workload, phase, threads, rep, started, dataset_note=note)

    def _store(self, out: PointOutcome, ep: Endpoint, label: str, workload: str, phase: str, threads: int,
               rep: int, started: str, dataset_note: str | None = None) -> RunRecord:
        """Judge a point (see :mod:`ycsbctl.experiment_judge`), write it to the folder, tell the user."""
        plan = self.plan
        run_id = RunRecord.make_id(label, workload, phase, threads, rep)
        r = out.result
        others = list(dict.fromkeys(self.busy_at_start + (self.claim.others() if self.claim is not None else [])))
        self.busy_at_start = []
        busy = f"another ycsbctl measured on this host meanwhile ({others[0]})" if others else None
        v = judge(r, max_error_rate=plan.max_error_rate, error=out.error, bottleneck=out.bottleneck,
                  dataset_note=dataset_note, host_busy=busy)
        record = RunRecord(
            run_id=run_id, target=label, workload=workload, phase=phase, threads=threads, repetition=rep,
            status=v.status, result=r, telemetry=out.telemetry, telemetry_summary=out.telemetry_summary,
            bottleneck=v.bottleneck, endpoint=ep.to_dict() | {"url": redact_url(ep.url)},
            error=v.reason, started_at=started, ended_at=now_iso(),
        )
        if self.folder:
            self.folder.add_run(record)
        self.outcome.records.append(record)
        self.progress.end_point(_point_summary(record))
        if self.print_ycsb and r is not None:
            from ycsbctl.results.ycsb_text import format_phase

            sys.stdout.write(format_phase(r))
            sys.stdout.flush()
        return record


def _with_password(target: str, props: Properties) -> str:
    """A ``redis://`` URL without a password takes ``-p redis.password`` (as YCSB's binding does), so the
    checks before the run, telemetry and the clients all authenticate alike."""
    from urllib.parse import quote, urlsplit, urlunsplit

    pw = props.get("redis.password")
    u = urlsplit(target)
    if not pw or u.scheme not in ("redis", "rediss") or u.password:
        return target
    user = quote(u.username or "", safe="")
    return urlunsplit(u._replace(netloc=f"{user}:{quote(pw, safe='')}@{u.netloc.rpartition('@')[2]}"))


def _wl_name(workload: str) -> str:
    return Path(resolve_workload(workload)).name


def _phase_of(workload: str, plan: Plan) -> str:
    w = CoreWorkload.from_properties(load_properties(workload))
    return "load" if w.insert_only or plan.phase == "load" else "run"


def _point_summary(record: RunRecord) -> str:
    r = record.result
    if r is None:
        return f"{record.status}: {record.error}"
    main = next((s for n, s in r.ops.items() if n in ("READ", "INSERT", "UPDATE", "SCAN")), None)
    p99 = f", p99 {main.percentile(99) / 1000:.2f} ms ({main.name})" if main and main.operations else ""
    bn = f", {record.bottleneck['label']}" if record.bottleneck else ""
    counts = "".join(f", {n:,} {st}" for st in ("NOT_FOUND", "ERROR", "TIMEOUT") if (n := r.returns(st)))
    err = f" — {record.error}" if record.error else ""
    lag = client_lag_warning(r)
    return f"{r.throughput_ops:,.0f} ops/s{p99}{counts}{bn}, {record.status}{err}" + (f"\n  {lag}" if lag else "")


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
) -> Outcome:
    """Run ``plan`` (or the rest of the plan stored in ``resume``) and finalise its folder.

    Refused before anything starts when another ycsbctl measures on this host (unless
    ``allow_concurrent``) or the folder cannot be written; a disk that fills or turns read-only
    later ends the run with one line naming the folder and the ``--resume`` command."""
    if any(not t.startswith("basic:") for t in plan.targets):  # basic:// opens no connection
        raise_fd_limit(max(plan.threads), plan.processes)
    claim = claim_host(redact_text(command_line), allow_concurrent)
    folder: ResultFolder | None = None
    try:
        if resume is not None:
            check_writable(Path(resume).parent)
            folder = ResultFolder.reopen(resume)
            # the plan given with --resume only carries the passwords the manifest does not keep
            plan = Plan.from_dict(folder.manifest["plan"]).with_secrets(plan.targets, plan.properties)
        elif write:
            # --out names the folder itself; by default it is reports/<experiment-id>.
            root, exp_id = (out_root.parent, out_root.name) if out_root is not None else (Path("reports"), experiment_id(plan))
            check_writable(root / exp_id)
            try:
                folder = ResultFolder.create(root, exp_id, build_manifest(plan, command_line, exp_id),
                                             unique=out_root is None)
            except OSError as exc:
                raise _disk_full(exc, root / exp_id, None) from None
        return _run(plan, folder, claim, print_ycsb, quiet)
    finally:
        if folder is not None:
            folder.close()
        claim.close()


def _disk_full(exc: OSError, where: Path, folder: ResultFolder | None) -> UserError:
    """One line for a write the file system refused, naming the folder and how to go on."""
    resume = f"; the finished points are kept: free space, then `ycsbctl run --resume {folder.final_path}`" if folder else ""
    return UserError(f"cannot write the result folder {where}: {exc.strerror or exc}{resume}", exit_code=1)


def _run(plan: Plan, folder: ResultFolder | None, claim: HostClaim, print_ycsb: bool, quiet: bool) -> Outcome:
    # every planned point, plus the dataset load of each target whose run-phase points need one
    loads = sum(1 for t in plan.targets if plan.loads(t) and plan.phase != "load"
                and any(_phase_of(w, plan) == "run" for w in plan.workloads))
    progress = Progress(plan.points() + loads, quiet=quiet)
    exp = Experiment(plan, folder, progress, print_ycsb, claim)
    refused: OSError | None = None
    with sigterm_as_interrupt():
        try:
            outcome = exp.run()
        except OSError as exc:
            if folder is None or not disk_error(exc):
                raise
            refused, outcome = exc, exp.outcome
        finally:
            progress.close()
            if folder is not None:
                stopped = sys.exc_info()[0] is not None  # e.g. no Dask worker left: the sweep ended early
                status = "interrupted" if exp.outcome.interrupted or refused else (
                    "complete" if not stopped and not exp.outcome.skipped
                    and all(r.status == "ok" for r in exp.outcome.records) else "partial"
                )
                try:
                    folder.update_manifest(ended_at=now_iso(), status=status)
                    exp.outcome.folder = folder.finalize(status)
                except OSError as exc:
                    if not disk_error(exc):
                        raise
                    refused = refused or exc
    if refused is not None:
        raise _disk_full(refused, folder.path, folder)  # type: ignore[union-attr]
    return outcome

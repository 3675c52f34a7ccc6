"""One point of a sweep, start to finish: check the dataset, run the engine inside telemetry,
judge the result (:mod:`ycsbctl.experiment.judge`), keep it in the result sink, tell the user."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar

from ycsbctl.engine.contract import Engine
from ycsbctl.experiment.dataset import DatasetCheck
from ycsbctl.experiment.explain import host_busy, with_why
from ycsbctl.experiment.host_claim import HostClaim
from ycsbctl.experiment.judge import judge
from ycsbctl.experiment.live_console import Console, RecordUnits
from ycsbctl.experiment.measure import PointOutcome, load_dataset, point_length, run_point
from ycsbctl.experiment.profiled import keep, profile_folder
from ycsbctl.experiment.progress import PointLength
from ycsbctl.experiment.result_sink import ResultSink
from ycsbctl.experiment.study import Case, Point, Study
from ycsbctl.provision import Endpoint
from ycsbctl.results.folder import RunRecord, now_iso
from ycsbctl.results.held_slices import held_in, held_note, held_seconds
from ycsbctl.results.model import PhaseResult
from ycsbctl.results.names import RunStatus
from ycsbctl.stores.capabilities import ClientPauses, ErrorHints, Replication, StallCause
from ycsbctl.stores.registry import admin_errors, ask
from ycsbctl.telemetry.replicas_lost import replicas_lost_note
from ycsbctl.urls import redact_url

if TYPE_CHECKING:
    from ycsbctl.stores.base import ServerProtocol

C = TypeVar("C")
R = TypeVar("R")
P = ParamSpec("P")

WRONGTYPE = "WRONGTYPE"  # Redis: the key holds another data type than the command's
WRONGTYPE_HINT = ("run with --load: the keys on the server were stored by another structure or workload than "
                  "this point's (online.structure variants share their keys; --load loads each variant's own)")
# a load into a target that already holds its keys (`ycsbctl load` twice, a URL loaded before): the store refused
# an insert; `run --load` empties the target first, so only a load into the target as it is gets here
ALREADY_HELD = ("the target already holds records this load inserts: empty it, or measure what it holds "
                "(ycsbctl run without --load), or load with ycsbctl run --load, which empties it first")


def asked_server(store: ServerProtocol | str, question: Callable[Concatenate[C, P], R], *args: P.args,
                 **kwargs: P.kwargs) -> R | None:
    """:func:`~ycsbctl.stores.registry.ask` for a capability's question the store answers by asking its server (its
    replicas, why it stalled or paused), around a point whose server may be gone or refusing by then (what the
    point itself records): None when the server cannot be asked (its ``store``'s ``admin_errors``); any other
    error (a bug in the store's answer) propagates."""
    try:
        return ask(store, question, *args, **kwargs)
    except admin_errors(store):  # the server cannot be asked now: the point's own outcome says why
        return None


def disturbance_windows(events) -> list[tuple[float, float]]:
    """(start, end) s since the operations began of each event that ran: its command, and the
    second after it (the stall it causes may outlast the command's reply by a little), or its affected
    window when that is longer (a slowdown)."""
    if events is None or not len(events):
        return []
    ran = events.dropna(subset=["t_s", "command_s"])
    ends = ran["affected_end_s"] if "affected_end_s" in ran else [math.nan] * len(ran)
    return [(float(t), max(float(t) + float(d) + 1.0, float(a) if a == a else 0.0))
            for t, d, a in zip(ran["t_s"], ran["command_s"], ends)]


class PointRunner:
    """Measures points of ``study`` with ``engine`` and adds each to ``sink`` (and to ``records``)."""

    def __init__(self, study: Study, engine: Engine, sink: ResultSink, console: Console,
                 claim: HostClaim | None = None) -> None:
        self.study = study
        self.engine = engine
        self.sink = sink
        self.console = console
        self.claim = claim
        self.dataset = DatasetCheck(console.progress)
        self.records: list[RunRecord] = []
        self.measured: dict[str, Point] = {}  # run id -> the point it measured (--cpu-profile peak runs it again)
        self.baseline: object | None = None  # the current target's iperf3 NetworkBaseline
        self._busy_at_start: list[str] = []  # other ycsbctl measuring when the current point began
        self.position: int | None = None  # the next point's place in the sweep's order (set by the sweep)
        self.loaded: set[str] = set()  # the URLs this sweep loaded a dataset into
        self.hinted = False  # the WRONGTYPE hint was given
        self.profile_refused = False  # --cpu-profile without a result folder was said
        self.units: dict[str, RecordUnits] = {}  # workloads whose operations store several records each

    def load(self, ep: Endpoint, point: Point) -> RunRecord:
        """Clear and load the dataset (``point``: its load, measured like any point); its footprint goes
        to the manifest (a variant's, under ``workload_footprints``)."""
        label, workload = point.target.label, point.workload_name
        self.console.start_point(f"{label} load of {self.study.plan.record_count:,} records, {point.threads} threads",
                                 point_length(self.study, point))
        started = now_iso()
        self.loaded.add(ep.url)
        self.dataset.forget(ep.url)
        replicas = asked_server(ep.store, Replication.replicas, ep.url)
        out = load_dataset(ep, point, self.study, self.console.progress, baseline=self.baseline, engine=self.engine)
        m = self.sink.manifest
        if out.footprint and point.case.variant:
            kept = {**m.workload_footprints, workload: {**m.workload_footprints.get(workload, {}),
                                                        label: out.footprint}}
            self.sink.update_manifest(workload_footprints=kept)
        elif out.footprint:
            self.sink.update_manifest(footprints={**m.footprints, label: out.footprint})
        return self._keep(out, ep, point, started, position=None, after_note=self._short_after_load(out, ep, point),
                          replica_note=_replicas_lost(ep, replicas, out))

    def _short_after_load(self, out: PointOutcome, ep: Endpoint, point: Point) -> str | None:
        """Why a load is not ``ok`` though every insert was: the server holds fewer records than it
        acknowledged (memcached evicting for room, a maxmemory policy, a TTL)."""
        if out.result is None or out.error is not None or not point.case.built.counts_records:
            return None
        insert = out.result.ops.get("INSERT")
        acknowledged = insert.returns.get("OK", 0) if insert is not None else 0
        return self.dataset.after_load(ep, acknowledged, point.case.table)

    def point(self, ep: Endpoint, point: Point) -> RunRecord:
        """One point of the ladder (its ``rate``: offered ops/s, None: unpaced; a ``fresh`` one empties the
        database first: a load measured as the sweep)."""
        plan, case = self.study.plan, point.case
        label, store = point.target.label, ep.store
        length = point_length(self.study, point)
        self.console.start_point(f"{label} {case.name} {point.threads} threads"
                                 + (f" at {point.rate:,.0f} ops/s" if point.rate else "")
                                 + (f" (rep {point.repetition})" if plan.repeat > 1 else "")
                                 + _load_bound(plan.operations, point.phase, length), length)
        started = now_iso()
        wanted = case.record_count
        if point.fresh or point.phase == "load":  # it empties the database, or loads into it
            self.dataset.forget(ep.url)
        # a workload whose records are not the store's keys or documents (one Hash holds every user) says so
        checked = point.phase == "run" and case.built.counts_records
        note = self.dataset.before_point(label, ep, wanted, case.table) if checked else None
        self._busy_at_start = self._others()
        self._record_units(case)
        profile_dir = profile_folder(self, point.run_id) if plan.cpu_profile == "all" else None
        replicas = asked_server(store, Replication.replicas, ep.url)
        out = run_point(ep, point, self.study, self.console.progress, baseline=self.baseline, engine=self.engine,
                        profile_dir=profile_dir)
        if point.phase == "load":  # `ycsbctl load`, the insert workload: a load measured as a point of its own
            after = self._short_after_load(out, ep, point)
        elif checked and not point.fresh and note is None and out.result is not None:
            after = self.dataset.after_point(ep, wanted, case.table)
        else:
            after = None
        record = self._keep(out, ep, point, started, dataset_note=note, after_note=after, position=self.position,
                            replica_note=_replicas_lost(ep, replicas, out))
        self.measured[record.run_id] = point
        keep(self, record.run_id, out.profile, throughput_ops=out.result.throughput_ops if out.result else None,
             server_kernel_share_proc=out.telemetry_summary.server_kernel_share, mode="all")
        if case.properties.get_bool("hdrhistogram.fileoutput",
                                    False) and out.result is not None and out.result.intervals:
            from ycsbctl.results.hdr_log import write_ycsb_logs

            # YCSB's file names for one point; a sweep's points each get their run id in front
            tag = None if plan.points() == 1 else record.run_id
            try:
                for path in write_ycsb_logs(out.result.intervals, case.properties.get("hdrhistogram.output.path", ""),
                                            tag):
                    self.console.note(f"HdrHistogram log: {path}")
            except OSError as exc:  # the point is kept; only its copy for hdrhistogram.fileoutput is missing
                self.console.note(f"could not write the HdrHistogram log ({exc}); the point's histograms are kept")
        return record

    def together(self, pairs: list[tuple[Endpoint, Point, object]], session: str,
                 reference: tuple[Endpoint, Point, Callable[[PhaseResult | None], None]] | None = None
                 ) -> list[RunRecord]:
        """One cell's points of a round, one per target (``pairs``: its endpoint, the point, its iperf3 baseline),
        measured in one alternated session (:mod:`ycsbctl.experiment.alternated_measure`); each target's record
        is judged and kept as a point of its own, ``session`` naming the session they share. ``reference``: the
        reference server's endpoint and point, measured as the session's last target, and what takes its result
        (it is no run: :mod:`ycsbctl.experiment.reference`)."""
        from ycsbctl.experiment.alternated_measure import measure_alternated, session_point_length, slice_of

        eps, points = [ep for ep, _, _ in pairs], [p for _, p, _ in pairs]
        first = points[0]
        labels = " ⇄ ".join(p.target.label for p in points)
        every = len(points) + (reference is not None)
        self.console.start_point(f"{labels} {first.case.name} {first.threads} threads, alternating every "
                                 f"{slice_of(self.study, every, len(points) if reference else None):g} s"
                                 + (" beside the reference" if reference else "")
                                 + (f" (rep {first.repetition})" if self.study.plan.repeat > 1 else ""),
                                 session_point_length(self.study, every, reference is not None))
        started = now_iso()
        checked = first.case.built.counts_records
        notes = [self.dataset.before_point(p.target.label, ep, p.case.record_count, p.case.table) if checked else None
                 for ep, p in zip(eps, points)]
        busy = self._others()
        self._record_units(first.case)
        replicas = [asked_server(ep.store, Replication.replicas, ep.url) for ep in eps]
        ref_eps, ref_points = ([reference[0]], [reference[1]]) if reference else ([], [])
        outs = measure_alternated(eps + ref_eps, points + ref_points, self.study, self.console.progress,
                                  [b for _, _, b in pairs], self.engine, reference=reference is not None)
        if reference is not None:
            reference[2](outs.pop().result)
        records = []
        for i, (ep, point, out) in enumerate(zip(eps, points, outs)):
            after = (self.dataset.after_point(ep, point.case.record_count, point.case.table)
                     if checked and notes[i] is None and out.result is not None else None)
            self._busy_at_start = list(busy)
            position = None if self.position is None else self.position + i
            record = self._keep(out, ep, point, started, dataset_note=notes[i], after_note=after, position=position,
                                replica_note=_replicas_lost(ep, replicas[i], out), session=session)
            self.measured[record.run_id] = point
            records.append(record)
        return records

    def _record_units(self, case: Case) -> None:
        """Once per workload whose operations do not each store one record (online-status's BATCH-STORE
        stores ``online.batchsize`` users): its unit and records per operation go to the manifest, so the
        report can say users per second beside operations per second."""
        units = self.sink.manifest.record_units
        if case.name in units:  # said before (--resume): the console still says its records per second
            self.units.setdefault(case.name, RecordUnits(units[case.name]["unit"], dict(units[case.name]["per_op"])))
            return
        w = case.built
        if w.records_per_operation():
            self.units[case.name] = RecordUnits(w.record_unit, w.records_per_operation())
            self.sink.update_manifest(record_units={**units, case.name: {"unit": w.record_unit,
                                                                         "per_op": w.records_per_operation()}})

    def _others(self) -> list[str]:
        return self.claim.others() if self.claim is not None else []

    def _keep(self, out: PointOutcome, ep: Endpoint, point: Point, started: str, dataset_note: str | None = None,
              after_note: str | None = None, position: int | None = None,
              replica_note: str | None = None, session: str | None = None) -> RunRecord:
        """Judge a point, write it to the sink, tell the user. A point of an alternated session carries the slices
        another target's late operations took whole (:func:`~ycsbctl.results.held_slices.held_in`)."""
        own = out.result.slices if out.result is not None else None
        held = held_in(own)
        others = list(dict.fromkeys(self._busy_at_start + self._others()))
        self._busy_at_start = []
        busy = host_busy(others, out.bottleneck)
        store = ep.store
        v = judge(out.result, max_error_rate=self.study.plan.max_error_rate, error=out.error, bottleneck=out.bottleneck,
                  dataset_note=dataset_note, host_busy=busy, after_note=after_note,
                  disturbances=disturbance_windows(out.events),
                  pause_cause=lambda: asked_server(store, ClientPauses.pause_cause, ep.url,
                                                   out.result.binding_counts if out.result else None),
                  stall_cause=lambda: asked_server(store, StallCause.stall_cause, ep.url),
                  own_wait=lambda: _own_lock_wait(store, ep.url, out.result),
                  replica_note=replica_note, held=held_seconds(own, held),
                  held_note=held_note(held, len(own) if own is not None else 0))
        if v.status != RunStatus.FAILED:  # a failed point is not explained as a measured one (see Verdict)
            v.bottleneck = with_why(v.bottleneck, point.target.label, point.threads, out.result, out.events)
        reason = v.reason
        wrong_type = bool(reason and WRONGTYPE in reason and ep.url not in self.loaded)
        if wrong_type:
            reason = f"{reason} — {WRONGTYPE_HINT}"
        elif reason and point.phase == "load" and not point.fresh and store.already_held(reason):
            reason = f"{ALREADY_HELD}; {reason}"
        elif reason and (hint := ask(store, ErrorHints.error_hint, reason, point.case.properties)):
            reason = f"{reason} — {hint}"
        record = RunRecord(
            run_id=point.run_id, target=point.target.label, workload=point.workload_name, phase=point.phase,
            threads=point.threads, repetition=point.repetition, status=v.status, result=out.result,
            telemetry=out.telemetry, telemetry_summary=out.telemetry_summary, bottleneck=v.bottleneck,
            endpoint=ep.to_dict() | {"url": redact_url(ep.url)}, error=reason, started_at=started,
            ended_at=now_iso(), target_rate=point.rate, events=out.events, order_index=position,
            # verdicts compare an ok point, and one degraded only by a busy host where the rounds pair the targets
            compared=v.status == RunStatus.OK or (v.compared and self.study.paired), session=session,
        )
        self.sink.add_run(record)
        self.records.append(record)
        self.console.point_done(record, self.units.get(point.workload_name))
        if wrong_type and not self.hinted:  # the point's line may be cut to the terminal's width: said once in full
            self.hinted = True
            self.console.note(f"hint: {WRONGTYPE_HINT}")
        if out.events is not None:
            from ycsbctl.experiment.disturb import event_lines

            for line in event_lines(out.events):
                self.console.note(f"  {line}")
        return record


def _load_bound(operations: int | None, phase: str, length: PointLength) -> str:
    """What ends a measured load (``ycsbctl run insert``), said as it starts: ``: 10,000 inserts or 5 s,
    whichever first``; ``--operations`` (``operations``) above the records it can insert says so."""
    if phase != "load":
        return ""
    bounds = [f"{length.operations:,} inserts"] if length.operations else []
    if length.seconds:
        bounds.append(f"{length.seconds:g} s")
    capped = (f" (--operations {operations:,} is more than the {length.operations:,} records there are to insert)"
              if operations is not None and length.operations is not None and operations > length.operations
              else "")
    return (": " + ", or ".join(bounds) + (", whichever first" if len(bounds) > 1 else "") + capped) if bounds else ""


WRITES = ("INSERT", "UPDATE", "DELETE", "READ-MODIFY-WRITE")  # operations that take a store's write lock
READS = ("READ", "SCAN")  # operations that write nothing


def _replicas_lost(ep: Endpoint, before: list[str] | None, out: PointOutcome) -> str | None:
    """The point's replica note: replicas the primary had before it (``before``) and no longer has, when the
    telemetry first saw one gone, and what its figures are then true of (its operations wrote, or only read)."""
    if not before or out.result is None:
        return None
    # anything but a READ or a SCAN (a plug-in's operations included) may have written
    wrote = any(s.operations for name, s in out.result.ops.items() if name.removesuffix("-FAILED") not in READS)
    return replicas_lost_note(before, asked_server(ep.store, Replication.replicas, ep.url), wrote, out.telemetry,
                              out.result.t_start_mono)


def _own_lock_wait(store: ServerProtocol, url: str, result: PhaseResult | None) -> str | None:
    """The ``store``'s reason why the point's own clients waited on each other's lock inside it
    (:meth:`ycsbctl.stores.capabilities.ClientPauses.own_lock_wait`), from the point's worker processes and writes."""
    if result is None:
        return None
    writes = sum(s.operations for name, s in result.ops.items() if name in WRITES)
    return ask(store, ClientPauses.own_lock_wait, url, result.processes or 1, writes)

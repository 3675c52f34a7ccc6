"""One point of a sweep, start to finish: check the dataset, run the engine inside telemetry,
judge the result (:mod:`ycsbctl.experiment.judge`), keep it in the store, tell the user."""

from __future__ import annotations

from ycsbctl.engine.contract import Engine
from ycsbctl.experiment.dataset import DatasetCheck
from ycsbctl.experiment.host_claim import HostClaim
from ycsbctl.experiment.judge import judge
from ycsbctl.experiment.live_console import Console
from ycsbctl.experiment.measure import PointOutcome, load_dataset, run_point
from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.store import ResultStore
from ycsbctl.provision import Endpoint
from ycsbctl.results.store import RunRecord, now_iso
from ycsbctl.urls import redact_url
from ycsbctl.workload.plugin import load_workload
from ycsbctl.workload.properties import Properties


def disturbance_windows(events) -> list[tuple[float, float]]:
    """(start, end) s since the operations began of each event that ran: its command, and the
    second after it (the stall it causes may outlast the command's reply by a little)."""
    if events is None or not len(events):
        return []
    ran = events.dropna(subset=["t_s", "command_s"])
    return [(float(t), float(t) + float(d) + 1.0) for t, d in zip(ran["t_s"], ran["command_s"])]


class PointRunner:
    """Measures points of ``plan`` with ``engine`` and adds each to ``store`` (and to ``records``)."""

    def __init__(self, plan: Plan, engine: Engine, store: ResultStore, console: Console,
                 claim: HostClaim | None = None) -> None:
        self.plan = plan
        self.engine = engine
        self.store = store
        self.console = console
        self.claim = claim
        self.dataset = DatasetCheck(console.progress)
        self.records: list[RunRecord] = []
        self.baseline: object | None = None  # the current target's iperf3 NetworkBaseline
        self._busy_at_start: list[str] = []  # other ycsbctl measuring when the current point began

    def load(self, ep: Endpoint, label: str, workload: str, props: Properties, variant: bool = False) -> RunRecord:
        """Clear and load the dataset (measured like any point); its footprint goes to the manifest
        (a variant's, ``workload``'s dataset, under ``workload_footprints``)."""
        plan = self.plan
        threads = plan.load_threads or min(max(plan.threads[0], 8), 32)
        self.console.start_point(f"{label} load of {plan.record_count:,} records, {threads} threads")
        started = now_iso()
        out = load_dataset(ep, props, threads, plan, self.console.progress, baseline=self.baseline,
                           engine=self.engine)
        m = self.store.manifest
        if out.footprint and variant:
            kept = {**m.workload_footprints, workload: {**m.workload_footprints.get(workload, {}), label: out.footprint}}
            self.store.update_manifest(workload_footprints=kept)
        elif out.footprint:
            self.store.update_manifest(footprints={**m.footprints, label: out.footprint})
        return self._keep(out, ep, label, workload, "load", threads, 1, started)

    def point(self, ep: Endpoint, label: str, workload: str, phase: str, threads: int, rep: int,
              props: Properties, fresh: bool = False, rate: float | None = None) -> RunRecord:
        """One point of the ladder (``rate``: offered ops/s, None: unpaced); ``fresh`` empties the
        database first (a load measured as the sweep)."""
        plan = self.plan
        self.console.start_point(f"{label} {workload} {threads} threads" + (f" at {rate:,.0f} ops/s" if rate else "")
                                 + (f" (rep {rep})" if plan.repeat > 1 else ""))
        started = now_iso()
        wanted = int(props.get("recordcount", 0) or 0)
        # a workload whose records are not the store's keys or documents (one Hash holds every user) says so
        checked = phase == "run" and load_workload(props).counts_records
        note = (self.dataset.before_point(label, ep.url, wanted, props.get("table", "usertable"))
                if checked else None)
        self._busy_at_start = self._others()
        out = run_point(ep, props, phase, threads, plan, self.console.progress, fresh=fresh, baseline=self.baseline,
                        engine=self.engine, rate=rate)
        after = (self.dataset.after_point(ep.url, wanted, props.get("table", "usertable"))
                 if checked and not fresh and note is None and out.result is not None else None)
        record = self._keep(out, ep, label, workload, phase, threads, rep, started, dataset_note=note, rate=rate,
                            after_note=after)
        if props.get_bool("hdrhistogram.fileoutput", False) and out.result is not None and out.result.intervals:
            from ycsbctl.results.hdr_log import write_ycsb_logs

            # YCSB's file names for one point; a sweep's points each get their run id in front
            tag = None if plan.points() == 1 else record.run_id
            try:
                for path in write_ycsb_logs(out.result.intervals, props.get("hdrhistogram.output.path", ""), tag):
                    self.console.note(f"HdrHistogram log: {path}")
            except OSError as exc:  # the point is kept; only its copy for hdrhistogram.fileoutput is missing
                self.console.note(f"could not write the HdrHistogram log ({exc}); the point's histograms are kept")
        return record

    def _others(self) -> list[str]:
        return self.claim.others() if self.claim is not None else []

    def _keep(self, out: PointOutcome, ep: Endpoint, label: str, workload: str, phase: str, threads: int,
              rep: int, started: str, dataset_note: str | None = None, rate: float | None = None,
              after_note: str | None = None) -> RunRecord:
        """Judge a point, write it to the store, tell the user."""
        others = list(dict.fromkeys(self._busy_at_start + self._others()))
        self._busy_at_start = []
        busy = f"another benchmark ran on this host meanwhile ({others[0]})" if others else None
        v = judge(out.result, max_error_rate=self.plan.max_error_rate, error=out.error, bottleneck=out.bottleneck,
                  dataset_note=dataset_note, host_busy=busy, after_note=after_note,
                  disturbances=disturbance_windows(out.events))
        record = RunRecord(
            run_id=RunRecord.make_id(label, workload, phase, threads, rep, rate), target=label, workload=workload,
            phase=phase, threads=threads, repetition=rep, status=v.status, result=out.result,
            telemetry=out.telemetry, telemetry_summary=out.telemetry_summary, bottleneck=v.bottleneck,
            endpoint=ep.to_dict() | {"url": redact_url(ep.url)}, error=v.reason, started_at=started,
            ended_at=now_iso(), target_rate=rate, events=out.events,
        )
        self.store.add_run(record)
        self.records.append(record)
        self.console.point_done(record)
        if out.events is not None:
            from ycsbctl.experiment.disturb import event_lines

            for line in event_lines(out.events):
                self.console.note(f"  {line}")
        return record

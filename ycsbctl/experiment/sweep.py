"""The sweep: every target in turn — provision, network baseline, dataset check or load, each
workload × thread count × offered rate × repetition (or an SLO search over rates) — with the stand-in policy, crash restarts and skips.

Everything it needs is passed in: the servers (:class:`~ycsbctl.experiment.servers.Servers`), the
engine (:class:`~ycsbctl.engine.contract.Engine`) and the store
(:class:`~ycsbctl.experiment.store.ResultStore`). Points already ``ok`` in the store are not run
again (``--resume``).
"""

from __future__ import annotations

from ycsbctl.engine.contract import Engine
from ycsbctl.errors import UserError
from ycsbctl.experiment.host_claim import HostClaim
from ycsbctl.experiment.live_console import Console
from ycsbctl.experiment.measure import guarded
from ycsbctl.experiment.naming import sweep_phase, workload_name, workload_properties
from ycsbctl.experiment.outcome import Outcome
from ycsbctl.experiment.plan import Plan, is_url, target_label
from ycsbctl.experiment.point_runner import PointRunner
from ycsbctl.experiment.servers import Servers
from ycsbctl.experiment.standin import stand_in
from ycsbctl.experiment.store import ResultStore
from ycsbctl.provision import Endpoint
from ycsbctl.provision.catalog import BadSettings
from ycsbctl.provision.probe import redact_config
from ycsbctl.provision.target_spec import settings_text
from ycsbctl.results.names import RunStatus
from ycsbctl.results.schema import SkippedTarget
from ycsbctl.results.store import RunRecord
from ycsbctl.results.variants import split_variant
from ycsbctl.urls import redact_url
from ycsbctl.workload.plugin import load_workload
from ycsbctl.workload.properties import Properties


class Sweep:
    """One plan's points against its targets; :meth:`run` returns the :class:`Outcome`."""

    def __init__(self, plan: Plan, servers: Servers, engine: Engine, store: ResultStore, console: Console,
                 claim: HostClaim | None = None) -> None:
        self.plan = plan
        self.servers = servers
        self.store = store
        self.console = console
        self.points = PointRunner(plan, engine, store, console, claim)
        self.outcome = Outcome(folder=None, records=self.points.records)
        self.done_ids = store.run_ids(RunStatus.OK)
        self.endpoint: Endpoint | None = None  # the server of the current target (a restart replaces it)
        self.loaded: str | None = None  # the dataset on the current target's server: its workload's name, or None
        self.dataset = ""  # the dataset the next point needs: "" (the plan's first workload's) or a variant's name

    def run(self) -> Outcome:
        """Every target in plan order; Ctrl-C (KeyboardInterrupt) stops the sweep, keeping what is done."""
        try:
            targets = list(self.plan.targets)
            self._try_settings([t for t in targets if self._points_left(t)][1:])
            for target in targets:  # a stand-in appended below is swept in its turn
                if not self._points_left(target):
                    continue
                ep = self._up(target)
                if ep is None:
                    self._add_stand_in(target, targets)
                    continue
                self.endpoint = ep
                try:
                    self._sweep_target(target, ep)
                finally:
                    self.servers.down(self.endpoint)  # the one running now (a crash may have restarted it)
        except KeyboardInterrupt:
            self.outcome.interrupted = True
            self.console.close()
            self.console.note("interrupted: stopped every server we started; keeping the finished points")
        return self.outcome

    # -- targets --------------------------------------------------------------------------------------
    def _try_settings(self, later: list[str]) -> None:
        """Start and stop, before anything is measured, each later target that has settings: a setting
        its server refuses ends the run now (BadSettings, exit 2), not after the targets before it were
        measured. A target that cannot start for another reason is left to its turn (skipped there)."""
        for target in later:
            if is_url(target) or not self.plan.spec(target).settings:
                continue
            try:
                ep = self.servers.up(target, workload_properties(self.plan, self.plan.workloads[0]))
            except BadSettings:
                raise
            except UserError:
                continue
            self.servers.down(ep)
            self.console.note(f"{target}: its server accepts its settings ({settings_text(ep.settings)})")

    def _up(self, target: str) -> Endpoint | None:
        try:
            ep = self.servers.up(target, workload_properties(self.plan, self.plan.workloads[0]))
        except BadSettings:
            raise  # bad input, not a server this host lacks: the run stops (exit 2), nothing left running
        except UserError as exc:
            self._skip(target, exc.message, exc.fix)
            return None
        doc = ep.to_dict() | {"url": redact_url(ep.url), "settings": redact_config(ep.settings)}
        self.store.update_manifest(servers={**self.store.manifest.servers, target_label(target): doc})
        return ep

    def _skip(self, target: str, reason: str, fix: str) -> None:
        """A target that cannot be measured: said, and recorded with its fix."""
        entry = SkippedTarget(target=target_label(target), reason=f"{reason}: {fix}" if fix else reason, fix=fix)
        self.outcome.skipped.append(entry)
        self.console.note(f"{entry.target}: skipped — {entry.reason}")
        self.store.update_manifest(skipped_targets=list(self.outcome.skipped))

    def _add_stand_in(self, target: str, targets: list[str]) -> None:
        sub = stand_in(self.plan, target, targets)
        if sub is None:
            return
        targets.append(sub.used)
        self.console.note(sub.note)
        self.store.update_manifest(substitutions=[*self.store.manifest.substitutions, sub])

    def _points_left(self, target: str) -> bool:
        plan = self.plan
        label = target_label(target)
        if plan.slo:  # a search's points are only known as it goes: one not finished means more to do
            done = {(s.get("target"), s.get("workload"), s.get("threads")) for s in self.store.manifest.slo_searches
                    if s.get("finished")}
            return any((label, workload_name(w), t) not in done for w in plan.workloads for t in plan.threads)
        return any(
            RunRecord.make_id(label, workload_name(w), sweep_phase(plan, w), t, r, rate) not in self.done_ids
            for w in plan.workloads for t in plan.threads for rate in self._rates(sweep_phase(plan, w))
            for r in range(1, plan.repeat + 1)
        )

    def _rates(self, phase: str) -> list[float | None]:
        """The offered rates of a workload's points: the plan's for run-phase points; a load is unpaced."""
        return self.plan.rate_axis if phase == "run" else [None]

    # -- one target -----------------------------------------------------------------------------------
    def _sweep_target(self, target: str, ep: Endpoint) -> None:
        plan = self.plan
        label = target_label(target)
        self.points.baseline = None
        if plan.telemetry:
            self._baseline(label, ep)
        self.loaded = None
        if (not plan.loads(target) and plan.phase != "load"  # `ycsbctl load` reads nothing
                and load_workload(workload_properties(plan, plan.workloads[0])).counts_records):
            self._check_dataset(label, ep)
        for workload in plan.workloads:
            props = workload_properties(plan, workload)
            w = load_workload(props)
            name = workload_name(workload)
            # a variant of a sweep axis (online.structure=hash) has a dataset of its own: loaded before its points
            self.dataset = name if split_variant(workload)[1] else ""
            phase = "load" if w.insert_only or plan.phase == "load" else "run"
            for threads in plan.threads:
                if plan.slo and phase == "run":
                    from ycsbctl.experiment.rate_search import search_point

                    if not search_point(self, target, label, name, threads, props):
                        return
                    continue
                for rate in self._rates(phase):
                    for rep in range(1, plan.repeat + 1):
                        if RunRecord.make_id(label, name, phase, threads, rep, rate) in self.done_ids:
                            continue
                        if self.measure(target, label, name, phase, threads, rep, props, rate) is None:
                            return

    def measure(self, target: str, label: str, workload: str, phase: str, threads: int, rep: int,
                props: Properties, rate: float | None = None) -> RunRecord | None:
        """One point on the current server (loading the dataset first when it needs it); a crashed
        server is restarted. None when the target is skipped from here on (load failed, no restart)."""
        plan = self.plan
        ep = self.endpoint
        assert ep is not None
        if phase == "load":
            # The insert workload measures the load itself, into an empty database each time;
            # `ycsbctl load` loads into the target as it is.
            record = self.points.point(ep, label, workload, "load", threads, rep, props, fresh=plan.phase != "load")
        else:
            if self.loaded != self.dataset and plan.loads(target):
                if not self._load(ep, label, props):
                    return None
                self.loaded = self.dataset
            record = self.points.point(ep, label, workload, "run", threads, rep, props, rate=rate)
        if record.status == RunStatus.INTERRUPTED:
            raise KeyboardInterrupt
        if record.status == RunStatus.FAILED and not is_url(target) and not self.servers.alive(ep):
            self.console.note(f"{label}: the server died during the point; restarting it")
            try:
                self.endpoint = self.servers.restart(ep)
            except UserError as exc:
                self._skip(target, f"could not restart after a crash: {exc.message}", exc.fix)
                return None
            self.loaded = None  # an in-memory server comes back empty
        return record

    def _load(self, ep: Endpoint, label: str, props: Properties) -> bool:
        """Load the dataset once per target (and after a restart); False when it failed (target skipped)."""
        record = self.points.load(ep, label, self.dataset or workload_name(self.plan.workloads[0]), props,
                                  variant=bool(self.dataset))
        if record.status == RunStatus.INTERRUPTED:
            raise KeyboardInterrupt
        if record.status not in (RunStatus.OK, RunStatus.DEGRADED):  # a degraded load still loaded every record
            self._skip(label, f"loading the dataset failed: {record.error or 'see the load point'}", "")
            return False
        return True

    def _check_dataset(self, label: str, ep: Endpoint) -> None:
        """A server we do not load must hold the records the plan reads: say so when it does not."""
        plan = self.plan
        wanted = int(workload_properties(plan, plan.workloads[0]).get("recordcount", 0) or 0)
        stored = self.points.dataset.at_start(label, ep.url, wanted)
        if stored and plan.telemetry and self.store.durable:
            from ycsbctl import telemetry

            # Not loaded by us: the whole server's memory over the records it holds (an upper bound).
            got = guarded("server's memory", lambda: telemetry.footprint_after(ep, {}, stored), self.console.progress)
            if got is not None:
                fp = got.to_dict()
                fp["note"] = "measured on a server ycsbctl did not load: includes the empty server's own memory"
                self.store.update_manifest(footprints={**self.store.manifest.footprints, label: fp})

    def _baseline(self, label: str, ep: Endpoint) -> None:
        from ycsbctl.experiment.baseline import measure_baseline

        base, info = measure_baseline(self.plan, ep, self.console.note)
        self.points.baseline = base
        if base is None or info is None:
            return
        gbit = info.get("gbit_s")
        note = f" ({info['note']})" if info.get("note") else ""
        self.console.note(f"{label}: network baseline {f'{gbit:.2f} Gbit/s' if gbit else 'not measured'}{note}")
        if "client_hosts" in info:
            self.console.note(f"{label}: from client hosts " + ", ".join(
                f"{h['name']} {h['gbit_s']:.2f} Gbit/s" if h.get("gbit_s") else f"{h['name']} not measured ({h['note']})"
                for h in info["client_hosts"]))
        self.store.update_manifest(network={**self.store.manifest.network, label: info})

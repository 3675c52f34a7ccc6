"""A sweep's targets brought up and down (:class:`SweepTargets`, :class:`~ycsbctl.experiment.sweep.Sweep`'s
base): each one's server started (settings tried first), its network baseline, what the server says of
the workload's properties and the dataset it holds; a target that cannot start is skipped, with its
fix, and its stand-in appended.
"""

from __future__ import annotations

from dataclasses import dataclass

from ycsbctl.errors import UserError
from ycsbctl.experiment.live_console import Console
from ycsbctl.experiment.measure import guarded
from ycsbctl.experiment.outcome import Outcome
from ycsbctl.experiment.point_runner import PointRunner
from ycsbctl.experiment.result_sink import ResultSink
from ycsbctl.experiment.servers import Servers
from ycsbctl.experiment.standin import stand_in
from ycsbctl.experiment.study import Case, Study, Target
from ycsbctl.provision import Endpoint
from ycsbctl.provision.probe import redact_config
from ycsbctl.provision.target_spec import settings_text
from ycsbctl.results.schema import SkippedTarget
from ycsbctl.stores.registry import admin_errors
from ycsbctl.stores.server_kind import BadSettings
from ycsbctl.telemetry.network import NetworkBaseline
from ycsbctl.urls import redact_url


@dataclass
class TargetState:
    """A target whose server is up: its endpoint (a restart replaces it), the dataset loaded into it
    (:attr:`~ycsbctl.experiment.study.Case.dataset_key`, None before a load) and its network baseline."""

    endpoint: Endpoint
    loaded: str | None = None
    baseline: object | None = None



class SweepTargets:
    """Bringing a sweep's targets up and down; the state is :class:`~ycsbctl.experiment.sweep.Sweep`'s."""

    study: Study
    servers: Servers
    sink: ResultSink
    console: Console
    points: PointRunner
    outcome: Outcome
    loopback: dict[str, tuple[str, NetworkBaseline]]  # measure_baseline's, by backend
    up: dict[str, TargetState]  # target name -> its server and dataset, while it is up

    # -- targets --------------------------------------------------------------------------------------
    def _bring_up(self, target: Target, targets: list[Target], baselines: dict[str, object] | None = None) -> bool:
        """Start ``target``'s server, measure its network baseline (once: ``baselines`` keeps it across the
        blocks of the ``blocks`` order), check its dataset; a target that cannot start is skipped (and its
        stand-in appended to ``targets``)."""
        ep = self._up(target)
        if ep is None:
            self._add_stand_in(target, targets)
            return False
        state = self.up[target.name]
        self._start_notes(target.label, ep)
        self.points.baseline = None
        if baselines is not None and target.name in baselines:
            self.points.baseline = baselines[target.name]
        elif self.study.plan.telemetry:
            self._baseline(target.label, ep)
        state.baseline = self.points.baseline
        if baselines is not None:
            baselines[target.name] = state.baseline
        reader = _reader(self.study.cases_for(target))
        if not target.loads and self.study.plan.phase != "load" and reader is not None:
            self._check_dataset(target.label, ep, reader)  # `ycsbctl load`, `ycsbctl run insert` read nothing
        return True


    def _down(self, name: str) -> None:
        state = self.up.pop(name, None)
        if state is not None:
            self.servers.down(state.endpoint)  # the one running now (a crash may have restarted it)

    def _try_settings(self, later: list[Target]) -> None:
        """Start and stop, before anything is measured, each later target that has settings: a setting
        its server refuses ends the run now (BadSettings, exit 2), not after the targets before it were
        measured. A target that cannot start for another reason is left to its turn (skipped there)."""
        for target in later:
            if target.is_url or not target.settings:
                continue
            try:
                ep = self.servers.up(target)
            except BadSettings:
                raise
            except UserError:
                continue
            self.servers.down(ep)
            self.console.note(f"{target.name}: its server accepts its settings ({settings_text(ep.settings)})")

    def _up(self, target: Target) -> Endpoint | None:
        try:
            ep = self.servers.up(target)
        except BadSettings:
            raise  # bad input, not a server this host lacks: the run stops (exit 2), nothing left running
        except UserError as exc:
            self._skip(target.label, exc.message, exc.fix)
            return None
        self.up[target.name] = TargetState(ep)  # stopped by _down from here on (before: by Servers.stop_all)
        doc = ep.to_dict() | {"url": redact_url(ep.url), "settings": redact_config(ep.settings)}
        self.sink.update_manifest(servers={**self.sink.manifest.servers, target.label: doc})
        return ep

    def _skip(self, label: str, reason: str, fix: str) -> None:
        """A target that cannot be measured: said, and recorded with its fix."""
        entry = SkippedTarget(target=label, reason=f"{reason}: {fix}" if fix else reason, fix=fix)
        self.outcome.skipped.append(entry)
        self.console.note(f"{entry.target}: skipped — {entry.reason}")
        self.sink.update_manifest(skipped_targets=list(self.outcome.skipped))

    def _add_stand_in(self, target: Target, targets: list[Target]) -> None:
        sub = stand_in(self.study, target.name, [t.name for t in targets])
        if sub is None:
            return
        targets.append(self.study.target(sub.used))
        self.console.note(sub.note)
        self.sink.update_manifest(substitutions=[*self.sink.manifest.substitutions, sub])

    def _start_notes(self, label: str, ep: Endpoint) -> None:
        """What the server makes of the first workload's binding properties, said once as its target is up
        (:meth:`ycsbctl.stores.base.ServerProtocol.start_notes`); a server that cannot be asked says nothing."""
        store = ep.store
        try:
            notes = store.start_notes(ep.url, self.study.first.properties) or []
        except admin_errors(store):  # it refuses the question (an old server without ROLE) or went away: the
            notes = []  # first point, which asks it next, says so
        for note in notes:
            self.console.note(f"{label}: {note}")

    def _check_dataset(self, label: str, ep: Endpoint, reader: Case) -> None:
        """A server we do not load must hold the records the plan's first reading workload (``reader``) reads:
        say so when it does not."""
        plan = self.study.plan
        stored = self.points.dataset.at_start(label, ep, reader.record_count)
        if stored and plan.telemetry and self.sink.durable:
            from ycsbctl import telemetry

            # Not loaded by us: the whole server's memory over the records it holds (an upper bound).
            got = guarded("server's memory", lambda: telemetry.footprint_after(ep, {}, stored), self.console.progress)
            if got is not None:
                fp = got.to_dict()
                fp["note"] = "measured on a server ycsbctl did not load: includes the empty server's own memory"
                self.sink.update_manifest(footprints={**self.sink.manifest.footprints, label: fp})

    def _baseline(self, label: str, ep: Endpoint) -> None:
        from ycsbctl.experiment.baseline import measure_baseline

        self.console.waiting(f"{label}: measuring the network baseline (iperf3)…")
        base, info = measure_baseline(self.study, ep, self.console.note, self.loopback, label)
        self.points.baseline = base
        if base is None or info is None:
            return
        gbit = info.get("gbit_s")
        note = f" ({info['note']})" if info.get("note") else ""
        self.console.note(f"{label}: network baseline {f'{gbit:.2f} Gbit/s' if gbit else 'not measured'}{note}")
        if "client_hosts" in info:
            self.console.note(f"{label}: from client hosts " + ", ".join(
                f"{h['name']} {h['gbit_s']:.2f} Gbit/s" if h.get("gbit_s") else f"{h['name']} not measured "
                                                                                f"({h['note']})"
                for h in info["client_hosts"]))
        self.sink.update_manifest(network={**self.sink.manifest.network, label: info})


def _reader(cases: list[Case]) -> Case | None:
    """The first of ``cases`` that reads records of the store's own (None: each only inserts, as the
    ``insert`` workload, which empties the database first, or counts no records, as one Hash of every user)."""
    return next((c for c in cases if c.built.counts_records and not c.built.insert_only), None)

"""The sweep: provision each target, its network baseline, dataset check or load, then its points —
workload × thread count × offered rate × repetition (or an SLO search over rates) — with the stand-in
policy, crash restarts and skips.

In the ``interleaved`` order (:mod:`ycsbctl.experiment.rounds`) every target's server is up for the whole
sweep and each repetition is a round visiting every cell once, shuffled from the seed (``alternate``: the same
rounds, a cell's targets measured together in one engine session: :mod:`ycsbctl.experiment.sweep_alternated`);
in the ``target`` order each target is swept in turn, its server up only meanwhile. The rounds run in stages, one per
dataset (a variant sweep: :meth:`~ycsbctl.experiment.study.Study.stages`), each target loading a stage's dataset once
before its rounds; ``--repeat auto`` shares its ``--budget`` across the stages (:meth:`Sweep._stage_rounds`).

Everything it needs is passed in: the servers (:class:`~ycsbctl.experiment.servers.Servers`), the
engine (:class:`~ycsbctl.engine.contract.Engine`) and the result sink
(:class:`~ycsbctl.experiment.result_sink.ResultSink`). Points already ``ok`` in the sink are not run
again (``--resume``). Bringing each target up and down is :mod:`ycsbctl.experiment.sweep_targets`'s.
"""

from __future__ import annotations

import time

from ycsbctl.engine.contract import Engine, alternates
from ycsbctl.errors import UserError
from ycsbctl.experiment.host_claim import HostClaim
from ycsbctl.experiment.live_console import Console
from ycsbctl.experiment.outcome import Outcome
from ycsbctl.experiment.point_runner import PointRunner
from ycsbctl.experiment.rate_search import SearchContext, search_point
from ycsbctl.experiment.reference import ReferenceServer
from ycsbctl.experiment.result_sink import ResultSink
from ycsbctl.experiment.rounds import round_points
from ycsbctl.experiment.sequential import Rounds
from ycsbctl.experiment.servers import Servers
from ycsbctl.experiment.study import Case, Cell, Point, Study, Target, stage_of
from ycsbctl.experiment.sweep_alternated import Alternated
from ycsbctl.experiment.sweep_targets import TargetState
from ycsbctl.experiment.yardstick_rounds import RoundYardstick
from ycsbctl.processes import deferred_signals
from ycsbctl.results.folder import RunRecord
from ycsbctl.results.names import RunStatus
from ycsbctl.telemetry.network import NetworkBaseline


class Sweep(Alternated):
    """One study's points against its targets; :meth:`run` returns the :class:`Outcome`."""

    def __init__(self, study: Study, servers: Servers, engine: Engine, sink: ResultSink, console: Console,
                 claim: HostClaim | None = None) -> None:
        self.study = study
        self.servers = servers
        self.sink = sink
        self.console = console
        self.points = PointRunner(study, engine, sink, console, claim)
        self.outcome = Outcome(folder=None, records=self.points.records)
        self.done_ids = sink.run_ids(RunStatus.OK)
        self.loopback: dict[str, tuple[str, NetworkBaseline]] = {}  # measure_baseline's, by backend
        self.up: dict[str, TargetState] = {}  # target name -> its server and dataset, while it is up
        self.order, self.order_note = study.order, study.order_note
        if self.order == "alternate" and not alternates(engine):  # e.g. a stand-in engine in a test
            self.order = "interleaved"
            self.order_note = (f"rounds run interleaved, not alternate: the {engine.name} engine measures one target "
                               "per run")
            sink.update_manifest(plan={**sink.manifest.plan, "run_order": self.order,
                                       "run_order_note": self.order_note})
        self.position = 0  # points measured so far in this sweep: the next one's place in the order
        self._stopped: set[str] = set()  # targets skipped from here on (a failed load, no restart)
        # the host's own speed, at the start of every round
        self.yardstick = RoundYardstick(sink, console, on=study.plan.yardstick)
        self.rounds: Rounds | None = None  # --repeat auto: the sequential stop, from the first round on
        self.reference = ReferenceServer(study, sink, console)  # one more target in every alternated session
        self.stage_at = (0, 1)  # (the stage running, the stages: Study.stages) — a variant sweep runs one per dataset
        self.rounds_began: float | None = None  # time.monotonic() when the first stage's rounds began (--budget)

    def run(self) -> Outcome:
        """Every target in plan order; Ctrl-C (KeyboardInterrupt) stops the sweep, keeping what is done. Every
        server it started is stopped on every way out (:meth:`_stop_servers`), before it says so."""
        plan = self.study.plan
        try:
            try:
                targets = list(self.study.targets)
                self._try_settings([t for t in targets if self._points_left(t)][1:])
                # an order the user gave and the sweep does not run as given is always said (also in the manifest)
                if self.order_note and (plan.order != "auto" or len(targets) > 1 or plan.repeat > 1):
                    self.console.note(self.order_note)
                # what ran where, always (auto's default off on a small host in its short form)
                self.console.note(f"placement: {self.study.placement.headline()}")
                if self.order in ("interleaved", "alternate"):
                    self._run_interleaved(targets)
                elif self.order == "blocks":
                    self._run_blocks(targets)
                else:
                    self._run_target_major(targets)
            finally:
                self._stop_servers()
        except KeyboardInterrupt:
            self.outcome.interrupted = True
            self.console.close()
            ours = any(not t.is_url for t in self.study.targets) or self.reference.started  # the reference is ours
            started = ("stopped every server we started" if ours else
                       "no server of ours was running (the targets are URLs)")
            self.console.note(f"interrupted: {started}; keeping the finished points")
        return self.outcome

    def _stop_servers(self) -> None:
        """Each target still up, then every other server the sweep's servers started and did not stop (one whose
        start a Ctrl-C cut off from this sweep, between its process starting and its endpoint being kept here:
        :meth:`Servers.stop_all`). Signals wait meanwhile: a second Ctrl-C cannot leave one running."""
        with deferred_signals():
            try:
                for name in list(self.up):
                    self._down(name)
            finally:
                try:
                    self.reference.stop()
                finally:
                    self.servers.stop_all()

    def _run_target_major(self, targets: list[Target]) -> None:
        for block, target in enumerate(targets, 1):  # a stand-in appended below is swept in its turn
            if not self._points_left(target):
                continue
            try:  # from before the start: a Ctrl-C during its network baseline or dataset check stops it too
                if not self._bring_up(target, targets):
                    continue
                self.yardstick.round_starts(block, self.study.plan.phase or "run", target.label)
                self._sweep_target(target)
                self._profile_peak(target)
            finally:
                self._down(target.name)

    def _run_interleaved(self, targets: list[Target]) -> None:
        """Every target up at once (a stand-in joins them), then rounds: run-phase cells first, then the
        loads an insert-only workload measures (each empties its target's database); in the ``alternate`` order
        each cell's targets share one engine session (:class:`~ycsbctl.experiment.sweep_alternated.Alternated`)."""
        try:
            for target in targets:
                if self._points_left(target):
                    self._bring_up(target, targets)
            stages = self.study.stages([t for t in targets if t.name in self.up])
            for n, stage in enumerate(stages):  # variant by variant: each dataset loaded once per target
                self._stage_starts(n, [stage_of(s[0]) for s in stages])
                self._bring_in(stage)
                round_no = 0
                while stage and self._another_round(round_no, stage):
                    round_no += 1
                    points = [p for p in round_points(stage, round_no,
                                                      self.study.plan.seed) if p.run_id not in self.done_ids]
                    if points:  # not a round --resume finds done
                        self.yardstick.round_starts(round_no, stage[0].phase)
                    self._round(points)
            for name in list(self.up):
                self._profile_peak(self.study.target(name))
        finally:
            for name in list(self.up):
                self._down(name)

    def _run_blocks(self, targets: list[Target]) -> None:
        """One server up at a time: each round runs target by target, each target's cells of that round in
        an order shuffled from the seed, the targets' order reversed every other round (A B, B A, …:
        :func:`ycsbctl.experiment.rounds.block_order`); run-phase cells first, then an insert-only
        workload's loads. A server started again for its next block reloads its dataset (as after a crash)."""
        from ycsbctl.experiment.rounds import block_order

        baselines: dict[str, object] = {}
        loaded: dict[str, str | None] = {}  # a URL target's dataset, kept from its last block
        keys = [stage_of(s[0]) for s in self.study.stages(targets)]
        for n, key in enumerate(keys):  # variant by variant (a server started anew reloads for its block anyway)
            self._stage_starts(n, keys)
            round_no = 0
            while True:
                mine = [t for t in targets if t.name not in self._stopped and self._points_left(t)]
                stage = [c for t in mine for c in self.study.cells(t) if stage_of(c) == key]
                if not stage or not self._another_round(round_no, stage):
                    break
                round_no += 1
                self.yardstick.round_starts(round_no, key[0])
                for target in block_order(mine, round_no):
                    points = [p for p in round_points([c for c in stage if c.target is target], round_no,
                                                      self.study.plan.seed)
                              if p.run_id not in self.done_ids]
                    if not points or target.name in self._stopped:
                        continue
                    try:  # from before the start: a Ctrl-C during its network baseline or dataset check stops it too
                        if not self._bring_up(target, targets, baselines):
                            self._stopped.add(target.name)
                            continue
                        if target.is_url:  # a server you run keeps its dataset between blocks: no reload
                            self.up[target.name].loaded = loaded.get(target.name)
                        for point in points:
                            if self.measure(point) is None:
                                self._stopped.add(target.name)
                                break
                        if key[0] == "run" and n == 0 and round_no == 1:
                            self._profile_peak(target)
                    finally:
                        if target.name in self.up:
                            loaded[target.name] = self.up[target.name].loaded
                        self._down(target.name)

    def _stage_starts(self, n: int, keys: list[tuple[str, str]]) -> None:
        """Stage ``n`` of the stages ``keys`` (:func:`~ycsbctl.experiment.study.stage_of`) begins: the rounds' budget
        is shared from here (:meth:`_sequential_round`), and a variant sweep's stage says which variant it is."""
        self.stage_at = (n, len(keys))
        if len(keys) > 1:
            phase, dataset = keys[n]
            what = (f"{dataset or 'the plan dataset'}: its dataset into every target, then its rounds" if phase == "run"
                    else "the insert workloads' loads, each into an emptied database")
            self.console.note(f"stage {n + 1} of {len(keys)}: {what}")

    def _another_round(self, done: int, stage: list[Cell]) -> bool:
        """Whether to run round ``done + 1``: always up to ``--repeat``; with ``--repeat auto``, until every
        compared cell is decided or the budget is spent (:mod:`ycsbctl.experiment.sequential`); with
        ``--precision``, until every cell's throughput interval is that narrow or ``--max-repeat`` rounds ran."""
        plan = self.study.plan
        if plan.sequential:
            return self._sequential_round(done, stage)
        if done < plan.repeat:
            return True
        if plan.precision is None or done >= plan.max_repeat:
            return False
        from ycsbctl.experiment.rounds import wide_cells

        # the stage's own cells: a dataset's load point (one per target) is no cell, and would never narrow
        keys = {c.key for c in stage}
        mine = [r for r in self.outcome.records if (r.target, r.workload, r.phase, r.threads, r.target_rate) in keys]
        wide = wide_cells(mine, plan.precision)
        if wide:
            self.console.note(f"round {done + 1}: {len(wide)} cell(s) still wider than ±{plan.precision:.0%} "
                              f"({', '.join(wide[:3])}{' …' if len(wide) > 3 else ''})")
            self.console.progress.total += len(stage) + self.study.loads_in_round(done + 1, stage[0].phase, stage)
        return bool(wide)

    def _sequential_round(self, done: int, stage: list[Cell]) -> bool:
        from ycsbctl.experiment.sequential import gone_of, kept_runs, open_cells
        from ycsbctl.results import looks

        if done == 0 or self.rounds is None:  # each stage's rounds (a dataset's, an insert workload's loads) anew
            self.rounds = self._stage_rounds(done)
            if done == 0:
                return True
        if done == 1 and self.rounds.planned is None:  # a round's length known: the rounds the budget holds
            self.rounds.plan_from_first_round()
            self.sink.update_manifest(plan={**self.sink.manifest.plan, "planned_rounds": self.rounds.planned,
                                            "round_s": self.rounds.round_s, "spending": looks.SPENDING})
            self.console.note(self.rounds.planned_line())
        gone = gone_of(self.outcome.skipped, {self.study.target(n).label for n in self._stopped},
                       [c.target.label for c in stage], self.study.baseline)  # a target skipped after a failed point
        looked = None
        if done in looks.LOOK_ROUNDS:  # every round the folder keeps (a resumed one's earlier rounds too) of the
            # stage's own cells (a dataset's load point is no cell)
            mine, slices = kept_runs(self.sink, self.outcome.records, {c.key for c in stage})
            looked = open_cells(mine, self.sink.manifest.plan, gone.why, slices)
        go, line = self.rounds.another(done, looked, gone)
        if line:
            self.console.note(line)
        if not go:  # said in the manifest: a --resume runs no further round of this phase, and one not said does
            stopped = {**(self.sink.manifest.plan.get("rounds_stopped") or {}), stage[0].phase: self.rounds.stopped}
            self.sink.update_manifest(plan={**self.sink.manifest.plan, "rounds_stopped": stopped})
        if go:
            self.console.progress.total += len(stage) + self.study.loads_in_round(done + 1, stage[0].phase, stage)
        return go

    def _stage_rounds(self, done: int = 0) -> Rounds:
        """The sequential stop of the stage beginning (:attr:`stage_at`): the whole ``--budget`` is shared by the
        stages, each taking what is left over the stages left (one that decides early leaves the rest to those after
        it); the rounds planned after the first stage's first round (its share's worth, recorded in the manifest: the
        looks spend alpha over them) hold for every stage, so no cell has more rounds than the plan its looks spent
        alpha by. A stage runs its first round whatever is left: each cell has at least one point. ``done``: the
        rounds a resumed run's folder holds already; their time (the manifest's ``round_s`` each) counts as spent, so
        that the budget rule reads the rounds' length, not the resumed command's start divided by them."""
        now = time.monotonic()
        plan = self.sink.manifest.plan
        before = done * float(plan.get("round_s") or 0.0)
        self.rounds_began = now - before if self.rounds_began is None else self.rounds_began
        n, count = self.stage_at
        whole = self.study.plan.budget_s or float("inf")
        share = max(whole - (now - self.rounds_began), 0.0) / (count - n)
        rounds = Rounds(share + before, self.study.plan.max_repeat,
                        planned=plan.get("planned_rounds"), started=now - before, round_s=plan.get("round_s"),
                        whole_budget_s=whole if count > 1 else None)
        return rounds

    def _profile_peak(self, target: Target) -> None:
        """``--cpu-profile peak``: the target's best points once more, profiled (ycsbctl.experiment.profiled)."""
        if self.study.plan.cpu_profile != "peak" or target.name not in self.up:
            return
        from ycsbctl.experiment.profiled import profile_peaks

        profile_peaks(self.points, self.up[target.name].endpoint, target.label)
    def _points_left(self, target: Target) -> bool:
        plan = self.study.plan
        if plan.slo:  # a search's points are only known as it goes: one not finished means more to do
            done = {(s.get("target"), s.get("workload"), s.get("threads")) for s in self.sink.manifest.slo_searches
                    if s.get("finished")}
            return any((target.label, c.name,
                        t) not in done for c in self.study.cases_for(target) for t in plan.threads)
        return any(cell.point(r).run_id not in self.done_ids or plan.sequential and cell.phase not in (
            self.sink.manifest.plan.get("rounds_stopped") or {}) for cell in self.study.cells(target)
            for r in range(1, plan.repeat + 1))

    # -- one target ---------------------------------------------------------------------------------
    def _sweep_target(self, target: Target) -> None:
        plan = self.study.plan
        for case in self.study.cases_for(target):
            if plan.slo and case.phase == "run":
                for threads in plan.threads:
                    if not search_point(Point(target, case, threads), self.measure, self._search_context()):
                        return
                continue
            for cell in self.study.cells(target, case):
                for rep in range(1, plan.repeat + 1):
                    point = cell.point(rep)
                    if point.run_id not in self.done_ids and self.measure(point) is None:
                        return

    def _search_context(self) -> SearchContext:
        plan = self.study.plan
        return SearchContext(plan.slo or "", plan.slo_start, plan.slo_points, self.done_ids, self.sink,
                             self.console.note)

    def measure(self, point: Point) -> RunRecord | None:
        """One point on the current server (loading the dataset its case reads first when it needs it); a
        crashed server is restarted. None when the target is skipped from here on (load failed, no restart)."""
        target = point.target
        state = self.up[target.name]
        self.points.baseline = state.baseline
        self.position += 1
        self.points.position = self.position
        if point.phase == "run" and not self._holds(target, point.case):
            return None
        # The insert workload measures the load itself, into an empty database each time (fresh);
        # `ycsbctl load` loads into the target as it is.
        record = self.points.point(state.endpoint, point)
        if record.status == RunStatus.INTERRUPTED:
            raise KeyboardInterrupt
        # whatever the point's status: a replica (or a shard) that died during it left a degraded or even an
        # ok point on the primary, and the deployment one process short for every point after it
        if self._died(target, "the point") is None:
            return None
        if point.fresh:
            state.loaded = None  # the insert workload's load emptied the database first
        return record

    def _died(self, target: Target, during: str) -> bool | None:
        """After a point or a failed load: a server we started that is no longer alive, or lost one of its
        processes, is restarted (it comes back empty, so the dataset is loaded again before the next point).
        True when it was restarted, False when it is alive (or not ours), None when it could not restart
        (skipped)."""
        state = self.up[target.name]
        lost = None if target.is_url else self.servers.lost(state.endpoint)
        if lost is None:
            return False
        self.console.note(f"{target.label}: the server {lost} during {during}; restarting it")
        self.points.dataset.forget(state.endpoint.url)  # it comes back empty: counted again
        try:
            state.endpoint = self.servers.restart(state.endpoint)
        except UserError as exc:
            self._skip(target.label, f"could not restart after a crash: {exc.message}", exc.fix)
            return None
        state.loaded = None  # an in-memory server comes back empty
        if target.loads:
            self.console.progress.total += 1  # its dataset is loaded again: one more point than the plan counted
        return True

    def _load(self, target: Target, case: Case) -> bool:
        """Load the dataset ``case`` reads (once per target, and after a restart: a server we started that
        dies during the load is restarted and loaded once more); False when it failed (target skipped)."""
        for attempt in (1, 2):
            record = self.points.load(self.up[target.name].endpoint, self.study.dataset_load(target, case))
            if record.status == RunStatus.INTERRUPTED:
                raise KeyboardInterrupt
            if record.status in (RunStatus.OK, RunStatus.DEGRADED):  # a degraded load still loaded every record
                return True
            restarted = self._died(target, "the load") if attempt == 1 else False
            if restarted is None:
                return False
            if not restarted:
                break
        self._skip(target.label, f"loading the dataset failed: {record.error or 'see the load point'}", "")
        return False

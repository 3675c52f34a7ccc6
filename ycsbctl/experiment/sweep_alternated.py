"""A round's points, one after another or — in the ``alternate`` order — each cell's targets together in one
engine session that switches every client between them every slice
(:mod:`ycsbctl.experiment.alternated_measure`).

A round (:func:`ycsbctl.experiment.rounds.round_points`) keeps a cell's targets next to each other; in the
``alternate`` order those points are measured at once, one record per target sharing a ``session`` id, so the host's
noise at every time scale longer than a slice lands on both sides of their ratio. A cell that cannot alternate (a
run phase that inserts, a load, a target stopped) is measured point by point as in the ``interleaved`` order, and
the first such cell says why, once. A server you run (a URL) that stops answering during a session is measured apart
from the others until it answers again: its points fail alone, as in the ``interleaved`` order, and the other
targets' sessions go on without it (one that cannot connect would fail the whole session). Every alternated session
holds the reference server too, as its last target (:mod:`ycsbctl.experiment.reference`), where it is on.
"""

from __future__ import annotations

from itertools import groupby

from ycsbctl.experiment.alternated_measure import why_not_together
from ycsbctl.experiment.reference import ReferenceServer
from ycsbctl.experiment.study import Case, Cell, Point, Target
from ycsbctl.experiment.sweep_targets import SweepTargets
from ycsbctl.results.folder import RunRecord
from ycsbctl.results.names import RunStatus


class Alternated(SweepTargets):
    """The round's measuring part of :class:`~ycsbctl.experiment.sweep.Sweep` (whose state it uses, and whose
    :meth:`measure`, :meth:`_load` and :meth:`_died` it calls)."""

    order: str
    position: int
    _stopped: set[str]
    reference: ReferenceServer  # the reference server beside each alternated session (when on)
    done_ids: set[str]

    def measure(self, point: Point) -> RunRecord | None:
        raise NotImplementedError  # Sweep's: one point

    def _load(self, target: Target, case: Case) -> bool:
        raise NotImplementedError  # Sweep's: a target's dataset

    def _died(self, target: Target, during: str) -> bool | None:
        raise NotImplementedError  # Sweep's: a server lost and restarted

    def _round(self, points: list[Point]) -> None:
        """Measure a round's ``points`` in their order: a cell's targets together where the order alternates."""
        for _, cell in groupby(points, key=lambda p: p.cell.block):
            live = [p for p in cell if p.target.name not in self._stopped]  # a skipped target stays out
            why = why_not_together(live, self.study) if self.order == "alternate" else "interleaved"
            if why is None:
                apart = [p for p in live if not self._answers(p.target)]
                for point in apart:  # a server you run that does not answer: its point fails alone
                    self.measure(point)
                self.measure_together([p for p in live if p not in apart])
                continue
            if self.order == "alternate" and len(live) > 1:
                self._alone(why)
            for point in live:
                if self.measure(point) is None:
                    self._stopped.add(point.target.name)
                    self._down(point.target.name)

    def _bring_in(self, stage: list[Cell]) -> None:
        """A run-phase stage begins (:meth:`~ycsbctl.experiment.study.Study.stages`: one dataset, a variant's own in a
        variant sweep): every target up that loads and has a point of it left loads its dataset now, once, so that no
        round's pair waits on a load between its two sides. A target whose load failed is measured no more."""
        if not stage or stage[0].phase != "run":
            return
        for name in list(self.up):
            target = self.study.target(name)
            mine = [c for c in stage if c.target.name == name]  # a store that cannot do a workload has no cell of it
            rounds = range(1, self.study.plan.repeat + 1)
            if not mine or not any(c.point(r).run_id not in self.done_ids for c in mine for r in rounds):
                continue
            if name not in self._stopped and not self._holds(target, mine[0].case):
                self._stopped.add(name)
                self._down(name)

    def _holds(self, target: Target, case: Case) -> bool:
        """Whether ``target`` holds the dataset ``case``'s run-phase points read, loading it first where it does not
        (a target that loads nothing holds it as it is); False when that load failed (the target is skipped)."""
        state = self.up[target.name]
        if not target.loads or state.loaded == case.dataset_key:
            return True
        if not self._load(target, case):
            return False
        state.loaded = case.dataset_key
        return True

    def _answers(self, target: Target) -> bool:
        """Whether ``target`` can be in an alternated session: True for a server we started (a crash restarts it:
        :meth:`_died`) and for a URL whose last session went well; a URL's server that did not answer after its
        last session (:meth:`_not_answering`) is asked again, and is back once it answers."""
        apart: set[str] = self.__dict__.setdefault("_apart", set())
        if target.name not in apart:
            return True
        if self.servers.lost(self.up[target.name].endpoint) is not None:
            return False
        apart.discard(target.name)
        self.console.note(f"{target.label}: its server answers again; measured in the alternated sessions again")
        return True

    def _not_answering(self, record: RunRecord, target: Target) -> None:
        """After a session: a URL target whose point failed and whose server does not answer now is measured apart
        (:meth:`_answers`), said once."""
        if not target.is_url or record.status != RunStatus.FAILED:
            return
        lost = self.servers.lost(self.up[target.name].endpoint)
        if lost is not None:
            self.__dict__.setdefault("_apart", set()).add(target.name)
            self.console.note(f"{target.label}: the server {lost} during the alternated session; its points are "
                              "measured apart, the other targets' go on alternated without it")

    def _alone(self, why: str) -> None:
        """Say once per reason that a cell's targets are measured one after another."""
        said: set[str] = self.__dict__.setdefault("_said_alone", set())
        if why not in said:
            said.add(why)
            self.console.note(f"measured one target after another, not alternated: {why}")

    def measure_together(self, points: list[Point]) -> list[RunRecord]:
        """One alternated session of a cell's ``points`` (one per target), each target's dataset loaded first
        where it needs one; a target whose load failed is measured no more, the others go on together (or alone).
        A server that died during the session is restarted (or its target skipped) as after any point."""
        ready = []
        for point in points:
            if point.phase == "run" and not self._holds(point.target, point.case):
                self._stopped.add(point.target.name)
                self._down(point.target.name)
                continue
            ready.append(point)
        if len(ready) < 2:
            return [r for p in ready if (r := self.measure(p)) is not None]
        self.points.position = self.position + 1
        self.position += len(ready)
        pairs = [(self.up[p.target.name].endpoint, p, self.up[p.target.name].baseline) for p in ready]
        first = ready[0]
        session = RunRecord.make_id("session", first.workload_name, first.phase, first.threads, first.repetition,
                                    first.rate)
        ref = self.reference.point(first)
        keep = None
        if ref is not None:
            ref_point = ref[1]
            keep = (ref[0], ref_point,
                    lambda result: self.reference.keep(ref_point, session, result.slices if result else None))
        records = self.points.together(pairs, session=session, reference=keep)
        if any(r.status == RunStatus.INTERRUPTED for r in records):
            raise KeyboardInterrupt
        if ref is not None:
            self.reference.lost()
        for point, record in zip(ready, records):
            self._not_answering(record, point.target)
        for point in ready:
            if self._died(point.target, "the alternated session") is None:
                self._stopped.add(point.target.name)
                self._down(point.target.name)
        return records

"""The reference server: a small fixed ``redis-server`` ycsbctl starts itself and measures in every alternated
session of a CoreWorkload cell as one more target (the last URL of the session's
:class:`~ycsbctl.engine.alternation.Alternation`), at the cell's thread count (design.md, "A reference rides
along").

It is not a compared target. Its share of each session is kept as slices only (slices.parquet rows whose ``role``
is ``reference``: :mod:`ycsbctl.results.slice_table`), never as a run, a verdict, a curve or a table row; what it
is goes to the manifest's ``reference`` (on or off and why, its server, version and settings, the CPUs this run
could use). ``compare A B`` reads each target against its own folder's reference, block by block
(:mod:`ycsbctl.results.reference_pairs`), so the host's drift between two folders divides out at the slices'
precision.

Its server: the catalogue's ``redis`` found as the local backend finds it (``--binary`` is not asked), on a free
loopback port, RDB and AOF off (``infra/redis/redis.conf`` and :data:`SETTINGS`), on the servers' CPUs of the
plan's placement, its dataset loaded (unmeasured, never a run) like any target's before its first session of each
dataset. The session keeps today's length: n targets and the reference share the n targets' measured time
(:func:`ycsbctl.experiment.alternated_measure.session_length`).

On by default where the plan alternates; ``--no-reference`` (or ``YCSBCTL_REFERENCE=off``) turns it off, and where
redis-server cannot be found or started here it is off with one line, the manifest saying why.
"""

from __future__ import annotations

import os
from typing import Any

from ycsbctl.cpus import usable_cpus
from ycsbctl.errors import UserError
from ycsbctl.experiment.live_console import Console
from ycsbctl.experiment.result_sink import ResultSink
from ycsbctl.experiment.study import Case, Point, Study, Target
from ycsbctl.provision import Endpoint
from ycsbctl.results import slice_table

LABEL = "reference"  # its run ids' and slice rows' target
SETTINGS = {"appendonly": "no", "save": ""}  # fixed: nothing written to disk (redis.conf says so too)
ENV = "YCSBCTL_REFERENCE"


def wanted(plan_value: bool | None) -> tuple[bool, str | None]:
    """(on, why not) from the plan's ``--reference/--no-reference`` (None: not given, then ``YCSBCTL_REFERENCE``)."""
    if plan_value is not None:
        return plan_value, None if plan_value else "--no-reference"
    value = os.environ.get(ENV, "on").strip().lower()
    return (False, f"{ENV}={value}") if value in ("off", "0") else (True, None)


class ReferenceServer:
    """The reference of one sweep: started at its first alternated session, stopped with the sweep's servers."""

    def __init__(self, study: Study, sink: ResultSink, console: Console) -> None:
        self.study = study
        self.sink = sink
        self.console = console
        on, why = wanted(getattr(study.plan, "reference", None))
        if on and study.order != "alternate":
            on, why = False, f"the plan does not alternate (order {study.order})"
        self.why_off: str | None = None if on else why
        self.endpoint: Endpoint | None = None
        self.started = False  # its server was up at some time of the sweep (stopped or not since)
        self.loaded: str | None = None  # the dataset key it holds
        self.target = Target(LABEL, LABEL, "redis", loads=True, kind="redis")
        self._record(initial=True)

    @property
    def on(self) -> bool:
        return self.why_off is None

    def _record(self, initial: bool = False) -> None:
        """The manifest's ``reference``: on or off and why, its server and settings, this run's CPUs."""
        ep = self.endpoint
        doc: dict[str, Any] = {"on": self.on, "why_off": self.why_off, "settings": dict(SETTINGS),
                               "cpus": usable_cpus(), "target": LABEL}
        if ep is not None:
            doc |= {"server_name": ep.server_name, "server_version": ep.server_version, "binary": ep.binary,
                    "server_cpus": self._cpus()}
        if initial and not self.on and getattr(self.study.plan, "reference", None):  # asked for, and off
            self.console.note(f"reference: off ({self.why_off})")
        self.sink.update_manifest(reference=doc)

    def _cpus(self) -> str | None:
        return self.study.plan.server_cpus or self.study.placement.server_cpuset

    def _off(self, why: str) -> None:
        self.why_off = why
        self.console.note(f"reference: off from here on ({why}); compare reads this folder without it")
        self.stop()
        self._record()

    def point(self, like: Point) -> tuple[Endpoint, Point] | None:
        """The reference's endpoint and point for the alternated session of ``like``'s cell (its thread count,
        round and workload), its server started and its dataset loaded first where needed; None when off, and for a
        workload plug-in's session (YCSB's CoreWorkload cells only: a plug-in's operations are its store's)."""
        if not self.on or not like.case.built.builtin_ycsb:  # a plug-in's session: its own store's operations
            return None
        if self.endpoint is None and not self._start():
            return None
        if self.loaded != like.case.dataset_key and not self._load(like.case):
            return None
        assert self.endpoint is not None
        return self.endpoint, Point(self.target, like.case, like.threads, like.repetition, like.rate, like.phase)

    def _start(self) -> bool:
        from ycsbctl.provision.base import UpOptions
        from ycsbctl.provision.local import LocalProvisioner

        options = UpOptions(experiment_id=self.sink.manifest.experiment_id or "manual", kind="redis",
                            settings=dict(SETTINGS), server_cpus=self._cpus(), say=self.console.progress.note,
                            notes=["the reference: measured in every alternated session, kept as slices only"])
        try:
            self.endpoint = LocalProvisioner().up(LABEL, options)
            self.started = True
        except UserError as exc:
            self._off(f"redis-server cannot be started here: {exc.message}")
            return False
        self.console.note(f"reference: {self.endpoint.server_name} on "
                          f"{self.endpoint.url}, measured as one more target in every alternated session")
        self._record()
        return True

    def _load(self, case: Case) -> bool:
        from ycsbctl.experiment.measure import load_dataset

        assert self.endpoint is not None
        self.console.note(f"reference: loading {case.record_count:,} records of {case.name}")
        out = load_dataset(self.endpoint, self.study.dataset_load(self.target, case), self.study, None)
        if out.result is not None:
            from ycsbctl.engine.runner import unless_interrupted

            unless_interrupted(out.result)  # kept nowhere: a Ctrl-C during it stops the sweep
        if out.error is not None or out.result is None:
            self._off(f"its dataset could not be loaded: {out.error}")
            return False
        self.loaded = case.dataset_key
        return True

    def keep(self, point: Point, session: str, slices: Any) -> None:
        """Keep the reference's slices of one session (``PhaseResult.slices``), keyed by its point."""
        if slices is None or not len(slices):
            return
        key = {"run_id": point.run_id, "target": LABEL, "workload": point.workload_name, "phase": point.phase,
               "threads": point.threads, "target_rate": point.rate, "repetition": point.repetition,
               "session": session, slice_table.ROLE: slice_table.REFERENCE}
        self.sink.add_reference_slices(session, slice_table.keyed(slices, key))

    def lost(self) -> None:
        """After a session: a reference server that died is off from here on (its slices so far are kept)."""
        from ycsbctl.provision import server_lost

        if self.endpoint is not None and (why := server_lost(self.endpoint)) is not None:
            self._off(f"its server {why}")

    def stop(self) -> None:
        """Stop its server (the sweep's last word, on every way out)."""
        if self.endpoint is None:
            return
        from ycsbctl.provision import teardown

        ep, self.endpoint = self.endpoint, None
        teardown(ep)

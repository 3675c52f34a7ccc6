"""What a plan measures, as values: its targets, its cases, and the points of each target × case.

:func:`ycsbctl.experiment.resolve.resolve_study` makes a :class:`Study` from a
:class:`~ycsbctl.experiment.plan.Plan` once — the one step that reads property files, builds workloads
and names targets. The sweep, a point and the engine's spec are handed these values whole; nothing
below re-reads a file or rebuilds a workload. All of them are frozen (a case's ``properties`` and its
built workload are never changed after the study is made).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ycsbctl.experiment.plan import Plan
from ycsbctl.results.schema import CannotCell
from ycsbctl.stores import registry
from ycsbctl.workload.plugin import Workload
from ycsbctl.workload.properties import Properties

if TYPE_CHECKING:
    from ycsbctl.experiment.placement import Placement
    from ycsbctl.stores.base import ServerProtocol


@dataclass(frozen=True)
class Target:
    """A target as resolved: ``name`` as the plan gives it (a catalogue label such as ``redis-lazyfree``,
    or a URL), ``label`` (credential-free: run ids, tables), its store ``protocol`` (``redis``,
    ``mongodb``, …), and either its catalogue ``kind``, ``settings`` and ``binary`` (a server ycsbctl
    starts) or its ``url`` (a server the user runs, with what the binding properties add to it, such as
    ``-p redis.password``). ``loads``: the dataset is loaded into it before its run-phase points. Where a
    server ycsbctl starts goes: ``docker_host``, the Docker engine ``--docker-host`` names for it (None: this
    host's), ``image`` (``--image``; None: its kind's), ``tls`` (``--tls``: it speaks TLS only)."""

    name: str
    label: str
    protocol: str
    loads: bool
    kind: str | None = None
    url: str | None = None
    settings: Mapping[str, str] = field(default_factory=dict)
    binary: str | None = None
    image: str | None = None
    docker_host: str | None = None
    tls: bool = False

    @property
    def is_url(self) -> bool:
        """A server the user runs (used as it is, never started or reconfigured by ycsbctl)."""
        return self.url is not None

    @property
    def store(self) -> ServerProtocol:
        """Its store (:mod:`ycsbctl.stores.registry`)."""
        return registry.get(self.protocol)


@dataclass(frozen=True)
class Case:
    """A workload of the plan as resolved: ``workload`` as the plan names it (a variant keeps its
    ``[key=value]`` suffix), ``name`` as run ids and tables say it (``workloadb``, ``online-status-hash``),
    its property ``file``, the ``variant``'s values of the sweep axes ({} for none), its merged
    ``properties`` (files, ``-P``, ``-p``, the variant, the plan's scale; without the client properties
    the plan carries), the workload ``built`` from them, the ``phase`` its sweep measures (``load`` for
    an insert-only workload and for ``ycsbctl load``, else ``run``) and the ``dataset`` its run-phase
    points read (its own name for a variant, else the plan's first workload's name)."""

    workload: str
    name: str
    file: Path
    variant: Mapping[str, str]
    properties: Properties
    built: Workload
    phase: str
    dataset: str

    @property
    def dataset_key(self) -> str:
        """Which dataset its run-phase points read: "" the plan's shared one, else its variant's own."""
        return self.name if self.variant else ""

    @property
    def table(self) -> str:
        """The table (or collection, key prefix) its records live in."""
        return self.properties.get("table", "usertable")

    @property
    def record_count(self) -> int:
        """``recordcount``: the records its dataset holds."""
        return int(self.properties.get("recordcount", 0) or 0)


@dataclass(frozen=True)
class Point:
    """One measured point: ``target`` × ``case`` × ``threads`` × offered ``rate`` (ops/s over all threads;
    None: unpaced) × ``repetition``, in ``phase`` (``load`` or ``run``). ``fresh``: the database is emptied
    first (an insert-only workload measures a load into an empty database); ``dataset_load``: the load of
    the dataset the case's run-phase points read (named after that dataset)."""

    target: Target
    case: Case
    threads: int
    repetition: int = 1
    rate: float | None = None
    phase: str = "run"
    fresh: bool = False
    dataset_load: bool = False

    @property
    def workload_name(self) -> str:
        """The workload as the run id and the tables name it."""
        return self.case.dataset if self.dataset_load else self.case.name

    @cached_property
    def run_id(self) -> str:
        """``redis.workloadb.run.t8.r1`` (:meth:`~ycsbctl.results.folder.RunRecord.make_id`)."""
        from ycsbctl.results.folder import RunRecord  # here: pandas is not on a bad input's path (CLI start)

        return RunRecord.make_id(self.target.label, self.workload_name, self.phase, self.threads, self.repetition,
                                 self.rate)

    @property
    def cell(self) -> Cell:
        return Cell(self.target, self.case, self.threads, self.rate, self.phase, self.fresh)

    @property
    def key(self) -> tuple[str, str, str, int, float | None]:
        """(target label, workload name, phase, threads, rate): its cell as a run record says it."""
        return self.target.label, self.workload_name, self.phase, self.threads, self.rate


@dataclass(frozen=True)
class Cell:
    """A point without its repetition: what each round (:mod:`ycsbctl.experiment.rounds`) visits once."""

    target: Target
    case: Case
    threads: int
    rate: float | None = None
    phase: str = "run"
    fresh: bool = False

    def point(self, repetition: int) -> Point:
        return Point(self.target, self.case, self.threads, repetition, self.rate, self.phase, self.fresh)

    @property
    def key(self) -> tuple[str, str, str, int, float | None]:
        """(target label, workload name, phase, threads, rate), as a run record says it."""
        return self.target.label, self.case.name, self.phase, self.threads, self.rate

    @property
    def block(self) -> tuple[str, str, int, float | None]:
        """What the targets are compared at: (workload name, phase, threads, rate) — :attr:`key` without the
        target; a round runs a block's cells one after another (:mod:`ycsbctl.experiment.rounds`)."""
        return self.case.name, self.phase, self.threads, self.rate


@dataclass(frozen=True)
class Study:
    """A plan resolved: its ``targets`` and ``cases`` in plan order; the ``order`` its points run in
    (``alternate``, ``interleaved``, ``blocks`` or ``target``: :mod:`ycsbctl.experiment.rounds`) and ``order_note``
    (why not the order asked for, or None); its ``placement`` on this host (:mod:`ycsbctl.experiment.placement`);
    ``baseline``: the label of the target the others are compared with; ``disturbances``: what each
    ``--disturb`` sends on each target (``label: spec → command`` lines). ``extra_targets``: targets the
    sweep may add (the stand-in), resolved alike. ``cannot``: the target × case cells a store cannot do
    (:mod:`ycsbctl.experiment.cannot`), which have no points. ``plan`` keeps the settings as given (the
    scale, the statistics, the deployment's options); the facts above are read from here, never worked out
    from it again."""

    plan: Plan
    targets: tuple[Target, ...]
    cases: tuple[Case, ...]
    order: str
    order_note: str | None
    placement: Placement
    baseline: str
    disturbances: tuple[str, ...] = ()
    extra_targets: Mapping[str, Target] = field(default_factory=dict)
    cannot: tuple[CannotCell, ...] = ()

    def plan_dict(self) -> dict[str, Any]:
        """The plan as the manifest keeps it (:meth:`Plan.to_dict`), with the order, baseline and placement the
        study resolved (what its sweep ran by)."""
        return {**self.plan.to_dict(), "run_order": self.order, "run_order_note": self.order_note,
                "baseline_target": self.baseline, "placement_resolved": self.placement.to_dict()}

    @property
    def paired(self) -> bool:
        """Whether its rounds pair the targets under the same host conditions (``alternate``, ``interleaved`` or
        ``blocks``)."""
        from ycsbctl.experiment.rounds import PAIRED_ORDERS

        return self.order in PAIRED_ORDERS

    def can(self, target: Target, case: Case) -> bool:
        """Whether ``target``'s store can run ``case`` (not one of :attr:`cannot`)."""
        return not any(c.target == target.label and c.workload == case.name for c in self.cannot)

    def cases_for(self, target: Target) -> list[Case]:
        """The cases ``target`` runs, in plan order (those its store cannot do left out)."""
        return [c for c in self.cases if self.can(target, c)]

    @property
    def points_not_run(self) -> int:
        """The planned points of the :attr:`cannot` cells (and the dataset load of such a variant)."""
        n = 0
        for cell in self.cannot:
            case = next((c for c in self.cases if c.name == cell.workload), None)
            if case is not None:
                n += len(self.plan.threads) * len(self.rates(case)) * self.plan.repeat
        return n

    def target(self, name: str) -> Target:
        """The target the plan (or the stand-in policy) calls ``name``."""
        for t in self.targets:
            if t.name == name:
                return t
        return self.extra_targets[name]

    def rates(self, case: Case) -> list[float | None]:
        """The offered rates of a case's points (ops/s): the plan's for run-phase points; a load is unpaced."""
        return self.plan.rate_axis if case.phase == "run" else [None]

    def cells(self, target: Target, case: Case | None = None) -> list[Cell]:
        """``target``'s cells (of ``case``, or of every case), in plan order: case × threads × rate."""
        fresh = self.plan.phase != "load"  # `ycsbctl load` loads into the target as it is
        return [Cell(target, c, t, rate, c.phase, fresh and c.phase == "load")
                for c in ([case] if case is not None else self.cases) if self.can(target, c)
                for t in self.plan.threads for rate in self.rates(c)]

    def dataset_load(self, target: Target, case: Case) -> Point:
        """The load of the dataset ``case``'s run-phase points read, with the plan's load threads (the
        first thread count, 8 to 32, unless ``--load-threads``)."""
        plan = self.plan
        threads = plan.load_threads or min(max(plan.threads[0], 8), 32)
        return Point(target, case, threads, 1, None, "load", fresh=True, dataset_load=True)

    @property
    def first(self) -> Case:
        """The plan's first workload: whose properties bring servers up and whose dataset is checked."""
        return self.cases[0]

    @property
    def dataset_loads(self) -> int:
        """The dataset loads planned over the plan's ``--repeat`` rounds (:meth:`dataset_loads_through`)."""
        return self.dataset_loads_through(self.plan.repeat)

    def stages(self, targets: Sequence[Target] | None = None) -> list[list[Cell]]:
        """The cells of ``targets`` (default: the plan's) in the stages a paired order runs them in, each stage its own
        rounds: the run-phase cells of each dataset (one for a plan without variants; each variant of a sweep axis has
        its own, in plan order), then the cells of an insert-only workload's loads (each empties its target's database
        first). Inside a stage the cells are in plan order, target by target."""
        cells = [c for t in (self.targets if targets is None else targets) for c in self.cells(t)]
        keys = sorted(dict.fromkeys(map(stage_of, cells)), key=lambda k: k[0] != "run")  # stable: plan order
        return [[c for c in cells if stage_of(c) == k] for k in keys]

    def loads_in_round(self, round_no: int, phase: str = "run", stage: Sequence[Cell] | None = None) -> int:
        """The dataset loads of round ``round_no`` alone of ``stage`` (default: the plan's first stage; 0 for the
        rounds of an insert-only workload's loads)."""
        if phase != "run" or self.plan.phase == "load":
            return 0
        cells = list(stage) if stage is not None else (self.stages() or [[]])[0]
        return self._stage_loads(cells, round_no) - self._stage_loads(cells, round_no - 1)

    def dataset_loads_through(self, rounds: int) -> int:
        """The dataset loads of rounds 1 to ``rounds`` of every stage (:meth:`stages`) in the order the sweep runs them
        (:attr:`order`, :mod:`ycsbctl.experiment.rounds`): a target that is loaded loads the dataset its next run-phase
        point reads whenever it holds another (each variant of a sweep axis has its own: once per variant and target
        in the ``alternate`` and ``interleaved`` orders, which run variant by variant); in the ``blocks`` order a
        server ycsbctl starts comes back empty for each of its blocks (a URL's server keeps its dataset). The
        ``target`` order runs a cell's repetitions back to back: one load per change of dataset."""
        if self.plan.phase == "load" or rounds < 1:
            return 0
        if self.order == "target":  # a cell's repetitions follow one another, on the same dataset
            held: dict[str, str | None] = {}
            return _visit([c.point(1) for t in self.targets for c in self.cells(t) if c.phase == "run"], held)
        return sum(self._stage_loads(stage, rounds) for stage in self.stages() if stage[0].phase == "run")

    def _stage_loads(self, stage: Sequence[Cell], rounds: int) -> int:
        """The dataset loads of rounds 1 to ``rounds`` of one stage's run-phase cells (one dataset) in the order the
        sweep runs them; a stage's dataset is never the one a target held before it (each stage has its own)."""
        from ycsbctl.experiment.rounds import block_order, round_points

        held: dict[str, str | None] = {}
        n = 0
        targets = list({c.target.name: c.target for c in stage}.values())  # a Target is not hashable
        for r in range(1, rounds + 1):
            if self.order in ("interleaved", "alternate"):
                n += _visit(round_points(list(stage), r, self.plan.seed), held)
                continue
            for t in block_order(targets, r):
                if not t.is_url:
                    held.pop(t.name, None)  # started anew for its block: empty
                n += _visit(round_points([c for c in stage if c.target is t], r, self.plan.seed), held)
        return n


def stage_of(cell: Cell) -> tuple[str, str]:
    """The stage (:meth:`Study.stages`) ``cell`` runs in: (``run``, the dataset its points read: "" the plan's shared
    one, else its variant's) or (``load``, "") for an insert-only workload's loads."""
    return (cell.phase, cell.case.dataset_key) if cell.phase == "run" else (cell.phase, "")


def _visit(points: Sequence[Point], held: dict[str, str | None]) -> int:
    """The loads ``points`` make in their order (a loaded target loads a point's dataset when it holds another),
    updating ``held`` (target name -> the dataset it holds)."""
    n = 0
    for p in points:
        if p.target.loads and held.get(p.target.name) != p.case.dataset_key:
            n, held[p.target.name] = n + 1, p.case.dataset_key
    return n

"""The experiment: targets × workloads × thread ladder × repetitions × scale.

The ladders' and rates' syntax is :mod:`ycsbctl.experiment.axes`'s, the targets' names and labels
:mod:`ycsbctl.experiment.targets`', the named scales :mod:`ycsbctl.experiment.profiles`'.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

from ycsbctl.engine.contract import EngineName
from ycsbctl.errors import UserError

# ycsbctl.cli.experiment imports parse_rates and split_targets from here (not yet moved to axes / targets)
from ycsbctl.experiment.axes import parse_rates as parse_rates
from ycsbctl.experiment.axes import parse_threads
from ycsbctl.experiment.profiles import PROFILES, Profile
from ycsbctl.experiment.targets import is_url, target_label, target_labels
from ycsbctl.experiment.targets import split_targets as split_targets
from ycsbctl.stores import registry
from ycsbctl.urls import redact_url

# An alternated session's slice (s): how long all clients stay on one target before they switch together
# (ycsbctl.engine.alternation). Shorter slices pair the sides closer in time and give more blocks (degrees of
# freedom) a point: on a shared 2-core host, 0.5 s slices left a session's paired log ratio a standard error 2-4x
# that of 0.1-0.3 s ones (docs/benchmarks.md, "the slice"); the switch-over's cost: python -m bench alternation
SLICE_S = 0.2
SLICE_RANGE_S = (0.05, 10.0)

if TYPE_CHECKING:
    from ycsbctl.experiment.placement import Placement

DEFAULT_TARGETS = ("redis", "mongodb")
DEFAULT_LADDER = "8..128"


@dataclass
class Plan:
    """Everything one ``ycsbctl run`` does; stored in the manifest so ``--resume`` can redo it."""

    workloads: list[str]
    targets: list[str] = field(default_factory=lambda: list(DEFAULT_TARGETS))
    threads: list[int] = field(default_factory=lambda: parse_threads(DEFAULT_LADDER))
    load_threads: int | None = None  # the load phase's client threads; None: the first of ``threads``, 8 to 32
    repeat: int = 1  # rounds; with ``precision``, the fewest rounds before it may stop
    # --repeat auto / --precision P%: rounds are added until every cell's 95 % throughput interval is
    # within ±precision (0.05 = ±5 %) or ``max_repeat`` rounds ran
    precision: float | None = None
    max_repeat: int = 10
    # --repeat auto (without --precision): rounds are added until every compared cell is decided (better, worse or
    # equivalent: ycsbctl.experiment.sequential), ``budget_s`` seconds of rounds are spent or ``max_repeat`` rounds ran
    sequential: bool = False
    budget_s: float | None = None
    margin: float | None = None  # --margin: the equivalence margin (0.10 = ±10 %); None: the default
    order: str = "auto"  # auto | alternate | interleaved | blocks | target (ycsbctl.experiment.rounds)
    # --slice: seconds an alternated session spends on one target before switching (ycsbctl.engine.alternation)
    slice_s: float = SLICE_S
    # auto | split | off: servers and client on separate CPU sets (ycsbctl.experiment.placement)
    placement: str = "auto"
    baseline: str | None = None  # the target the others are compared with (None: the first)
    alpha: float = 0.05  # the verdicts' significance level (false discovery rate over a comparison's cells)
    profile: str = "default"
    cpu_profile: str | None = None  # peak | all: on-CPU stacks of the points (ycsbctl.experiment.profiled)
    records: int | None = None
    operations: int | None = None
    duration_s: float | None = None
    warmup_s: float | None = None
    target_rates: list[float] = field(default_factory=list)  # offered ops/s per point (a sweep axis); []: unpaced
    # --slo 'p99<1ms': search the highest offered rate meeting it (ycsbctl.experiment.rate_search)
    slo: str | None = None
    slo_start: float | None = None  # the search's first rate (ops/s); None: a fraction of an unpaced point's
    slo_points: int = 8  # paced points the search may run per target × workload × threads
    timeout_s: float = 10.0
    max_error_rate: float = 0.01
    backend: Literal["auto", "docker", "local"] = "auto"
    engine: EngineName = "native"
    ycsb_home: str | None = None
    processes: int | None = None
    seed: int | None = None
    telemetry: bool = True
    # --no-yardstick: no host yardstick at the start of each round (ycsbctl.experiment.yardstick_rounds)
    yardstick: bool = True
    # --reference/--no-reference: a reference server in every alternated session (ycsbctl.experiment.reference);
    # None: on unless YCSBCTL_REFERENCE=off
    reference: bool | None = None
    load: bool | None = None  # None: load provisioned targets, not URLs the user runs
    property_files: list[str] = field(default_factory=list)
    properties: list[str] = field(default_factory=list)  # -p key=value
    images: dict[str, str] = field(default_factory=dict)
    docker_hosts: dict[str, str] = field(default_factory=dict)  # target (or "*": all) -> Docker engine URL
    server_cpus: str | None = None
    server_memory: str | None = None
    iperf_server: str | None = None
    measurement: str | None = None
    phase: str | None = None  # "load": every point is a load into the target as it is (``ycsbctl load``)
    percentiles: list[float] | None = None  # hdrhistogram.percentiles of the printed block (None: YCSB's)
    exporter: str = "text"  # the printed block: text | json | jsonarray (YCSB's exporter property)
    exportfile: str | None = None  # where the printed block goes (YCSB's exportfile); None: stdout
    cluster: str | None = None  # a Dask scheduler (tcp://|tls://HOST:PORT): one engine shard per worker
    # Targets as labels (ycsbctl.provision.target_spec): a label's server kind when its name does not
    # begin with one (--target-kind), its settings (--server-config), a local build to run (--binary,
    # keyed by label or kind).
    target_kinds: dict[str, str] = field(default_factory=dict)
    server_settings: dict[str, dict[str, str]] = field(default_factory=dict)
    binaries: dict[str, str] = field(default_factory=dict)
    tls: bool = False  # --tls: every target ycsbctl starts speaks TLS only
    # --disturb ACTION:TYPE:SIZE@AT[/EVERY] (ycsbctl.stores.disturb): run on every run-phase point, whose
    # client series is then also recorded at 100 ms
    disturb: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.profile not in PROFILES:
            raise UserError(f"unknown profile {self.profile!r}: use one of {', '.join(PROFILES)}")
        if self.repeat < 1:
            raise UserError("--repeat must be ≥ 1")
        for flag, v in (("--duration", self.duration_s), ("--warmup", self.warmup_s), ("--timeout", self.timeout_s)):
            if v is not None and not math.isfinite(v):  # NaN or infinity (a plan of Python's, or a manifest edited)
                raise UserError(f"{flag} {v}: give a finite number of seconds")
        if self.precision is not None and not 0 < self.precision < 1:
            raise UserError("--precision is a relative half width, e.g. 3% (or 0.03)")
        if not 0 < self.alpha < 1:
            raise UserError(f"--alpha {self.alpha}: give a significance level between 0 and 1 (e.g. 0.05)")
        if self.max_repeat < self.repeat:
            raise UserError(f"--max-repeat {self.max_repeat} is below --repeat {self.repeat}: raise it")
        if self.margin is not None and not 0 < self.margin < 1:
            raise UserError(f"--margin {self.margin}: give a share such as 10% (above 0, below 100 %)")
        if self.budget_s is not None and not 0 < self.budget_s < float("inf"):
            raise UserError(f"--budget {self.budget_s}: give a time such as 10m")
        from ycsbctl.experiment.rounds import ORDERS

        if self.order not in ORDERS:
            raise UserError(f"unknown --order {self.order!r}: use one of {', '.join(ORDERS)}")
        if not SLICE_RANGE_S[0] <= self.slice_s <= SLICE_RANGE_S[1]:
            raise UserError(f"--slice {self.slice_s:g}: give seconds from {SLICE_RANGE_S[0]:g} to {SLICE_RANGE_S[1]:g}")
        from ycsbctl.experiment.placement import PLACEMENTS

        if self.placement not in PLACEMENTS:
            raise UserError(f"unknown --placement {self.placement!r}: use one of {', '.join(PLACEMENTS)}")
        if self.baseline is not None and self.baseline not in target_labels(self.targets):
            raise UserError(f"--baseline {self.baseline}: not one of the targets "
                            f"({', '.join(target_labels(self.targets))})")
        if self.engine not in ("native", "ycsb"):
            raise UserError(f"unknown engine {self.engine!r}: use native or ycsb")
        if self.backend not in ("auto", "docker", "local"):
            raise UserError(f"unknown backend {self.backend!r}: use auto, docker or local")
        if not self.targets:
            raise UserError("no target: name one with --target (redis, mongodb, … or a redis:// / mongodb:// URL)")
        if not 0 <= self.max_error_rate <= 1:
            raise UserError("--max-error-rate is a fraction between 0 and 1 (0.01 = 1%)")
        if self.slo is not None:
            from ycsbctl.results.slo import parse_slo

            parse_slo(self.slo)
            if self.target_rates:
                raise UserError("--slo picks the offered rates itself: drop --target-rate "
                                "(--slo-start RATE sets where the search begins)")
            if self.repeat > 1 or self.precision is not None or self.sequential:
                raise UserError("--slo runs each rate once: drop --repeat/--precision")
            if self.slo_points < 2:
                raise UserError("--slo-points must be ≥ 2")
        elif self.slo_start is not None:
            raise UserError("--slo-start needs --slo 'p99<1ms' (the latency objective to search for)")
        if self.docker_hosts and self.backend == "local":
            raise UserError("--docker-host starts servers on a Docker engine: drop --backend local")
        if self.cluster and self.engine != "native":
            raise UserError("--cluster places ycsbctl's own engine on Dask workers: drop --engine ycsb")
        self._check_labels()
        if self.disturb:
            self._check_disturbances()
        if self.run_order[0] == "target" and (
            self.precision is not None or (self.sequential and len(self.targets) > 1)
        ):
            why = self.run_order[1] or "--order target"
            raise UserError(f"--repeat auto / --precision add rounds over interleaved points, and these run target by "
                            f"target ({why.split(': ', 1)[-1]}): "
                            "give --repeat N instead")
        if self.server_memory:  # refused before anything starts, not as a target skipped when its server starts
            from ycsbctl.provision.limits import parse_size

            parse_size(self.server_memory)
        if self.placement == "split":
            _ = self.placed  # a plan that cannot be placed as asked is refused before anything starts

    def _check_disturbances(self) -> None:
        """Each ``--disturb`` parses and fits the plan (one line, exit 2, before anything starts);
        whether each target's protocol has an analogue is checked with the targets (check_plan)."""
        from ycsbctl.stores.disturb import parse_disturb

        if self.engine != "native":
            raise UserError("--disturb needs ycsbctl's own engine (it records the 100 ms series): drop --engine ycsb")
        if self.phase == "load":
            raise UserError("--disturb runs during run-phase points: use `ycsbctl run`, not `ycsbctl load`")
        if self.point_duration_s is None:
            raise UserError("--disturb needs time-bounded points (its AT is seconds into the measured window): "
                            "give --duration S instead of --operations")
        for text in self.disturb:
            parse_disturb(text, self.point_duration_s)

    # -- targets as labels ----------------------------------------------------------------------------

    def _check_labels(self) -> None:
        """Every catalogue target has a kind; settings, kinds and binaries name targets we start."""
        specs = {t: self.spec(t) for t in self.targets if not is_url(t)}
        urls = {x: t for x, t in zip(target_labels(self.targets), self.targets) if is_url(t)}
        for flag, given in (("--server-config", self.server_settings), ("--target-kind", self.target_kinds)):
            for label in given:
                if label in urls:
                    raise UserError(f"{flag} {label}: that target is a server you run ({redact_url(urls[label])}); "
                                    "ycsbctl does not reconfigure it — set it there, or let ycsbctl start one "
                                    "(--targets redis-x --server-config redis-x:KEY=VALUE)")
                if label not in specs:
                    raise UserError(f"{flag} {label}: no target is labelled {label!r} (targets: "
                                    f"{', '.join(self.targets)}); add it to --targets")
        from ycsbctl.provision.catalog import get_target

        for s in specs.values():  # shards=N / replicas=N of a deployment: were a skipped target, exit 1, a folder
            v = get_target(s.kind).variant
            if v is not None and (v.shards or v.replicas):
                from ycsbctl.provision.local_cluster import topology

                topology(get_target(s.kind), dict(s.settings))
        kinds = {k for s in specs.values() for k in (s.kind, getattr(get_target(s.kind).variant, "base", s.kind))}
        for name in self.binaries:
            if name not in specs and name not in kinds:
                raise UserError(f"--binary {name}=…: no target is labelled {name!r} or of that kind (targets: "
                                f"{', '.join(self.targets)})")
        if self.binaries and self.backend == "docker":
            raise UserError("--binary runs a local build: drop --backend docker (or --binary)")
        if self.tls:
            from ycsbctl.provision.catalog import check_tls

            embedded = [u for u in urls.values() if not registry.for_url(u).has_server]
            if not specs and embedded:
                proto = registry.for_url(embedded[0])
                raise UserError(f"--tls: {redact_url(embedded[0])} is {proto.title or proto.name}, "
                                "run inside ycsbctl's "
                                "own processes: it has no network and no TLS; drop --tls")
            if not specs:
                raise UserError("--tls starts the servers ycsbctl runs with TLS, and every target here is a server you "
                                "run: give its TLS URL instead (rediss://…, or -p redis.tls=true; postgresql://…"
                                "?sslmode=require; mysql://…?ssl=true)")
            for s in specs.values():
                check_tls(s.kind, self.backend)

    def spec(self, target: str):
        """The label, kind, settings and binary of a catalogue target (a TargetSpec); UserError (exit 2)
        when the label names no kind."""
        from ycsbctl.provision.catalog import get_target
        from ycsbctl.provision.target_spec import TargetSpec, resolve_kind

        kind = resolve_kind(target, self.target_kinds)
        variant = get_target(kind).variant  # --binary redis=… runs redis-aof's server too
        return TargetSpec(label=target, kind=kind, settings=dict(self.server_settings.get(target, {})),
                          binary=self.binaries.get(target) or self.binaries.get(kind)
                          or (self.binaries.get(variant.base) if variant else None), tls=self.tls)

    # -- resolved scale -----------------------------------------------------------------

    @property
    def scale(self) -> Profile:
        return PROFILES[self.profile]

    @property
    def record_count(self) -> int:
        return self.records if self.records is not None else self.scale.records

    @property
    def point_duration_s(self) -> float | None:
        """Seconds per point after the warm-up; with a count too, the point ends at whichever comes
        first (YCSB's operationcount and maxexecutiontime)."""
        if self.duration_s is not None:
            return self.duration_s
        return None if self.operations is not None else self.scale.duration_s

    @property
    def point_operations(self) -> int | None:
        return (
            self.operations
            if self.operations is not None
            else (None if self.point_duration_s else self.scale.operations)
        )

    @property
    def point_warmup_s(self) -> float:
        """The profile's warm-up (s) goes with the profile's own point length; a point whose length
        the user gave (``--duration``: YCSB's maxexecutiontime, ``--operations``: its operationcount)
        measures from its first operation, as YCSB does, unless ``--warmup`` is given (the table of YCSB's
        properties in docs/guide/everyday.md says so: ``--duration``, "with no warm-up unless --warmup")."""
        if self.warmup_s is not None:
            return self.warmup_s
        return self.scale.warmup_s if self.duration_s is None and self.operations is None else 0.0

    def loads(self, target: str) -> bool:
        """Whether to load the dataset into ``target`` before its run-phase points."""
        return self.load if self.load is not None else not is_url(target)

    @property
    def rate_axis(self) -> list[float | None]:
        """The offered rates each thread count runs at (ops/s; None: unpaced)."""
        return list(self.target_rates) or [None]

    @property
    def baseline_label(self) -> str:
        """The target the others are compared with: ``--baseline``, else the first."""
        return self.baseline or target_labels(self.targets)[0]

    def points(self) -> int:
        """Points planned; with ``--slo``, the most the search may run (its unpaced point included);
        with ``--precision``, those of its first ``repeat`` rounds."""
        per = self.slo_points if self.slo else len(self.rate_axis) * self.repeat
        return len(self.targets) * len(self.workloads) * len(self.threads) * per

    def to_dict(self) -> dict[str, Any]:
        from ycsbctl.urls import redact_argument

        # every URL and secret-named property (targets, -p, the scheduler's address…) hidden by parsing it
        d: dict[str, Any] = {k: redact_argument(v) if isinstance(v, str) else [
            redact_argument(x) if isinstance(x, str) else x for x in v] if isinstance(v, list) else v
            for k, v in asdict(self).items()}
        from ycsbctl.provision.probe import redact_config

        d["server_settings"] = {label: redact_config(s) for label, s in self.server_settings.items()}
        # each provisioned target as label + kind + settings, resolved (ignored by from_dict)
        d["target_specs"] = {t: {**self.spec(t).to_dict(), "settings": d["server_settings"].get(t, {})}
                             for t in self.targets if not is_url(t)}
        # the resolved scale, for readers of the manifest (ignored by from_dict)
        d.update(record_count=self.record_count, point_duration_s=self.point_duration_s,
                 point_operations=self.point_operations, point_warmup_s=self.point_warmup_s)
        # the order the points run in and the comparisons' baseline, resolved (ignored by from_dict)
        d.update(run_order=self.run_order[0], run_order_note=self.run_order[1], baseline_target=self.baseline_label)
        # where the servers and the client ran (ignored by from_dict)
        d["placement_resolved"] = self.placed.to_dict()
        return d

    @cached_property
    def placed(self) -> Placement:
        """The resolved :class:`~ycsbctl.experiment.placement.Placement` of this plan on this host (a
        user's error in it, such as ``--placement split`` with a URL target, is raised when the plan is made)."""
        from ycsbctl.experiment.placement import resolve_placement
        from ycsbctl.provision.catalog import get_target
        from ycsbctl.provision.engines import engine_address, engine_for
        from ycsbctl.provision.limits import parse_cpuset

        unplaceable = []
        for t in self.targets:
            proto = registry.for_url(t) if is_url(t) else registry.get(get_target(self.spec(t).kind).protocol)
            if not proto.has_server:  # its work is the client's: a client on half the CPUs would halve it
                unplaceable.append(f"{target_label(t, self.targets)} (runs inside the client, no server)")
            elif is_url(t):
                unplaceable.append(f"{target_label(t, self.targets)} (a server you run)")
            elif (host := engine_for(t, self.docker_hosts)) and engine_address(host) is not None:
                unplaceable.append(f"{t} (on the Docker engine {engine_address(host)})")
        cpus = parse_cpuset(self.server_cpus) if self.server_cpus else None
        return resolve_placement(self.placement, unplaceable, cpus, self.engine, bool(self.cluster),
                                 alternates=self.run_order[0] == "alternate")

    @property
    def run_order(self) -> tuple[str, str | None]:
        """(``alternate``, ``interleaved``, ``blocks`` or ``target``, why not the order asked for):
        :func:`ycsbctl.experiment.rounds.plan_order`."""
        from ycsbctl.experiment.rounds import plan_order

        return plan_order(self)

    def with_secrets(self, urls: list[str], properties: list[str]) -> Plan:
        """This plan as read back from a manifest, where passwords are stored as ``***``, with the ones
        given again: a ``--target`` URL whose redacted form is the stored one, a ``-p name=value`` of a
        redacted property. A password still missing is a one-line error that says what to pass."""
        from ycsbctl.urls import redact_url

        unknown = [redact_url(u) for u in urls if redact_url(u) not in self.targets]
        if unknown:
            raise UserError(f"--resume finishes the stored plan, whose targets are {', '.join(self.targets)}; "
                            f"--target {unknown[0]} is not one of them: give a stored target again (with its "
                            "password), or start a new experiment to measure another")
        by_shown = {redact_url(u): u for u in urls}
        given = dict(p.partition("=")[::2] for p in properties)
        targets = [by_shown.get(t, t) for t in self.targets]
        props = [f"{k}={given.get(k, v)}" if v == "***" else p
                 for p in self.properties for k, v in [p.partition("=")[::2]]]
        missing = [t for t in targets if ":***@" in t or "//***@" in t] + [p for p in props if p.endswith("=***")]
        secret = [f"{label}:{k}" for label, kv in self.server_settings.items() for k, v in kv.items() if v == "***"]
        if secret:
            raise UserError(f"the stored plan has server settings ycsbctl does not keep ({', '.join(secret)}): "
                            "this folder cannot be resumed; start the run again with its --server-config")
        if missing:
            # the list last: the printed line is redacted again, and "=***)" there was read as a value
            raise UserError("the stored plan has passwords ycsbctl does not keep: pass them again with --resume, as "
                            f"--target URL and -p name=value: {', '.join(missing)}")
        return replace(self, targets=targets, properties=props)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Plan:
        known = {k: v for k, v in d.items() if k in cls.__dataclass_fields__}
        if "target_rates" not in d and d.get("target_rate"):  # a plan stored before rate ladders
            known["target_rates"] = [float(d["target_rate"])]
        return cls(**known)

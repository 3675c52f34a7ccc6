"""``ycsbctl calibrate``: ycsbctl's client side by side with the store's own reference client
(``redis-benchmark``) on one server and the same records, to tell whether the client limits what
ycsbctl measures.

Both read the same records uniformly at random with the same command: ycsbctl loads ``records``
records named as the reference client names its keys (YCSB's ``insertorder=ordered``,
``zeropadding=12``: ``user000000000042``; redis-benchmark's ``-r``), then, round after round, each
thread count runs once on each side for about ``duration_s`` seconds, thread counts and sides in an
order shuffled from the seed. Each side's rounds pair by round: ycsbctl's throughput, client CPU per
read and READ p99 over the reference's are ratios with intervals and verdicts from
:mod:`ycsbctl.results.stats` (paired t on the log ratios, Benjamini–Hochberg over every cell). The
server's own count of the read command, before and after, must equal the reads both sides sent: both
measured the same server.
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ycsbctl.errors import UserError
from ycsbctl.provision.base import BackendChoice
from ycsbctl.results import stats
from ycsbctl.stores.reference import ReferenceClient, ReferenceRun

YCSBCTL = "ycsbctl"
# (metric, unit, higher is better): throughput decides whether the client is the bottleneck
METRICS = (("throughput", "ops/s", True), ("client CPU per read", "µs", False), ("READ p99", "µs", False))
PROBE_REQUESTS = 2_000  # the reference's warm-up per thread count (not kept): it also gives the rate that sizes -n
MIN_BUDGET_ROUNDS = 2  # a --budget's fewest rounds: two give an interval
MAX_BUDGET_ROUNDS = 1_000  # and its most (a budget of days is a mistake, not a plan)


@dataclass(frozen=True)
class CalibratePlan:
    """What ``ycsbctl calibrate`` runs: a catalogue target it starts (``redis``) or a URL it uses as it is
    (its database must be empty: the records are loaded there and removed at the end)."""

    target: str = "redis"
    threads: tuple[int, ...] = (8, 32)
    duration_s: float = 3.0
    rounds: int = 5
    records: int = 10_000
    warmup_s: float = 1.0  # ycsbctl's unmeasured run per thread count before the rounds (0: none)
    processes: int | None = None  # ycsbctl's worker processes (None: its default)
    backend: BackendChoice = "auto"
    seed: int = 0
    # rounds as many as this many seconds hold at the first round's length (at least MIN_BUDGET_ROUNDS), in place of
    # ``rounds``: fixed once round 1 has run, from its length alone, so the verdicts test a planned count of rounds
    budget_s: float | None = None
    margin: float = stats.EQUIVALENCE_MARGIN  # the equivalence margin (0.10: within ±10 % is "equivalent")

    def check(self) -> None:
        """A :class:`UserError` for settings it cannot measure, and for a URL ``--target`` of ``run`` refuses (port 0:
        every client's "port or its default" reached the server on 6379 instead)."""
        from ycsbctl.experiment.targets import is_url, validate_url

        if is_url(self.target):
            validate_url(self.target)
        if not self.threads or min(self.threads) < 1:
            raise UserError("--threads: give one or more thread counts ≥ 1 (8,32)")
        if not self.duration_s > 0 or self.rounds < 1 or self.records < 1 or self.warmup_s < 0:
            raise UserError("--duration, --rounds and --records must be > 0, --warmup ≥ 0")
        if self.budget_s is not None and not 0 < self.budget_s < math.inf or not 0 < self.margin < 1:
            raise UserError("--budget must be a time > 0 and --margin a share between 0 and 100 %")

    def planned(self, round_s: float) -> int:
        """The rounds to run, once the first took ``round_s`` seconds: ``rounds``, or with ``budget_s`` as many as
        it holds at that length (:func:`ycsbctl.results.looks.planned_rounds`), at least :data:`MIN_BUDGET_ROUNDS`."""
        if self.budget_s is None:
            return self.rounds
        from ycsbctl.results.looks import planned_rounds

        return max(MIN_BUDGET_ROUNDS, planned_rounds(self.budget_s, round_s, MAX_BUDGET_ROUNDS))


@dataclass(frozen=True)
class Sample:
    """One side at one thread count in one round (rates in ops/s, latencies and CPU in µs)."""

    round: int
    threads: int
    side: str  # ycsbctl | the reference client's name
    ops_s: float
    p99_us: float
    mean_us: float
    client_us_per_op: float
    reads: int  # read commands sent


@dataclass
class Calibration:
    """What a calibration measured, how, and the server's own count of the reads."""

    plan: CalibratePlan
    server: str  # the server that answered (name and version)
    url: str  # redacted
    reference: str  # the reference client's name
    properties: dict[str, str]  # ycsbctl's workload properties
    reference_commands: dict[int, str] = field(default_factory=dict)  # threads → its last run (password masked)
    samples: list[Sample] = field(default_factory=list)
    reads_sent: int = 0  # by both sides, warm-ups included
    reads_served: int = 0  # the server's count of the read command over the same span
    load_avg: tuple[float, float] = (math.nan, math.nan)  # 1-minute load average before and after
    cores: int = 0
    busy: list[str] = field(default_factory=list)  # other benchmarks that ran meanwhile
    rounds_run: int = 0  # the rounds measured (``plan.rounds``, or those a --budget held)
    round_s: float | None = None  # the first round's length (s), with a --budget

    def values(self, side: str, threads: int, metric: str) -> dict[int, float]:
        """round → the metric of one side's sample at ``threads``."""
        pick = {"throughput": "ops_s", "client CPU per read": "client_us_per_op", "READ p99": "p99_us"}[metric]
        return {s.round: getattr(s, pick) for s in self.samples if s.side == side and s.threads == threads}

    def comparisons(self) -> list[dict[str, Any]]:
        """ycsbctl over the reference, per thread count and metric: ratio, interval at the family's level,
        adjusted p, verdict, detectable difference (%); decided together (:func:`ycsbctl.results.stats.decide`)."""
        cells: list[dict[str, Any]] = []
        found: list[stats.Comparison] = []
        higher: list[bool] = []
        for t in self.plan.threads:
            for metric, unit, up in METRICS:
                base, ours = self.values(self.reference, t, metric), self.values(YCSBCTL, t, metric)
                found.append(replace(stats.compare(base, ours, paired=True), equivalence=self.plan.margin))
                higher.append(up)
                cells.append({"threads": t, "metric": metric, "unit": unit, "higher_is_better": up,
                              "ycsbctl": stats.interval(list(ours.values())).centre,
                              "reference": stats.interval(list(base.values())).centre})
        decided = stats.decide(found, higher)
        for c, d in zip(cells, decided):
            c.update(ratio=d.ratio, ci_low=d.low, ci_high=d.high, ci_level=d.level, p_adjusted=d.p_adjusted,
                     verdict=d.verdict, n=d.n, test=d.test,
                     detectable_pct=100 * d.detectable if d.detectable == d.detectable else math.nan)
        return cells

    def to_dict(self) -> dict[str, Any]:
        return {"plan": asdict(self.plan), "server": self.server, "url": self.url, "reference": self.reference,
                "properties": self.properties, "reference_commands": self.reference_commands,
                "samples": [asdict(s) for s in self.samples], "reads_sent": self.reads_sent,
                "reads_served": self.reads_served, "load_avg": list(self.load_avg), "cores": self.cores,
                "busy": self.busy, "rounds_run": self.rounds_run, "round_s": self.round_s,
                "comparisons": self.comparisons()}


def reference_for(plan: CalibratePlan) -> ReferenceClient:
    """The reference client of the target's store; a store without one is a :class:`UserError`."""
    from ycsbctl.experiment.targets import is_url
    from ycsbctl.provision.catalog import get_target
    from ycsbctl.stores import registry
    from ycsbctl.stores.capabilities import Calibration

    proto = registry.for_url(plan.target) if is_url(plan.target) else registry.get(get_target(plan.target).protocol)
    ref = registry.ask(proto, Calibration.reference_client)
    if ref is None:
        raise UserError(f"calibrate needs a store that ships a load generator of its own (redis: redis-benchmark); "
                        f"{proto.name} has none")
    return ref


def calibrate(plan: CalibratePlan, say: Callable[[str], None], command_line: str = "ycsbctl calibrate",
              allow_concurrent: bool = False) -> Calibration:
    """Start (or attach to) the target, load the records, run the rounds, empty the database and stop
    what was started. Ctrl-C (or SIGTERM) included: then one line says what was undone, and the exit is 130."""
    undone: list[str] = []
    try:
        return _calibrate(plan, say, command_line, allow_concurrent, undone)
    except KeyboardInterrupt:
        say(f"calibrate: interrupted: {'; '.join(undone) or 'nothing was started'}")
        raise SystemExit(130) from None


def _calibrate(plan: CalibratePlan, say: Callable[[str], None], command_line: str, allow_concurrent: bool,
               undone: list[str]) -> Calibration:
    """:func:`calibrate`'s work; ``undone`` gathers what its clean-up undid, in the user's words."""
    from ycsbctl.experiment.host_claim import claim_host
    from ycsbctl.provision import provision, teardown
    from ycsbctl.stores.admin import clear_dataset, count_records
    from ycsbctl.urls import redact_url

    plan.check()
    ref = reference_for(plan)
    if "://" in plan.target:
        ref.check(plan.target)
    claim = claim_host(command_line, allow_concurrent)
    ep = None
    try:
        ep = provision(plan.target, plan.backend, experiment_id=time.strftime("calibrate-%Y%m%d-%H%M%S"), say=say)
        ref.check(ep.url)
        held = count_records(ep.url)
        if held:
            raise UserError(f"calibrate loads its own records: the database at {redact_url(ep.url)} holds {held:,}; "
                            "give an empty one (redis://host:port/15)")
        props = _properties(plan, ref)
        cal = Calibration(plan, ep.server_name or "", redact_url(ep.url), ref.name, props, cores=os.cpu_count() or 0)
        try:
            _load(ep.url, props, plan, say)
            cal.load_avg = (os.getloadavg()[0], math.nan)
            before = ref.reads_served(ep.url)
            _rounds(cal, ep.url, ref, say, claim.others)
            cal.reads_served = ref.reads_served(ep.url) - before
            cal.load_avg = (cal.load_avg[0], os.getloadavg()[0])
        finally:
            clear_dataset(ep.url)
            undone.append(f"removed the records it loaded from {redact_url(ep.url)}")
        return cal
    finally:
        if ep is not None:
            teardown(ep)
            if ep.backend != "external":  # a server provision started (a URL's is the user's: left running)
                undone.append("stopped the server it started")
        claim.close()


def _properties(plan: CalibratePlan, ref: ReferenceClient) -> dict[str, str]:
    """Workload C (reads only, whole records: HGETALL) over ``records`` records, uniformly, named as the
    reference client names its keys."""
    from ycsbctl.workload.properties import load_properties

    props = dict(load_properties("workload-c"))
    props.update(recordcount=str(plan.records), operationcount="0", requestdistribution="uniform",
                 readallfields="true", **ref.key_properties())
    return props


def _load(url: str, props: dict[str, str], plan: CalibratePlan, say: Callable[[str], None]) -> None:
    from ycsbctl.engine.runner import run_phase, unless_interrupted
    from ycsbctl.engine.spec import PhaseSpec

    say(f"loading {plan.records:,} records ({props['zeropadding']}-digit ordered keys, as the reference names them)")
    r = unless_interrupted(run_phase(PhaseSpec("load", url, props, threads=min(8, plan.records),
                                               processes=plan.processes, seed=plan.seed)))
    insert = r.ops.get("INSERT")
    if r.status != "ok" or insert is None or insert.returns.get("OK", 0) != plan.records:
        raise UserError(f"the load failed: {r.errors or r.status}", exit_code=1)


def _ours(url: str, props: dict[str, str], plan: CalibratePlan, threads: int, duration_s: float, rnd: int) -> Sample:
    from ycsbctl.engine.runner import run_phase, unless_interrupted
    from ycsbctl.engine.spec import PhaseSpec

    r = unless_interrupted(run_phase(PhaseSpec("run", url, props, threads=threads, duration_s=duration_s,
                                               processes=plan.processes, seed=plan.seed + rnd)))
    read = r.ops.get("READ")
    if r.status != "ok" or read is None or not read.operations:
        why = r.errors or (r.status if r.status != "ok" else "it measured no read")
        raise UserError(f"ycsbctl's run at {threads} threads failed: {why}", exit_code=1)
    return Sample(rnd, threads, YCSBCTL, r.throughput_ops, read.percentile(99), read.mean_us,
                  r.client_us_per_op(), sum(read.returns.values()))


def _theirs(url: str, ref: ReferenceClient, plan: CalibratePlan, threads: int, requests: int, rnd: int,
            cal: Calibration) -> tuple[Sample, ReferenceRun]:
    run = ref.read(url, threads, requests, plan.records)
    cal.reference_commands[threads] = run.command
    return Sample(rnd, threads, ref.name, run.ops_s, run.p99_us, run.mean_us, run.client_us_per_op, run.requests), run


def _rounds(cal: Calibration, url: str, ref: ReferenceClient, say: Callable[[str], None],
            others: Callable[[], list[str]]) -> None:
    """The warm-ups (per thread count, not kept: ycsbctl for ``warmup_s``, the reference for
    :data:`PROBE_REQUESTS`, whose rate sizes its request count to about ``duration_s`` seconds), then the rounds."""
    plan = cal.plan
    rng = random.Random(plan.seed)
    rate: dict[int, float] = {}
    for t in plan.threads:
        if plan.warmup_s > 0:
            cal.reads_sent += _ours(url, cal.properties, plan, t, plan.warmup_s, 0).reads
        warm, _ = _theirs(url, ref, plan, t, PROBE_REQUESTS, 0, cal)
        cal.reads_sent += warm.reads
        rate[t] = warm.ops_s
    began, rounds, rnd = time.monotonic(), plan.rounds if plan.budget_s is None else None, 0
    while rounds is None or rnd < rounds:
        rnd += 1
        for t in rng.sample(list(plan.threads), len(plan.threads)):
            for side in rng.sample([YCSBCTL, ref.name], 2):
                if side == YCSBCTL:
                    s = _ours(url, cal.properties, plan, t, plan.duration_s, rnd)
                else:
                    s, _ = _theirs(url, ref, plan, t, max(1_000, int(rate[t] * plan.duration_s)), rnd, cal)
                    rate[t] = s.ops_s
                cal.samples.append(s)
                cal.reads_sent += s.reads
                say(f"round {rnd}/{rounds or '?'}, {t} threads, {side}: {s.ops_s:,.0f} ops/s, "
                    f"p99 {s.p99_us / 1000:.2f} ms, client CPU {s.client_us_per_op:.1f} µs/read")
        cal.busy = list(dict.fromkeys(cal.busy + others()))
        if rounds is None:  # a --budget: its rounds, from the first's length alone
            cal.round_s = time.monotonic() - began
            rounds = plan.planned(cal.round_s)
            say(f"rounds planned: {rounds} (the --budget of {plan.budget_s:g} s holds {rounds} at ~{cal.round_s:.0f} s "
                f"a round{'; two at the least' if rounds * cal.round_s > (plan.budget_s or 0) else ''})")
    cal.rounds_run = rnd

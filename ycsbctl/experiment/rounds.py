"""The order points run in: rounds over every cell, each round shuffled from the seed.

A *cell* (:class:`~ycsbctl.experiment.study.Cell`) is target × workload × threads × offered rate. With the
``interleaved`` order each repetition is a round that visits every cell once, in an order shuffled per round from
``--seed`` (the same seed gives the same order), so whatever drifts on the host lands on every target alike and a cell's
repetitions are spread over the whole experiment. A round is a randomized complete block design: the cells the targets
are compared at (one workload, thread count and rate: a *block*) run one after another, the blocks in a shuffled order
and the targets in a shuffled order inside each block, so the points a ratio pairs are next to each other in time and
share the host's state (its steal, other programs' bursts) — the paired ratio's spread is what a verdict's interval is
made of. Where every target's server cannot stay up for the sweep, the ``blocks`` order keeps rounds but runs each round
target by target, one server up at a time, the targets' order reversed every other round (A B, B A, A B, …: the A B B A
design), so a drift that is linear in time lands on every target alike. The ``target`` order runs each target's points
in turn, a point's repetitions back to back (the order of earlier versions).

A plan whose cells read several datasets (a variant sweep: each variant of ``-p online.structure=hash,set`` loads its
own) runs its rounds in *stages*, one per dataset (:meth:`~ycsbctl.experiment.study.Study.stages`): each target loads
the stage's dataset once, then that stage's rounds run, so no pair of points waits on a reload (:data:`VARIANTS_NOTE`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar

from ycsbctl.errors import UserError

if TYPE_CHECKING:
    from ycsbctl.experiment.plan import Plan

ORDERS = ("auto", "alternate", "interleaved", "blocks", "target")
PAIRED_ORDERS = ("alternate", "interleaved", "blocks")  # the orders whose rounds pair the targets in time
DEFAULT_SEED = 0  # the order's seed when --seed is not given (the order is still reproducible)
T = TypeVar("T")
P = TypeVar("P", covariant=True)


class CellOf(Protocol[P]):
    """A cell (:class:`~ycsbctl.experiment.study.Cell`): it makes its point of a given repetition, and
    names the block the targets are compared at."""

    def point(self, repetition: int) -> P: ...

    @property
    def block(self) -> Hashable: ...


def round_order(cells: Sequence[T], round_no: int, seed: int | None,
                block: Callable[[T], Hashable] | None = None) -> list[T]:
    """The cells of round ``round_no`` (1-based), shuffled reproducibly from ``seed`` and the round (the
    order depends on the cells' positions only, so the same plan gives the same order). With ``block``,
    the cells of one block stay together: the blocks' order is shuffled, then each block's cells (one
    block: the plain shuffle of its cells). Without, each cell is a block of its own: the plain shuffle of
    the cells (a one-item block's shuffle draws nothing from the generator)."""
    rng = random.Random(f"ycsbctl-order:{DEFAULT_SEED if seed is None else seed}:{round_no}")
    groups: dict[Hashable, list[T]] = {}
    for i, cell in enumerate(cells):
        groups.setdefault(i if block is None else block(cell), []).append(cell)
    blocks = list(groups.values())
    rng.shuffle(blocks)
    for group in blocks:
        rng.shuffle(group)
    return [cell for group in blocks for cell in group]


def round_points(cells: Sequence[CellOf[P]], round_no: int, seed: int | None) -> list[P]:
    """The points of round ``round_no``: each cell once, as its repetition ``round_no``, in the round's order
    (a block's cells together: :func:`round_order`)."""
    return [cell.point(round_no) for cell in round_order(cells, round_no, seed, block=lambda c: c.block)]


def block_order(targets: Sequence[T], round_no: int) -> list[T]:
    """The targets' blocks of round ``round_no`` (1-based): in plan order in odd rounds, reversed in even
    ones — A B, B A, A B, … (A B C, C B A, …)."""
    return list(targets) if round_no % 2 else list(reversed(targets))


def resolve_order(order: str, targets: int, repeat: int, slo: bool, variants: bool,
                  one_phase_load: bool, not_all_up: str | None = None,
                  not_alternated: str | None = None) -> tuple[str, str | None]:
    """(the order a plan runs in, a note: why it is not the one asked for, or how a variant sweep runs it, or None).
    ``auto``: ``alternate`` with more than one target (a cell's targets measured in one engine session, switching
    every slice: :mod:`ycsbctl.experiment.sweep_alternated`) unless ``not_alternated`` says why it cannot, then
    interleaved with more than one target or repetition, or ``blocks`` where every target's server cannot stay up for
    the sweep (``not_all_up`` says why). A search for an SLO's rate (each rate depends on the last) and ``ycsbctl
    load`` run target by target. A variant sweep (each variant has a dataset of its own) runs in the paired orders
    dataset by dataset (:data:`VARIANTS_NOTE`): every target's dataset of a variant is loaded once, then the rounds
    over that variant's cells."""
    if order == "auto":
        wanted = ("alternate" if targets > 1 and not not_all_up else  # where it cannot alternate, it says why
                  "interleaved" if targets > 1 or repeat > 1 else "target")
    else:
        wanted = order
    if wanted == "target":
        return "target", None
    why = ("an SLO search picks each rate from the last" if slo else
           "ycsbctl load measures loads into the targets as they are" if one_phase_load else None)
    if why:
        return "target", f"points run target by target, not {wanted}: {why}"
    got, note = _paired(order, wanted, targets, not_all_up, not_alternated)
    if variants:
        return got, "; ".join(x for x in (note, VARIANTS_NOTE[got]) if x)
    return got, note


def _paired(order: str, wanted: str, targets: int, not_all_up: str | None,
            not_alternated: str | None) -> tuple[str, str | None]:
    """(the paired order ``wanted`` runs in, why not the one asked for or None)."""
    if wanted == "alternate" and (targets < 2 or not_alternated or not_all_up):
        because = "there is one target" if targets < 2 else not_alternated or not_all_up
        fallback = "blocks" if not_all_up else "interleaved"
        return fallback, f"rounds run {fallback}, not alternate (a cell's targets in one engine session): {because}"
    if wanted == "alternate":
        return "alternate", None
    if wanted == "blocks":
        return "blocks", BLOCKS_NOTE + (f": {not_all_up}" if not_all_up and order == "auto" else "")
    if not_all_up and order == "auto":
        return "blocks", f"{BLOCKS_NOTE}: {not_all_up}"
    return "interleaved", None


# How a variant sweep (each variant a dataset of its own) runs in each paired order: variant by variant, so that no
# point waits for a reload. The engine alternates targets, not workloads: two variants are two workloads, so the
# variants of one target are never in one session; they are compared across rounds (the report's peak table).
_VARIANTS = ("variant by variant: each variant's dataset is loaded into every target once, then that variant's "
             "rounds run")
VARIANTS_NOTE = {
    "alternate": f"{_VARIANTS}, a cell's targets alternated in one engine session; the variants of one target are "
                 "measured in rounds of their own, one after another, not alternated (the engine alternates targets, "
                 "not workloads)",
    "interleaved": f"{_VARIANTS}, a cell's targets next to each other in each round; the variants of one target are "
                   "measured one after another",
    "blocks": f"{_VARIANTS}, target by target in each round; the variants of one target are measured one after "
              "another",
}


def plan_order(plan: Plan) -> tuple[str, str | None]:
    """(the order ``plan`` runs in, why not the one it asks for): :func:`resolve_order` of its targets, rounds,
    search, variants and phase, with why its servers cannot all stay up (:func:`servers_fit`) and why its cells
    cannot alternate (:func:`not_alternated`)."""
    from ycsbctl.experiment.targets import is_url
    from ycsbctl.results.variants import split_variant

    started = [t for t in plan.targets if not is_url(t)]
    return resolve_order(plan.order, len(plan.targets), plan.repeat, bool(plan.slo),
                         any(split_variant(w)[1] for w in plan.workloads), plan.phase == "load",
                         servers_fit(len(started), plan.server_memory), not_alternated(plan))


def not_alternated(plan: Plan) -> str | None:
    """Why ``plan``'s cells cannot be measured in alternation (one engine session switching between the targets
    every slice), or None. Per-workload reasons (a run phase that inserts) are the sweep's, per cell
    (:func:`ycsbctl.experiment.alternated_measure.why_not_together`)."""
    if plan.engine != "native":
        return "the real YCSB measures one target per run"
    if plan.cluster:
        return "--cluster's shards measure one target each"
    if plan.target_rates:
        return "a paced point keeps one schedule per target"
    if plan.disturb:
        return "a disturbance is timed against one target's point"
    if plan.cpu_profile == "all":
        return "--cpu-profile all profiles one target's point"
    return None


BLOCKS_NOTE = ("rounds run target by target, one server up at a time, the targets' order reversed every other "
               "round (A B B A …; a server started again reloads its dataset)")


def wide_cells(records: list, precision: float) -> list[str]:
    """The cells (``target workload threads``) whose 95 % throughput interval over their ok points
    (:class:`~ycsbctl.results.folder.RunRecord`) is wider than ±``precision``, or has fewer than two points."""
    from ycsbctl.results.names import RunStatus
    from ycsbctl.results.stats import interval

    values: dict[tuple, list[float]] = {}
    for r in records:
        key = (r.target, r.workload, r.phase, r.threads, r.target_rate)
        values.setdefault(key, [])
        if r.status == RunStatus.OK and r.result is not None and r.result.operations:
            values[key].append(r.result.throughput_ops)
    out = []
    for (target, workload, _phase, threads, rate), v in values.items():
        hw = interval(v).half_width
        if not hw <= precision:  # NaN (fewer than two) counts as wide
            out.append(f"{target} {workload} {threads} threads" + (f" at {rate:,.0f} ops/s" if rate else ""))
    return out


def available_memory() -> int | None:
    """The host's available memory (bytes: ``MemAvailable`` of ``/proc/meminfo``), None where unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def servers_fit(started: int, server_memory: str | None, available: int | None = None) -> str | None:
    """Why ``started`` servers, each held to ``server_memory`` (``2g``), cannot all stay up on this host —
    together they would need more than its available memory — or None (they fit, or nothing says)."""
    if started < 2 or not server_memory:
        return None
    from ycsbctl.provision.limits import parse_size

    try:
        each = parse_size(server_memory)
    except (UserError, ValueError):
        return None
    free = available_memory() if available is None else available
    if free is None or started * each <= free:
        return None
    return (f"{started} servers of --server-memory {server_memory} need {started * each / 2**30:.1f} GiB together, "
            f"more than the host's {free / 2**30:.1f} GiB available")

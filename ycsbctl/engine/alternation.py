"""The targets one engine session alternates between, and the order of its slices (pure: no I/O).

An alternated session (design.md, "A cell is measured in alternation") holds one connection set per target; all
its client threads switch from target to target together every *slice* (``slice_s`` s, counted from the session's
start, warm-up included: slice ``k`` covers ``[k·slice_s, (k+1)·slice_s)``). An operation belongs to the slice it
started in. The slices come in blocks of ``2·n`` for ``n`` targets: in each block a permutation π of the targets
drawn from ``random.Random(f"ycsbctl-alternation:{seed}:{block}")``, then π reversed (A B | B A for two targets:
an A B B A or a B A A B quartet), so that a drift linear in time lands on every target alike.

The session's ``duration_s`` (:class:`~ycsbctl.engine.spec.PhaseSpec`) is the whole session after its warm-up, all
targets together: each target gets ``1/n`` of it. Whole blocks of measured slices need ``warmup_s`` and
``duration_s`` multiples of ``2·n·slice_s``; otherwise the first and last blocks are cut.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from ycsbctl.errors import UserError

SLICE_S_RANGE = (0.05, 10.0)  # s: shorter slices are mostly switch-over; longer ones leave the host's noise unpaired


@dataclass(frozen=True)
class Alternation:
    """The targets one engine session alternates between, and how."""

    urls: tuple[str, ...]  # every target's URL, in plan order (PhaseSpec.url == urls[0])
    properties: tuple[dict[str, str], ...] = ()  # per-target binding properties (empty: spec.properties for all)
    slice_s: float = 0.2  # seconds per slice (the plan's default: ycsbctl.experiment.plan.SLICE_S)
    seed: int = 0  # the schedule's seed
    # s at each slice's start whose operations are counted apart (the slices table's settle_* columns): neither in
    # the target's operations, throughput (its time is left out too) nor histograms. 0: none.
    settle_s: float = 0.0
    # every target's label, in urls' order: the slices' held_by names a holder by it (empty: by its index in urls)
    labels: tuple[str, ...] = ()

    def properties_of(self, target: int, common: dict[str, str]) -> dict[str, str]:
        """The binding properties of target ``target`` (its own, or ``common``: the phase's)."""
        return self.properties[target] if self.properties else common


def block_order(n_targets: int, seed: int, block: int) -> list[int]:
    """The ``2·n_targets`` targets of one block: a permutation π drawn from the block's own stream, then π reversed."""
    pi = list(range(n_targets))
    random.Random(f"ycsbctl-alternation:{seed}:{block}").shuffle(pi)
    return pi + pi[::-1]


def slice_target(alternation: Alternation | int, k: int, seed: int | None = None) -> int:
    """Which target (index into ``urls``) slice ``k`` (0-based, from the session's start) belongs to; with an
    int (a number of targets), ``seed`` is the schedule's seed (0 when not given)."""
    if isinstance(alternation, Alternation):
        n, s = len(alternation.urls), alternation.seed
    else:
        n, s = alternation, 0 if seed is None else seed
    block, i = divmod(k, 2 * n)
    return block_order(n, s, block)[i]


def schedule(n_targets: int, seed: int, slices: int) -> list[int]:
    """The target of each of the first ``slices`` slices (:func:`slice_target` for k = 0 … slices − 1)."""
    out: list[int] = []
    block = 0
    while len(out) < slices:
        out += block_order(n_targets, seed, block)
        block += 1
    return out[:slices]


def slice_count(slice_s: float, session_s: float) -> int:
    """Slices of a session of ``session_s`` s (warm-up included): the last may be cut short by its end."""
    return max(1, math.ceil(session_s / slice_s - 1e-9))


def slice_edges(k: int, slice_s: float, session_s: float) -> tuple[float, float]:
    """Slice ``k``'s nominal edges (s since the session's start): the last ends with the session."""
    return k * slice_s, min((k + 1) * slice_s, session_s)


def check(alt: Alternation, phase: str, duration_s: float | None, target_rate: float | None,
          workload: Any) -> None:
    """Refuse (one line, :class:`UserError`) an alternation the engine cannot measure fairly: ``workload`` is
    the phase's built workload plug-in (CorePlugin for YCSB's CoreWorkload), which says whether its operations can
    alternate (:meth:`~ycsbctl.workload.plugin.Workload.alternation_refusal`: not a run that inserts)."""
    if len(alt.urls) < 2:
        raise UserError(f"an alternation needs two targets or more (got {len(alt.urls)})")
    if phase != "run":
        raise UserError("the load phase cannot alternate: load each target on its own, then alternate the run")
    if not SLICE_S_RANGE[0] <= alt.slice_s <= SLICE_S_RANGE[1]:
        raise UserError(f"slice of {alt.slice_s:g} s: use {SLICE_S_RANGE[0]:g} to {SLICE_S_RANGE[1]:g} s")
    if not 0 <= alt.settle_s <= alt.slice_s / 2:
        raise UserError(f"a settle window of {alt.settle_s:g} s in {alt.slice_s:g} s slices: use 0 to half a slice")
    if alt.properties and len(alt.properties) != len(alt.urls):
        raise UserError(f"{len(alt.properties)} property sets for {len(alt.urls)} alternated targets: give one "
                        "per target, or none")
    if target_rate:
        raise UserError("a target rate cannot alternate (pacing does not carry across the switches): drop it")
    if not duration_s:
        raise UserError("an alternated run needs a duration (--duration S): its slices are cut by time")
    from ycsbctl.workload.plugin import why_not_alternated

    why = why_not_alternated(workload)
    if why:
        raise UserError(why)

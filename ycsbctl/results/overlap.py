"""Overlapping disturbances: events whose affected windows meet are measured as one, and their cost is
charged once (pure functions over the point's 100 ms series).

Each event's affected window is found alone (:func:`ycsbctl.results.disturbance.effect`); events whose
windows meet, directly or through another, form a group, measured once from its first start to the end of
its last window. The group's stall, slowdown and operations lost are charged to the event the server's own
evidence blames (the longest it says it was held by one of them, :attr:`Happening.held_s`: SLOWLOG, the
latency monitor) when that is at least :data:`BLAME_RATIO` times any other member's; otherwise jointly, on
the row of the group's first event. Every other member is charged nothing (its row says where its cost went),
so the operations lost summed over a point's events never count an interval twice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ycsbctl.results.disturbance import EventEffect, effect
from ycsbctl.results.fine import FineSeries

BLAME_RATIO = 2.0  # the server held one event this many times longer than any other of its group: it is charged


@dataclass(frozen=True)
class Happening:
    """One event that ran: ``label`` (``expire:hash:1M@2s``, ``… #2`` for a repetition), its start and the
    end of its command (s since the operations began), and ``held_s``: the longest the server's own
    evidence says it held the server for it (s; None: no evidence); ``busy_until_s``: when the store said its own
    background work for it was done (s since the operations began; ``inf``: not by the time it stopped being asked;
    None: no such work, or the store does not say)."""

    label: str
    start_s: float
    end_s: float
    held_s: float | None = None
    busy_until_s: float | None = None


@dataclass(frozen=True)
class Charge:
    """What one event is charged: ``effect`` (zero stall, slowdown and loss when its group's cost went to
    another), the other events of its group (``overlaps``), and ``charged_to``: the label of the event
    charged with the group's cost (its own when alone), or the labels joined by ``+`` when charged jointly."""

    effect: EventEffect
    overlaps: tuple[str, ...] = ()
    charged_to: str = ""

    @property
    def joint(self) -> bool:
        return "+" in self.charged_to and bool(self.overlaps)


def _held(h: Happening) -> float:
    return h.held_s if h.held_s is not None and not math.isnan(h.held_s) else 0.0


def blamed(group: list[Happening]) -> Happening | None:
    """The member the server's evidence blames: held at least :data:`BLAME_RATIO` times longer than each
    other (None: no evidence, or none stands out)."""
    ranked = sorted(group, key=_held, reverse=True)
    top = _held(ranked[0])
    if top > 0 and all(top >= BLAME_RATIO * _held(h) for h in ranked[1:]):
        return ranked[0]
    return None


def _busy(hs: list[Happening]) -> float | None:
    """The latest ``busy_until_s`` of ``hs`` (None: none says)."""
    said = [h.busy_until_s for h in hs if h.busy_until_s is not None and not math.isnan(h.busy_until_s)]
    return max(said) if said else None


def _uncharged(e: EventEffect) -> EventEffect:
    return replace(e, stall_s=0.0, stall_start_s=None,
                   stall_est_s=0.0 if not math.isnan(e.stall_est_s) else e.stall_est_s,
                   slow_s=0.0, slow_run_s=0.0, ops_lost=0.0 if not math.isnan(e.ops_lost) else e.ops_lost)


def groups(fine: FineSeries, events: list[Happening]) -> list[tuple[list[int], EventEffect, set[int]]]:
    """Indices of ``events`` in groups of meeting windows (by start), each with its effect measured once and
    the intervals earlier groups affected (left out of its reference rate)."""
    dt = fine.interval_s
    order = sorted(range(len(events)), key=lambda i: events[i].start_s)
    out: list[tuple[list[int], EventEffect, set[int]]] = []
    affected: set[int] = set()
    at = 0
    while at < len(order):
        skip = set(affected)
        members = [order[at]]
        first_one = events[order[at]]
        e = effect(fine, first_one.start_s, first_one.end_s, skip=skip, busy_until_s=first_one.busy_until_s)
        at += 1
        while at < len(order):
            nxt = events[order[at]]
            if nxt.start_s >= e.affected_end_s - 1e-9:  # it begins past the group's window: the next group's first
                break
            ends = effect(fine, nxt.start_s, nxt.end_s, skip=skip, busy_until_s=nxt.busy_until_s).affected_end_s
            members.append(order[at])
            at += 1
            e = effect(fine, events[members[0]].start_s, max(events[i].end_s for i in members),
                       until_s=max(ends, e.affected_end_s), skip=skip, busy_until_s=_busy([events[i] for i in members]))
        first = math.floor(events[members[0]].start_s / dt + 1e-9)
        affected.update(range(first, round(e.affected_end_s / dt)))
        out.append((members, e, skip))
    return out


def charge(fine: FineSeries, events: list[Happening]) -> list[Charge]:
    """What each of ``events`` is charged (in their order), overlapping ones once (see the module)."""
    out: list[Charge | None] = [None] * len(events)
    for members, together, skip in groups(fine, events):
        if len(members) == 1:
            (i,) = members
            out[i] = Charge(together, (), events[i].label)
            continue
        group = [events[i] for i in members]
        who = blamed(group)
        payer = members[group.index(who)] if who is not None else members[0]
        to = who.label if who is not None else "+".join(h.label for h in group)
        for i in members:
            own = effect(fine, events[i].start_s, events[i].end_s, skip=skip, busy_until_s=events[i].busy_until_s)
            mine = together if i == payer else _uncharged(own)
            if i != payer:  # its own latency figures stay its own; the window is the group's
                mine = replace(mine, during_s=together.during_s, affected_end_s=together.affected_end_s,
                               window_open=together.window_open)
            out[i] = Charge(mine, tuple(events[j].label for j in members if j != i), to)
    return [c for c in out if c is not None]

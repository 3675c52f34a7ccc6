"""Slices of an alternated session that another target's late operations took whole: no client could start an
operation in them, so they say nothing about their own target's server.

An operation in flight at a switch finishes and belongs to the slice it started in (:mod:`ycsbctl.engine.
alternating_worker`), so a target whose server answers late holds every client past the switch: the slice after
it (of another target) may end before any client is free, and its target then serves nothing through no fault of
its own. The late target's own operations carry the wait (its slowest operation, its stall); the held target's
series shows a second without a reply, which read alone is a stall of *its* server. A slice is held when it
measured no operation and began while an operation of an earlier slice of another target was still running
(``switch_s``: how far a slice's last operation ran past its end): its clients came late, if at all, and what was
left of it measured nothing (on a loaded host, 50 ms left of a slice once went without an operation, and the held
target's whole second read as its stall). The seconds of a target's series made only
of its held slices are not evidence of a stall (:func:`ycsbctl.telemetry.stall.find_stall` reads an absent second
as unknown); the engine leaves their time out of the point's runtime (``held`` in its slices table:
:mod:`ycsbctl.engine.alternated_session`) and the slice pairs leave their blocks out (:mod:`ycsbctl.results.
slice_pairs`), so the point stays a measurement of its own server, compared like any other, with a reason that says
how many of its slices were held, and by whom. A slice its clients reached late, yet in time to start an
operation, is not held: it keeps its whole time (its settle window takes its first moments).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd


@dataclass(frozen=True)
class HeldSlice:
    """One slice of a target that served nothing because clients were still in ``holder``'s operations: its
    number, its start and end (s since the session's start, warm-up included) and the holder's label."""

    slice: int
    start_s: float
    end_s: float
    holder: str


def held_slices(slices: Mapping[str, pd.DataFrame | None]) -> dict[str, list[HeldSlice]]:
    """Each target's held slices (its label → them, in order; a target without any is left out), from every
    target's slices of one session (label → the ``slice``, ``t_start_s``, ``t_end_s``, ``operations`` and
    ``switch_s`` columns; None or empty for a target without slices)."""
    rows = sorted((int(k), float(lo), float(hi), int(n), float(sw), label)
                  for label, frame in slices.items() if frame is not None and not frame.empty
                  for k, lo, hi, n, sw in zip(frame["slice"], frame["t_start_s"], frame["t_end_s"],
                                              frame["operations"], frame["switch_s"]))
    held: dict[str, list[HeldSlice]] = {}
    last_end, holder = -math.inf, ""  # when the latest operation of an earlier slice ended, and whose it was
    for k, lo, hi, n, switch_s, label in rows:
        if n == 0 and holder and holder != label and last_end > lo + 1e-9:
            held.setdefault(label, []).append(HeldSlice(k, lo, hi, holder))
        if n and not math.isnan(switch_s) and hi + switch_s > last_end:
            last_end, holder = hi + switch_s, label
    return held


def held_in(own: pd.DataFrame | None) -> list[HeldSlice]:
    """A target's held slices, in order, as its own slices say (``held`` and ``held_by``, set by the engine from
    :func:`held_slices` over the session: ``slice``, ``t_start_s`` and ``t_end_s`` too); none without them."""
    if own is None or own.empty or "held" not in own or "held_by" not in own:
        return []
    rows = own[own["held"].astype(bool)]
    return [HeldSlice(int(k), float(lo), float(hi), str(by))
            for k, lo, hi, by in zip(rows["slice"], rows["t_start_s"], rows["t_end_s"], rows["held_by"])]


def held_seconds(own: pd.DataFrame | None, held: list[HeldSlice]) -> set[int]:
    """The seconds of a target's series (since the session's start: the second each slice starts in) whose
    every slice was held, from the target's own slices ``own`` (the ``slice`` and ``t_start_s`` columns)."""
    if own is None or own.empty or not held:
        return set()
    numbers = {h.slice for h in held}
    by_second: dict[int, list[bool]] = {}
    for k, lo in zip(own["slice"], own["t_start_s"]):
        by_second.setdefault(int(float(lo) + 1e-9), []).append(int(k) in numbers)
    return {second for second, flags in by_second.items() if all(flags)}


def held_note(held: list[HeldSlice], slices: int) -> str | None:
    """What a point's reason says of its held slices (of ``slices`` in all), or None without any."""
    if not held:
        return None
    holders = ", ".join(dict.fromkeys(h.holder for h in held))
    span = sum(h.end_s - h.start_s for h in held)
    return (f"{len(held)} of its {slices} slices ({span:.1f} s) served nothing: every client was still waiting on "
            f"{holders}'s late operations (not its own stall; left out of its rate and its slice pairs)")

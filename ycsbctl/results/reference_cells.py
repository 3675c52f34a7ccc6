"""The cells two folders share, each read against its own folder's reference server
(:mod:`ycsbctl.results.reference_pairs`), and whether the host readings they rest on can be trusted.

A cell's answer rests on the reference; it is held ``undecided`` (with why) where the reference cannot divide the
host out:

* the reference itself moved between the folders beyond the host's drift margin (its own ratio B/A, the median
  over the shared cells: one folder ran on a host another program was using);
* the cell's points were degraded in one folder and not in the other — another program, the hypervisor's steal (a
  hog hits a server and its client sharing cores unlike it hits the reference; said with what the points said),
  unless the cell is read against a control target that the other folder measured as equivalent to this one
  (:func:`_released`);
* the CPUs the two runs could use differ (``taskset``: the manifest's ``reference.cpus``);
* this cell's reference reading lies far from the other cells' (beyond the drift margin from their median, its
  own interval leaving that median out) and it moved alone — every target's ratio against it in that session moved
  the other way (:func:`_moved_alone`; a session where the host itself was slow moves the targets with it): a first
  reading of a cold reference, a burst on it alone; said with "its first reading" where the cell holds a folder's
  first reference session.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ycsbctl.results import reference_pairs as rp
from ycsbctl.results import stats
from ycsbctl.results.causes import by_cause
from ycsbctl.results.cells import cell_groups
from ycsbctl.results.slice_pairs import mean_of

MIN_CELLS_FOR_OUTLIER = 3  # cells of a folder pair from which one cell's reference reading is checked against theirs


@dataclass(frozen=True)
class ReferenceCell:
    """One shared cell read against the references: its comparison (other ÷ base), the reference's own ratio in
    it, and why no verdict may rest on it (None: it may)."""

    comparison: stats.Comparison
    reference_ratio: float
    held: str | None = None
    control: str | None = None  # the control target it was read against, block by block (None: the reference)
    released: str | None = None  # why a hold for one folder's degraded points does not apply (:func:`_released`)


def cpus_text(cpus: list[int] | None) -> str:
    """``0-1`` / ``0,2`` for a CPU list (``?`` when unknown)."""
    if not cpus:
        return "?"
    cpus = sorted(cpus)
    if cpus == list(range(cpus[0], cpus[-1] + 1)) and len(cpus) > 1:
        return f"{cpus[0]}-{cpus[-1]}"
    return ",".join(map(str, cpus))


def cpus_changed(base_cpus: list[int] | None, other_cpus: list[int] | None, labels: tuple[str, str]) -> str | None:
    """Why the host differed because the runs could use other CPUs, or None (same, or unknown in either)."""
    if not base_cpus or not other_cpus or sorted(base_cpus) == sorted(other_cpus):
        return None
    return (f"the host differed: {labels[0]} ran on CPUs {cpus_text(base_cpus)} and {labels[1]} on "
            f"{cpus_text(other_cpus)} (taskset), which the reference cannot divide out")


def _busy(g: pd.DataFrame) -> bool:
    return bool(len(g)) and bool((g["status"] == "degraded").any())


def _busy_text(g: pd.DataFrame) -> str:
    """`` (host busy: the hypervisor took CPU (steal))``: what most of the cell's degraded points said, in
    :func:`ycsbctl.results.causes.cause`'s words; empty when they said nothing."""
    found = [c for _, c, _ in by_cause(g[g["status"] == "degraded"]) if c]
    return f" ({found[0]})" if found else ""


def reference_cells(base_runs: pd.DataFrame, base_slices: pd.DataFrame | None, other_runs: pd.DataFrame,
                    other_slices: pd.DataFrame | None, host_margin: float,
                    labels: tuple[str, str], cpus: tuple[list[int] | None, list[int] | None] = (None, None),
                    control: str | None = None) -> dict[tuple, ReferenceCell]:
    """Each cell (workload, target, threads, rate) both folders measured with their reference beside it: its
    reference-paired comparison and whether it is held (``host_margin``: the host's drift between experiments the
    reference may divide out, a fraction; ``labels``: the folders' names; ``cpus``: the CPUs each run could use).
    With a ``control`` target both folders measured in the same sessions, every other target's comparison is read
    against the control's blocks instead (:func:`ycsbctl.results.reference_pairs.reading`'s ``against``): two servers
    of one kind share the slow states of a session that the small reference does not (a quiet host's blocks, 29 Nov:
    sd 0.08–0.11 of the log ratio against the control, 0.09–0.19 against the reference, docs/benchmarks.md), while
    the checks that say where the host differed beyond what can be divided out still read the reference."""
    a = {k: g for k, g in cell_groups(base_runs)}
    b = {k: g for k, g in cell_groups(other_runs)}
    found: dict[tuple, tuple[stats.Comparison, stats.Comparison, rp.Reading, rp.Reading]] = {}
    firsts = rp.first_session(base_runs, base_slices), rp.first_session(other_runs, other_slices)
    for key in a.keys() & b.keys():
        ra = rp.reading(base_slices, set(a[key]["run_id"]), first=firsts[0])
        rb = rp.reading(other_slices, set(b[key]["run_id"]), first=firsts[1])
        if ra is not None and rb is not None:
            found[key] = (rp.compare(ra, rb), rp.reference_ratio(ra, rb), ra, rb)
    logs = [math.log(r.ratio) for _, r, _, _ in found.values() if r.ratio > 0]
    centre = math.exp(float(np.median(logs))) if logs else math.nan
    folder_wide = cpus_changed(*cpus, labels)
    if folder_wide is None and rp.drift(centre) > host_margin:
        folder_wide = (f"the host differed between the folders: the reference read {centre:.2f}× in {labels[1]} "
                       f"(median over {len(logs)} cells), beyond the ±{100 * host_margin:.0f} % it can divide out")
    out = {}
    for key, (c, rr, ra, rb) in found.items():
        held = folder_wide
        busy_only: str | None = None  # the hold for one folder's degraded points, which a control may release
        base_busy = _busy(a[key])
        if held is None and base_busy != _busy(b[key]):
            (busy, quiet), g = (labels, a[key]) if base_busy else (labels[::-1], b[key])
            held = busy_only = (f"the host differed: {busy}'s points of this cell were degraded{_busy_text(g)} and "
                                f"{quiet}'s were not, which hits a server and its client unlike the reference")
        if held is None and len(logs) >= MIN_CELLS_FOR_OUTLIER and _far(rr, centre, host_margin) \
                and _moved_alone(key, rr.ratio / centre, found, host_margin):
            first = [lab for lab, r in zip(labels, (ra, rb)) if r.first]
            held = (f"the reference's reading in this cell ({rr.ratio:.2f}× [{rr.low:.2f}, {rr.high:.2f}]) lies far "
                    f"from the other cells' ({centre:.2f}×)" + (f": its first reading in {' and '.join(first)}"
                                                               if first else "")
                    + ", so the host reading it rests on is not trusted")
        out[key] = ReferenceCell(c, rr.ratio, held)
        ckey = (key[0], control, *key[2:])
        if control is not None and key[1] != control and ckey in a and ckey in b:
            ca = rp.reading(base_slices, set(a[key]["run_id"]), set(a[ckey]["run_id"]))
            cb = rp.reading(other_slices, set(b[key]["run_id"]), set(b[ckey]["run_id"]))
            if ca is not None and cb is not None:
                # held for one folder's degraded points alone (no later check runs once a cell is held)
                released = None if busy_only is None else _released(cb if base_busy else ca, quiet, control,
                                                                      host_margin)
                out[key] = ReferenceCell(rp.compare(ca, cb, rp.CONTROL_TEST), rr.ratio,
                                         None if released else held, control, released and f"{busy_only}; {released}")
    return out


def _released(quiet: rp.Reading, label: str, control: str, margin: float) -> str | None:
    """Why a cell read against ``control`` may be decided although one folder's points were degraded: in the other
    folder (``quiet``, ``label``) the target and the control answered alike — the target's block rate against the
    control's, its 90 % interval inside ±``margin``: the two one-sided tests at α = 0.05, as ``equivalent`` is judged
    (:func:`ycsbctl.results.stats.decide`) — so a host that slowed them unlike each other in the degraded
    folder cannot have made a difference between the folders; what the degraded folder measured still only widens
    the interval. None where the quiet folder's own reading of the two does not show them alike (servers that differ
    can answer a busy host unlike each other: a gap the host masks in one folder would read as a change)."""
    m = mean_of(quiet.relative, quiet.sessions)
    if m.n < 2 or not m.se > 0:
        return None
    half = stats.t_quantile(1 - stats.ALPHA, m.df) * m.se  # the 90 % interval
    bound = math.log1p(margin)
    if not (-bound < m.mean - half and m.mean + half < bound):
        return None
    return (f"read all the same through control {control}, which {label} measured alike this target "
            f"({math.exp(m.mean):.3f}× [{math.exp(m.mean - half):.3f}, {math.exp(m.mean + half):.3f}], inside "
            f"±{100 * margin:.0f} %)")


def _moved_alone(key: tuple, ref_move: float, found: dict[tuple, tuple], margin: float) -> bool:
    """The reference moved alone in ``key``'s session (by ``ref_move`` against the other cells): the targets'
    ratios against it in that session moved the other way, each by at least half the ``margin`` against the same
    target's other cells. Where the host itself was slow or fast in that session, the targets moved with the
    reference and their ratios against it did not."""
    workload, _, threads, rate = key
    moves = []
    for (w, target, t, r), (c, *_) in found.items():
        if (w, t, r) != (workload, threads, rate) or not c.ratio > 0:
            continue
        others = [math.log(o[0].ratio) for k, o in found.items() if k[1] == target and k != (w, target, t, r)
                  and o[0].ratio > 0]
        if others:
            moves.append(math.log(c.ratio) - float(np.median(others)))
    half = math.log1p(margin) / 2
    sign = -1 if ref_move > 1 else 1  # a reference that read slower makes the targets read faster against it
    return bool(moves) and all(sign * m > half for m in moves)


def _far(rr: stats.Comparison, centre: float, margin: float) -> bool:
    """A cell's reference ratio ``rr`` lies far from the cells' ``centre``: beyond ``margin`` from it, and its
    interval leaves the centre out (a departure its own noise does not explain)."""
    if not (rr.ratio > 0 and centre > 0) or rp.drift(rr.ratio / centre) <= margin:
        return False
    return bool(rr.low > 0 and rr.high > 0 and not rr.low <= centre <= rr.high)

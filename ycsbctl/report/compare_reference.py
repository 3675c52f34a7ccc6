"""What ``compare A B`` says of the reference servers beside two folders' cells
(:mod:`ycsbctl.results.reference_cells`): the CPUs each run could use, and the note under the table."""

from __future__ import annotations

import math
import statistics

from ycsbctl.results.frames import Experiment
from ycsbctl.results.reference_cells import ReferenceCell
from ycsbctl.results.reference_pairs import DEFAULT_MARGIN


def folder_cpus(e: Experiment) -> list[int] | None:
    """The CPUs a folder's run could use (its manifest's ``reference.cpus``), None in an older folder."""
    cpus = (e.manifest.reference or {}).get("cpus")
    return [int(c) for c in cpus] if cpus else None


def reference_note(refs: dict[tuple, ReferenceCell], label: str, control: str | None) -> str | None:
    """What the references said between the folders: the cells read against them, the reference's own ratio
    (median over cells) and the cells held; beside a control, whether the control agrees with the reference (its
    own ratio against the reference within the between-run bound) and the cells decided through it although their
    points were degraded in one folder only (:func:`ycsbctl.results.reference_cells._released`)."""
    if not refs:
        return None
    median = statistics.median(r.reference_ratio for r in refs.values())
    held = sum(r.held is not None for r in refs.values())
    released = sum(r.released is not None for r in refs.values())
    agree = ""
    if control is not None:
        own = [r.comparison.ratio for k, r in refs.items() if k[1] == control]
        if own:
            worst = max(own, key=lambda x: abs(math.log(x)) if x > 0 else 0)
            agree = (f"; control {control} read {worst:.2f}× against the reference "
                     + ("(they agree)" if abs(worst - 1) <= DEFAULT_MARGIN else "(they disagree: see its cells)"))
    return (f"{label}: {len(refs)} cells read against each folder's reference server (its own ratio "
            f"{median:.2f}× between the folders, median over cells, divided out block by block)"
            + (f"; {held} held undecided because the host differed beyond what it divides out" if held else "")
            + (f"; {released} decided through control {control} although their points were degraded in one folder "
               "only: the other folder measured them alike the control (see each cell's caveat)" if released else "")
            + agree)

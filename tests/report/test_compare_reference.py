"""What ``compare`` says under its table of the reference servers (report/compare_reference.py): the reference's
own ratio between the folders and, beside a control, whether the control read against the reference agrees."""

from __future__ import annotations

from ycsbctl.report.compare_reference import reference_note
from ycsbctl.results import stats
from ycsbctl.results.reference_cells import ReferenceCell
from ycsbctl.results.reference_pairs import DEFAULT_MARGIN


def _cell(ratio: float, reference_ratio: float = 1.0, held: str | None = None,
          released: str | None = None) -> ReferenceCell:
    c = stats.Comparison(ratio, ratio / 1.02, ratio * 1.02, 0.5, "t", 30, 0.04, 0.1)
    return ReferenceCell(c, reference_ratio, held, "ctl" if released else None, released)


def test_a_control_is_said_to_agree_only_while_its_furthest_reading_is_inside_the_between_run_bound():
    inside, outside = 1 + DEFAULT_MARGIN / 2, 1 + 2 * DEFAULT_MARGIN
    # keys as compare's: (workload, target, threads, ...); the control's cells are those of its target
    agreeing = {("b", "ctl", 8): _cell(inside), ("b", "ctl", 16): _cell(1 / inside), ("b", "x", 8): _cell(0.5)}
    note = reference_note(agreeing, "A → B", "ctl")
    assert note is not None and f"control ctl read {inside:.2f}× against the reference (they agree)" in note
    # the furthest from 1 in either direction is the one said: 1/1.10 beyond 1.025
    apart = {("b", "ctl", 8): _cell(inside), ("b", "ctl", 16): _cell(1 / outside), ("b", "x", 8): _cell(1.0)}
    note = reference_note(apart, "A → B", "ctl")
    assert note is not None and f"read {1 / outside:.2f}× against the reference (they disagree" in note


def test_the_note_gives_the_references_median_ratio_and_the_cells_held():
    refs = {("b", "x", t): _cell(1.0, r, "the host differed" if r > 1.2 else None)
            for t, r in ((8, 0.9), (16, 1.1), (32, 1.3))}
    note = reference_note(refs, "A → B", None)
    assert note is not None and "3 cells read against" in note and "its own ratio 1.10× between the folders" in note
    assert "1 held undecided" in note and "control" not in note
    refs[("b", "x", 64)] = _cell(1.0, 1.5)  # an even count: the mean of the two middle readings
    assert "its own ratio 1.20× between the folders" in (reference_note(refs, "A → B", None) or "")
    assert reference_note({}, "A → B", None) is None


def test_the_note_counts_the_cells_decided_through_the_control_though_one_folders_points_were_degraded():
    refs = {("b", "x", 8): _cell(0.85, released="read all the same through control ctl"),
            ("b", "x", 16): _cell(0.9, held="the host differed"), ("b", "ctl", 8): _cell(1.0)}
    note = reference_note(refs, "A → B", "ctl") or ""
    assert "1 held undecided" in note and ("1 decided through control ctl although their points were degraded in one "
                                           "folder only") in note
    assert "decided through" not in (reference_note({("b", "x", 8): _cell(0.9)}, "A → B", "ctl") or "")
